import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema, SCENARIO_SCHEMA_ID } from '../../../lib/scenario/json-schema';

/** The value at a key path of parsed JSON, or undefined where the path leaves the objects. */
function at(json: unknown, ...path: string[]): unknown {
  let node = json;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every subschema of a JSON Schema with a readable location (`tools[].task.steps[].delayMs`, `$defs.MrtrRound`). */
function* subschemas(node: unknown, where: string): Generator<{ node: Node; where: string }> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* subschemas(item, `${where}/${i}`);
    return;
  }
  if (!isNode(node)) return;
  yield { node, where };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isNode(value)) for (const [name, prop] of Object.entries(value)) yield* subschemas(prop, `${where}.${name}`);
    else if (key === 'items') yield* subschemas(value, `${where}[]`);
    else if (key === '$defs' && isNode(value)) for (const [name, def] of Object.entries(value)) yield* subschemas(def, `$defs.${name}`);
    else if (key !== 'default' && key !== 'enum' && key !== 'const') yield* subschemas(value, `${where}/${key}`);
  }
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

  it('describes every property for the author who hovers it in an editor', () => {
    const schema: unknown = JSON.parse(JSON.stringify(scenarioJsonSchema()));
    const properties: string[] = [];
    const undescribed: string[] = [];
    for (const { node, where } of subschemas(schema, '')) {
      if (!isNode(node.properties)) continue;
      for (const [name, prop] of Object.entries(node.properties)) {
        properties.push(`${where}.${name}`);
        const description = isNode(prop) ? prop.description : undefined;
        if (typeof description !== 'string' || description.length < 10) undescribed.push(`${where}.${name}`);
      }
    }
    expect(undescribed).toEqual([]);
    expect(properties.length).toBeGreaterThan(150);
    // Shared pieces are described where they are defined too.
    for (const [name, def] of Object.entries((at(schema, '$defs') ?? {}) as Record<string, unknown>))
      expect([name, at(def, 'description')]).toEqual([name, expect.any(String)]);
  });

  it('closes every object to unknown keys except the ones whose format is open on purpose', () => {
    const schema: unknown = JSON.parse(JSON.stringify(scenarioJsonSchema()));
    const open: string[] = [];
    for (const { node, where } of subschemas(schema, '')) {
      if (node.type === 'object' && node.additionalProperties !== false) open.push(where.replace(/^\./, ''));
    }
    // Records of the protocol's own shapes (JSON Schema bodies, _meta, annotations, icons, request
    // params), structuredContent (its tool's outputSchema says what it holds), handler options and state.
    expect(open.sort()).toEqual(
      [
        '$defs.ContentBlock/oneOf/3.icons[]',
        '$defs.ContentMeta',
        '$defs.InputRequest.params',
        '$defs.MrtrRound.inputRequests',
        '$defs.ToolResult.structuredContent',
        // Keyed by scope and by tool name.
        'auth.resource.scopeImplies',
        'auth.resource.toolScopes',
        'faults[].action/oneOf/1.body/anyOf/1',
        'prompts[]._meta',
        'prompts[].icons[]',
        'resourceTemplates[]._meta',
        'resourceTemplates[].annotations',
        'resourceTemplates[].icons[]',
        'resources[]._meta',
        'resources[].annotations',
        'resources[].icons[]',
        'state',
        'tools[]._meta',
        'tools[].annotations',
        'tools[].icons[]',
        'tools[].inputSchema',
        'tools[].options',
        'tools[].outputSchema',
        'tools[].requires',
        'tools[].task.steps[].inputRequests',
      ].sort(),
    );
    expect(at(schema, 'additionalProperties')).toBe(false);
    expect(at(schema, 'properties', 'tools', 'items', 'additionalProperties')).toBe(false);
    expect(at(schema, 'properties', 'faults', 'items', 'additionalProperties')).toBe(false);
  });
});
