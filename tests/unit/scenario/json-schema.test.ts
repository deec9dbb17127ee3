import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema, SCENARIO_SCHEMA_ID } from '../../../lib/scenario/json-schema';

/** The value at a key path of parsed JSON, or undefined where the path leaves the objects. */
function at(json: unknown, ...path: string[]): unknown {
  let node = json;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

describe('scenarioJsonSchema', () => {
  it('is plain JSON with an id, a title and the scenario properties', () => {
    const schema: unknown = JSON.parse(JSON.stringify(scenarioJsonSchema()));
    expect(at(schema, '$id')).toBe(SCENARIO_SCHEMA_ID);
    expect(at(schema, '$schema')).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(at(schema, 'title')).toEqual(expect.any(String));
    expect(at(schema, 'properties', 'tools', 'type')).toBe('array');
    expect(at(schema, 'properties', 'tools', 'items', 'properties', 'task')).toBeDefined();
    expect(at(schema, 'required')).toEqual(['id', 'server']);
    // Input side: defaulted fields are optional, and the defaults are shown to editors.
    expect(at(schema, 'properties', 'settings', 'properties', 'pollIntervalMs', 'default')).toBe(1000);
  });

  it('matches the published public/scenario.schema.json (run `npm run schema` after editing the schema)', () => {
    const published = JSON.parse(readFileSync(new URL('../../../public/scenario.schema.json', import.meta.url), 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(scenarioJsonSchema())));
  });
});
