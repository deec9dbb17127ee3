/**
 * Plain-object checks for data from outside (JSON bodies, postMessage, recordings): one home so
 * every room treats arrays and null the same way.
 */

/** Whether a value is a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a JSON object, or undefined when it is not one. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}
