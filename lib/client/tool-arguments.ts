import { describeForm, formContent, initialValues, validateField, type FieldValue, type FormFieldSpec } from './elicitation-form';
import { asRecord } from '../shared/records';

/**
 * A tool's `inputSchema` as a form, pure: flat properties (strings with formats, numbers,
 * booleans, enums, multi-select arrays) become the same fields elicitation forms use; anything
 * else (objects, free arrays, unions, untyped) becomes a JSON field the user writes by hand.
 * The schema itself is never rewritten: it is only read to build the form.
 */

/** A property the form cannot show as a control: its value is typed as JSON. */
export interface JsonArgField {
  key: string;
  kind: 'json';
  label: string;
  description?: string;
  required: boolean;
  /** The property's schema, shown as a hint. */
  schemaText: string;
  default?: string;
}

/** One argument field of a tool form: a plain form field, or raw JSON for what a form cannot express. */
export type ArgField = FormFieldSpec | JsonArgField;
/** The raw UI values of a tool form, by argument name. */
export type ArgValues = Record<string, FieldValue>;

/** The fields of a tool's inputSchema, in property order. */
export function describeArguments(inputSchema: unknown): ArgField[] {
  const schema = asRecord(inputSchema);
  const props = asRecord(schema?.properties) ?? {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []);
  return Object.entries(props).map(([key, prop]): ArgField => {
    const one = describeForm({ properties: { [key]: prop }, required: required.has(key) ? [key] : [] }).fields[0];
    if (one) return one;
    const p = asRecord(prop) ?? {};
    return {
      key,
      kind: 'json',
      label: typeof p.title === 'string' ? p.title : key,
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
      required: required.has(key),
      schemaText: JSON.stringify(prop),
      ...(p.default !== undefined ? { default: JSON.stringify(p.default) } : {}),
    };
  });
}

/** Initial values: defaults pre-filled. */
export function initialArgValues(fields: ArgField[]): ArgValues {
  const values: ArgValues = initialValues(fields.filter((f): f is FormFieldSpec => f.kind !== 'json'));
  for (const f of fields) if (f.kind === 'json') values[f.key] = f.default ?? '';
  return values;
}

/** What is wrong with one argument, or undefined. */
function validateArg(f: ArgField, value: FieldValue | undefined): string | undefined {
  if (f.kind !== 'json') return validateField(f, value);
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return f.required ? 'Required' : undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    return `Not JSON: ${(e as Error).message}`;
  }
}

/**
 * The `arguments` object, or the errors that block the call. Empty optional fields are left
 * out; an unchecked optional checkbox without a default is left out too (absent ≠ false).
 */
export function buildArguments(
  fields: ArgField[],
  values: ArgValues,
): { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const problem = validateArg(f, values[f.key]);
    if (problem) errors[f.key] = problem;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const form = fields.filter((f): f is FormFieldSpec => f.kind !== 'json');
  const args: Record<string, unknown> = formContent(form, values);
  for (const f of form) if (f.kind === 'boolean' && values[f.key] !== true && !f.required && f.default === undefined) delete args[f.key];
  for (const f of fields) {
    const text = f.kind === 'json' && typeof values[f.key] === 'string' ? (values[f.key] as string).trim() : '';
    if (f.kind === 'json' && text) args[f.key] = JSON.parse(text);
  }
  return { ok: true, args };
}

/** Parse the raw JSON mode: it must be an object. */
export function parseRawArguments(text: string): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, args: {} };
  try {
    const v = JSON.parse(text) as unknown;
    return asRecord(v) ? { ok: true, args: v as Record<string, unknown> } : { ok: false, error: 'Arguments must be a JSON object' };
  } catch (e) {
    return { ok: false, error: `Not JSON: ${(e as Error).message}` };
  }
}
