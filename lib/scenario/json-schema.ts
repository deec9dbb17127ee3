import { z } from 'zod';
import { ScenarioSchema } from './schema';

/**
 * The scenario format as JSON Schema, published at `public/scenario.schema.json` (by
 * `npm run schema`) so editors can autocomplete and check scenario files.
 */

/** Where the published schema lives; scenario files point `$schema` at it. */
export const SCENARIO_SCHEMA_ID = 'https://mcp-loupe.dev/scenario.schema.json';

/**
 * Generates the JSON Schema of a scenario file. It describes the input side (what an author
 * writes: fields with defaults are optional), which is what an editor checks.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(ScenarioSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema,
    $id: SCENARIO_SCHEMA_ID,
    title: 'Loupe scenario',
    description: 'A mock MCP server scenario for Loupe (mcp-loupe): server info, tools and their behaviours, resources, prompts and faults.',
    ...rest,
  };
}
