import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema, SCENARIO_SCHEMA_ID } from '../../../lib/scenario/json-schema';

describe('scenarioJsonSchema', () => {
  it('is plain JSON with an id, a title and the scenario properties', () => {
    const schema = JSON.parse(JSON.stringify(scenarioJsonSchema())) as Record<string, any>;
    expect(schema.$id).toBe(SCENARIO_SCHEMA_ID);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.properties.tools.type).toBe('array');
    expect(schema.properties.tools.items.properties.task).toBeDefined();
    expect(schema.required).toEqual(['id', 'server']);
    // Input side: defaulted fields are optional, and the defaults are shown to editors.
    expect(schema.properties.settings.properties.pollIntervalMs.default).toBe(1000);
  });

  it('matches the published public/scenario.schema.json (run `npm run schema` after editing the schema)', () => {
    const published = JSON.parse(readFileSync(new URL('../../../public/scenario.schema.json', import.meta.url), 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(scenarioJsonSchema())));
  });
});
