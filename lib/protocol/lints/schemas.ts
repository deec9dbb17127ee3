import { show, type Report, type View } from './model';
import { asRecord } from '../../shared/records';
import type { Tool } from '../tools';

/**
 * Tool calls checked against the tool's JSON Schemas: the arguments sent against `inputSchema`
 * (nested objects and arrays included) and a complete result's `structuredContent` against
 * `outputSchema`, one lint per failure with its JSON path. The validator is injected (the
 * inspector's client brings ajv, a JSON Schema 2020-12 validator), so the protocol room, and
 * the engine bundle that shares it, carry no validator of their own.
 */

/** One validation failure: where in the value (a JSON Pointer, `""` for the root) and why. */
export interface SchemaFailure {
  pointer: string;
  message: string;
}

/** Validate a value against a schema: its failures, or why the schema itself cannot be used. */
export type SchemaValidator = (schema: unknown, value: unknown) => { failures: SchemaFailure[] } | { schemaError: string };

/** `/a/0/b~1c` → `.a[0]["b/c"]`, appended to a lint path. */
export function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) => (/^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`))
    .join('');
}

function check(
  validate: SchemaValidator,
  schema: unknown,
  value: unknown,
  at: string,
  what: string,
  mismatch: 'tool-arguments-schema-mismatch' | 'tool-output-schema-mismatch',
  report: Report,
): void {
  const out = validate(schema, value);
  if ('schemaError' in out) {
    report('tool-schema-invalid', `The ${what} cannot be used to check this call: ${out.schemaError}`);
    return;
  }
  for (const f of out.failures) report(mismatch, `${what}: ${f.message}`, `${at}${pointerToPath(f.pointer)}`);
}

/** A complete CallToolResult (at `at`) against the tool's outputSchema. */
function checkOutput(tool: Tool, r: Record<string, unknown>, at: string, validate: SchemaValidator, report: Report): void {
  if (!tool.outputSchema || r.isError === true) return;
  if (r.resultType !== undefined && r.resultType !== 'complete') return;
  if (r.structuredContent === undefined) {
    report('tool-structured-content-missing', `Tool ${show(tool.name)} declares an outputSchema but its result has no structuredContent`, at);
    return;
  }
  if (!asRecord(r.structuredContent)) {
    report(
      'tool-output-schema-mismatch',
      `structuredContent of ${show(tool.name)} must be an object, got ${show(r.structuredContent)}`,
      `${at}.structuredContent`,
    );
    return;
  }
  check(
    validate,
    tool.outputSchema,
    r.structuredContent,
    `${at}.structuredContent`,
    `structuredContent of ${show(tool.name)} against its outputSchema`,
    'tool-output-schema-mismatch',
    report,
  );
}

/** tools/call: arguments against inputSchema, structuredContent against outputSchema (tools known from tools/list). */
export function checkToolSchemas(v: View, validate: SchemaValidator, report: Report): void {
  if (v.method !== 'tools/call' || typeof v.params.name !== 'string') return;
  const tool = v.ctx.tools?.find((t) => t.name === v.params.name);
  if (!tool) return;
  // A retry of an MRTR round carries the same arguments: they were checked on the first round.
  if (v.isRequest && v.params.inputResponses === undefined && v.params.requestState === undefined) {
    const args = v.params.arguments ?? {};
    check(
      validate,
      tool.inputSchema,
      args,
      'request.body.params.arguments',
      `Arguments of ${show(tool.name)} against its inputSchema`,
      'tool-arguments-schema-mismatch',
      report,
    );
  }
  // A 2025-11-25 CreateTaskResult (`task`) holds no tool result yet.
  if (v.result && !asRecord(v.result.task)) checkOutput(tool, v.result, 'response.body.result', validate, report);
}

/** A completed task's result (tasks/get) against the outputSchema of the tool whose call created it. */
export function checkTaskResultSchema(v: View, toolName: string | undefined, validate: SchemaValidator, report: Report): void {
  const r = v.result;
  if (v.method !== 'tasks/get' || !r || r.status !== 'completed' || !toolName) return;
  const tool = v.ctx.tools?.find((t) => t.name === toolName);
  const result = asRecord(r.result);
  // The inlined result is the tool call's complete result, whatever resultType it carries.
  if (tool && result) checkOutput(tool, { ...result, resultType: undefined }, 'response.body.result.result', validate, report);
}
