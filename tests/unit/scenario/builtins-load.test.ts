import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { builtinScenarioIds, builtinScenarioInput } from '../../../lib/scenario/builtins/index';
import { formatIssues, parseScenario } from '../../../lib/scenario/loader';

/** The built-ins, written out as files, pass every loader rule (not only the zod schema). */
describe('built-in scenarios as files', () => {
  for (const id of builtinScenarioIds()) {
    it(`${id} loads as JSON and as YAML without issues`, () => {
      const input = builtinScenarioInput(id);
      for (const [text, source] of [
        [JSON.stringify(input, null, 2), `${id}.json`],
        [stringify(input), `${id}.yaml`],
      ] as const) {
        const result = parseScenario(text, source);
        expect(result.ok ? '' : formatIssues(result.errors)).toBe('');
        if (result.ok) expect(formatIssues(result.warnings)).toBe('');
      }
    });
  }
});
