/**
 * The line a scenario file written by Loupe starts with, after its title: where a person finds
 * the schema. The file may be read on disk, far from a running Loupe, so both places are named.
 */
export const SCENARIO_SCHEMA_NOTE =
  'JSON Schema: /scenario.schema.json on a running Loupe, node_modules/mcp-loupe/public/scenario.schema.json where installed; check a file with `mcp-loupe validate FILE`';
