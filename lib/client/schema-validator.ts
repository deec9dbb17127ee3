import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { SchemaFailure, SchemaValidator } from '../protocol';
import { asRecord } from '../shared/records';

/**
 * The JSON Schema 2020-12 validator behind the tool schema lints (ajv). MCP's default dialect is
 * 2020-12; a schema that names another dialect (draft-07 from older SDKs) is checked as 2020-12,
 * which agrees on everything tool schemas use, rather than not at all. Unknown keywords (such as
 * `x-mcp-header`) and formats are ignored, never errors: servers annotate schemas freely.
 * Compiled schemas are kept per schema text, the most recent 200.
 *
 * No meta-schema validation (`validateSchema: false`): compiling the 2020-12 meta-schema costs
 * the first tools/call ~0.5 s in Node and more on a busy page, in one task. ajv's compiler still
 * refuses a schema whose keywords have values of the wrong kind (`type: "nonsense"`,
 * `required: "x"`, `properties: 5`, an unresolvable `$ref`, a bad `pattern`), so the
 * `tool-schema-invalid` lint still fires for those; only range rules (`minLength: -1`) go unseen.
 */

const MAX_COMPILED = 200;

/** The failure's pointer: for a missing or extra property, the property itself rather than its parent. */
function failureOf(e: ErrorObject): SchemaFailure {
  const p = e.params as Record<string, unknown>;
  const prop = e.keyword === 'required' ? p.missingProperty : e.keyword === 'additionalProperties' ? p.additionalProperty : undefined;
  const pointer = typeof prop === 'string' ? `${e.instancePath}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}` : e.instancePath;
  return { pointer, message: `${e.instancePath || '(root)'} ${e.message ?? e.keyword}` };
}

/** A validator with its own compiled-schema cache. */
export function createSchemaValidator(): SchemaValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, validateSchema: false, logger: false });
  const compiled = new Map<string, ValidateFunction | string>();

  function compile(schema: unknown): ValidateFunction | string {
    const key = JSON.stringify(schema) ?? 'undefined';
    const hit = compiled.get(key);
    if (hit !== undefined) return hit;
    let out: ValidateFunction | string;
    const record = asRecord(schema);
    if (!record && typeof schema !== 'boolean') out = `the schema is ${key}, not an object`;
    else {
      // $schema goes (every dialect is checked as 2020-12, see above); $id goes so two tools
      // with the same $id do not collide in ajv's registry.
      const { $schema: _dialect, $id: _id, ...rest } = record ?? {};
      const usable = record ? rest : schema;
      try {
        out = ajv.compile(usable as object);
      } catch (e) {
        out = (e as Error).message;
      }
    }
    compiled.set(key, out);
    if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value ?? '');
    return out;
  }

  return (schema, value) => {
    const fn = compile(schema);
    if (typeof fn === 'string') return { schemaError: fn };
    if (fn(value)) return { failures: [] };
    return { failures: (fn.errors ?? []).map(failureOf) };
  };
}
