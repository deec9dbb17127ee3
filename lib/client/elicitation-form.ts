import { secretHint, type ElicitResult } from '../protocol';
import { asRecord } from '../shared/records';
import { codePoints, FORMAT_EXAMPLES, matchesFormat, TEXT_FORMATS, type TextFormat } from '../protocol/string-formats';

/**
 * Form-mode elicitation, pure: turn a `requestedSchema` into fields, pre-fill defaults, validate
 * what the user typed and build the `ElicitResult`. The UI keeps raw input (text for numbers,
 * '' for "nothing chosen") so it can say what is wrong rather than silently coercing.
 */

type FieldKind = 'text' | 'number' | 'boolean' | 'select' | 'multi';

interface FieldOption {
  value: string;
  label: string;
}

/** One form field derived from a `PrimitiveSchemaDefinition`. */
export interface FormFieldSpec {
  key: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  format?: TextFormat;
  minLength?: number;
  maxLength?: number;
  integer?: boolean;
  minimum?: number;
  maximum?: number;
  options?: FieldOption[];
  minItems?: number;
  maxItems?: number;
  /** Why this field looks like a secret (servers must not ask for one in form mode). */
  secret?: string;
  default?: string | number | boolean | string[];
}

/** Raw UI state of a field: text and numbers as typed, the chosen option ('' = none), a checkbox, a set. */
export type FieldValue = string | boolean | string[];
type FormValues = Record<string, FieldValue>;
/** Problems with the typed values, by field name. */
export type FormErrors = Record<string, string>;
type ElicitContent = NonNullable<ElicitResult['content']>;

type Raw = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function optionsOf(p: Raw): FieldOption[] | undefined {
  if (Array.isArray(p.oneOf))
    return p.oneOf.flatMap((o) =>
      asRecord(o) && typeof asRecord(o)!.const === 'string'
        ? [{ value: asRecord(o)!.const as string, label: str(asRecord(o)!.title) ?? (asRecord(o)!.const as string) }]
        : [],
    );
  if (Array.isArray(p.anyOf)) return optionsOf({ oneOf: p.anyOf });
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.filter((v): v is string => typeof v === 'string').map((v, i) => ({ value: v, label: str(names[i]) ?? v }));
  }
  return undefined;
}

function fieldOf(key: string, p: Raw, required: boolean): FormFieldSpec | undefined {
  const base = { key, label: str(p.title) ?? key, description: str(p.description), required, secret: secretHint(key, p) };
  if (p.type === 'string') {
    const options = optionsOf(p);
    if (options) return { ...base, kind: 'select', options, default: str(p.default) };
    const format = TEXT_FORMATS.find((f) => f === p.format);
    return { ...base, kind: 'text', format, minLength: num(p.minLength), maxLength: num(p.maxLength), default: str(p.default) };
  }
  if (p.type === 'number' || p.type === 'integer')
    return { ...base, kind: 'number', integer: p.type === 'integer', minimum: num(p.minimum), maximum: num(p.maximum), default: num(p.default) };
  if (p.type === 'boolean') return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : undefined };
  if (p.type === 'array') {
    const options = optionsOf(asRecord(p.items) ?? {});
    if (!options) return undefined;
    const d = Array.isArray(p.default) ? p.default.filter((v): v is string => typeof v === 'string') : undefined;
    return { ...base, kind: 'multi', options, minItems: num(p.minItems), maxItems: num(p.maxItems), default: d };
  }
  return undefined;
}

/** Fields of a requested schema, in property order; unsupported properties are named in `problems`. */
export function describeForm(requestedSchema: unknown): { fields: FormFieldSpec[]; problems: string[] } {
  const schema = asRecord(requestedSchema);
  const props = asRecord(schema?.properties);
  if (!props) return { fields: [], problems: ['The server sent no usable requestedSchema (an object with properties).'] };
  const required = new Set(Array.isArray(schema!.required) ? schema!.required.filter((k): k is string => typeof k === 'string') : []);
  const fields: FormFieldSpec[] = [];
  const problems: string[] = [];
  for (const [key, prop] of Object.entries(props)) {
    const field = asRecord(prop) ? fieldOf(key, asRecord(prop)!, required.has(key)) : undefined;
    if (field) fields.push(field);
    else problems.push(`Field "${key}" uses a schema a form cannot show (only flat strings, numbers, booleans and enums are allowed); it is left out.`);
  }
  return { fields, problems };
}

/** Initial values: defaults pre-filled, otherwise empty (checkboxes unchecked). */
export function initialValues(fields: FormFieldSpec[]): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    if (f.kind === 'boolean') values[f.key] = typeof f.default === 'boolean' ? f.default : false;
    else if (f.kind === 'multi') values[f.key] = Array.isArray(f.default) ? [...f.default] : [];
    else if (f.kind === 'select') values[f.key] = typeof f.default === 'string' && f.options?.some((o) => o.value === f.default) ? f.default : '';
    else values[f.key] = f.default === undefined ? '' : String(f.default);
  }
  return values;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function textProblem(f: FormFieldSpec, text: string): string | undefined {
  if (f.format && !matchesFormat(f.format, text)) return `Enter ${FORMAT_EXAMPLES[f.format]}`;
  const length = codePoints(text);
  if (f.minLength !== undefined && length < f.minLength) return `Enter at least ${f.minLength} characters`;
  if (f.maxLength !== undefined && length > f.maxLength) return `Enter at most ${f.maxLength} characters`;
  return undefined;
}

/** What is wrong with one field's value, or undefined when it is acceptable. */
export function validateField(f: FormFieldSpec, value: FieldValue | undefined): string | undefined {
  if (f.kind === 'boolean') return undefined;
  if (f.kind === 'multi') {
    const chosen = Array.isArray(value) ? value : [];
    if (chosen.some((v) => !f.options?.some((o) => o.value === v))) return 'Choose only from the listed options';
    if (f.minItems !== undefined && chosen.length < f.minItems) return `Choose at least ${f.minItems}`;
    if (f.maxItems !== undefined && chosen.length > f.maxItems) return `Choose at most ${f.maxItems}`;
    return undefined;
  }
  const text = typeof value === 'string' ? value : '';
  if (text.trim() === '') return f.required ? 'Required' : undefined;
  if (f.kind === 'select') return f.options?.some((o) => o.value === text) ? undefined : 'Choose one of the options';
  if (f.kind === 'number') {
    const t = text.trim();
    if (!NUMBER.test(t)) return f.integer ? 'Enter a whole number' : 'Enter a number';
    const n = Number(t);
    if (f.integer && !Number.isSafeInteger(n)) return 'Enter a whole number';
    if (f.minimum !== undefined && n < f.minimum) return `Must be at least ${f.minimum}`;
    if (f.maximum !== undefined && n > f.maximum) return `Must be at most ${f.maximum}`;
    return undefined;
  }
  return textProblem(f, text);
}

/** Errors of every field, keyed by field. */
export function validateForm(fields: FormFieldSpec[], values: FormValues): FormErrors {
  const errors: FormErrors = {};
  for (const f of fields) {
    const problem = validateField(f, values[f.key]);
    if (problem) errors[f.key] = problem;
  }
  return errors;
}

/** Typed content for `accept`: numbers as numbers, empty optional fields left out. */
export function formContent(fields: FormFieldSpec[], values: FormValues): ElicitContent {
  const content: ElicitContent = {};
  for (const f of fields) {
    const v = values[f.key];
    if (f.kind === 'boolean') content[f.key] = v === true;
    else if (f.kind === 'multi') {
      const chosen = Array.isArray(v) ? v : [];
      if (chosen.length || f.required) content[f.key] = chosen;
    } else if (typeof v === 'string' && v.trim() !== '') content[f.key] = f.kind === 'number' ? Number(v.trim()) : v;
  }
  return content;
}

/** Submit: either the `accept` result or the errors that block it. */
export function submitForm(fields: FormFieldSpec[], values: FormValues): { ok: true; result: ElicitResult } | { ok: false; errors: FormErrors } {
  const errors = validateForm(fields, values);
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, result: { action: 'accept', content: formContent(fields, values) } };
}

/** The user refused explicitly. */
export const DECLINE: ElicitResult = { action: 'decline' };
/** The user dismissed the request without choosing. */
export const CANCEL: ElicitResult = { action: 'cancel' };
