/**
 * JSON text for people to read. Indentation costs depth × lines: a value nested 10,000 levels
 * (60 KB compact) indents to about 100 MB, which freezes a page or runs it out of memory. So
 * the value is indented only while that stays small, and shown compact otherwise.
 */

/** Deepest nesting that is still indented. */
const INDENT_DEPTH = 64;
/** Largest compact text that is still indented. */
const INDENT_BYTES = 4 * 1024 * 1024;

/** How deep the JSON text nests, scanning its characters (strings skipped), without recursion. */
function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** `JSON.stringify(value, null, 2)` when that stays cheap, else the compact text. */
export function displayJson(value: unknown): string {
  let compact: string | undefined;
  try {
    compact = JSON.stringify(value);
  } catch (e) {
    return `(not shown: ${(e as Error).message})`;
  }
  if (compact === undefined) return String(value);
  return compact.length <= INDENT_BYTES && jsonTextDepth(compact) <= INDENT_DEPTH ? JSON.stringify(value, null, 2) : compact;
}

/** JSON text re-indented for reading when cheap (see {@link displayJson}); other text as it is. */
export function displayJsonText(text: string): { ok: boolean; text: string } {
  if (text.length > INDENT_BYTES || jsonTextDepth(text) > INDENT_DEPTH) {
    try {
      JSON.parse(text);
      return { ok: true, text };
    } catch {
      return { ok: false, text };
    }
  }
  try {
    return { ok: true, text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch {
    return { ok: false, text };
  }
}
