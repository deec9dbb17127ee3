import { parseJson } from '../shared/json';

/**
 * The answers of tools whose result never changes (a scenario result without placeholders,
 * deep-frozen by template.ts): the complete result object is made once per tool result, and
 * its JSON text once, so a direct call neither copies the result nor serializes it again.
 * Only results made here count as constant: freezing alone proves nothing about what is
 * nested inside a result.
 */

const completes = new WeakMap<object, Readonly<Record<string, unknown>>>();
const texts = new WeakMap<object, { text: string; depth: number }>();

/** `{ resultType: 'complete', ...result }` for a deep-frozen constant result, the same object every call. */
export function constantComplete(result: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  let complete = completes.get(result);
  if (complete === undefined) {
    complete = Object.freeze({ resultType: 'complete', ...result });
    completes.set(result, complete);
    const text = JSON.stringify(complete);
    const parsed = parseJson(text);
    texts.set(complete, { text, depth: parsed.ok ? parsed.depth : Number.POSITIVE_INFINITY });
  }
  return complete;
}

/** The JSON text and nesting of a result made by {@link constantComplete}; undefined for any other value. */
export function constantText(result: unknown): { text: string; depth: number } | undefined {
  return typeof result === 'object' && result !== null ? texts.get(result) : undefined;
}
