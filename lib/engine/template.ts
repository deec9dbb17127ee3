import { PLACEHOLDER_SOURCE } from '../scenario/placeholders';

/** `{{path.to.value}}` placeholders in scenario results, filled from arguments and inputs. */

const PLACEHOLDER = new RegExp(PLACEHOLDER_SOURCE, 'g');
const EXACT_PLACEHOLDER = new RegExp(`^${PLACEHOLDER_SOURCE}$`);

/**
 * Keys whose value is any JSON, where a string that is exactly one placeholder keeps its value's
 * JSON type: `structuredContent: { n: "{{args.n}}" }` gives `{ n: 3 }`, as the tool's
 * outputSchema expects, not `"3"`. Everywhere else (a content block's text, a status message)
 * the protocol wants text, so placeholders render text there.
 */
const JSON_VALUED = new Set(['structuredContent', '_meta']);

function lookup(scope: Record<string, unknown>, path: string): unknown {
  let cur: unknown = scope;
  for (const part of path.split('.')) {
    // Own keys only: `{{args.constructor}}` must not reach Object.prototype (a function, which
    // JSON cannot hold and structuredClone throws on) when the client sent no such argument.
    if (cur === null || cur === undefined || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function fillString(text: string, scope: Record<string, unknown>): string {
  return text.replace(PLACEHOLDER, (_, path: string) => {
    const v = lookup(scope, path);
    if (v === undefined || v === null) return '';
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

/** A string of a JSON-valued part: exactly one placeholder is its value (a copy), else text. A missing value is "". */
function fillJsonString(text: string, scope: Record<string, unknown>): unknown {
  const exact = EXACT_PLACEHOLDER.exec(text);
  if (!exact) return fillString(text, scope);
  const v = lookup(scope, exact[1] ?? '');
  return v === undefined ? '' : structuredClone(v);
}

/**
 * Deep-copy `value`, filling placeholders in every string; under the keys of {@link JSON_VALUED}
 * (or everywhere, with `typed`) a string that is exactly one placeholder keeps its value's type.
 */
export function fillTemplate<T>(value: T, scope: Record<string, unknown>, typed = false): T {
  if (typeof value === 'string') return (typed ? fillJsonString(value, scope) : fillString(value, scope)) as T;
  if (Array.isArray(value)) return value.map((v) => fillTemplate(v, scope, typed)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = fillTemplate(v, scope, typed || JSON_VALUED.has(k));
    return out as T;
  }
  return value;
}

/**
 * Templates without a placeholder anywhere, known after their first fill. Such a template fills
 * to a copy of itself, so it is handed out as is: frozen, so whatever would change the copy
 * fails loudly instead of changing the scenario.
 */
const constants = new WeakMap<object, boolean>();

function holdsPlaceholder(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (value && typeof value === 'object') return Object.values(value).some(holdsPlaceholder);
  return false;
}

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/**
 * {@link fillTemplate} for a template that lives as long as its scenario (a tool's result): one
 * without placeholders is returned itself, frozen, not copied on every call.
 */
export function fillScenarioTemplate<T extends object>(value: T, scope: Record<string, unknown>): T {
  let constant = constants.get(value);
  if (constant === undefined) {
    constant = !holdsPlaceholder(value);
    if (constant) deepFreeze(value);
    constants.set(value, constant);
  }
  return constant ? value : fillTemplate(value, scope);
}

/** Resolve a number-or-placeholder setting (e.g. a delay taken from an argument). */
export function fillNumber(value: number | string | undefined, scope: Record<string, unknown>, fallback = 0): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return fallback;
  const text = fillString(value, scope).trim();
  // Allow one multiplication so authors can write "{{args.seconds}} * 1000".
  const product = /^(-?\d+(?:\.\d+)?)\s*\*\s*(-?\d+(?:\.\d+)?)$/.exec(text);
  const n = product ? Number(product[1]) * Number(product[2]) : Number(text);
  return Number.isFinite(n) ? n : fallback;
}
