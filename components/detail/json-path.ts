/** One step of a JSON path: an object key or an array index. */
export type PathStep = string | number;

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/** A JSONPath for the steps (`$.result.content[0].text`, `$['odd key']`), as jq and most tools read it. */
export function jsonPath(steps: readonly PathStep[]): string {
  return steps.reduce<string>((path, step) => {
    if (typeof step === 'number') return `${path}[${step}]`;
    return PLAIN_KEY.test(step) ? `${path}.${step}` : `${path}[${JSON.stringify(step).replace(/^"|"$/g, "'")}]`;
  }, '$');
}

/** The value at `steps` under `root`. */
export function valueAt(root: unknown, steps: readonly PathStep[]): unknown {
  let v = root;
  for (const step of steps) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

/** Copy text to the clipboard; false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
