import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../lib/scenario/loader';
import { newScenarioYaml } from '../../lib/scenario/new-scenario';

describe('new scenario template', () => {
  it('is a valid scenario under the id it is created with, with a callable tool', () => {
    const parsed = parseScenario(newScenarioYaml('my-new-one'), 'my-new-one.yaml');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.scenario.id).toBe('my-new-one');
    expect(parsed.scenario.tools.map((t) => t.name)).toEqual(['echo']);
  });
});
