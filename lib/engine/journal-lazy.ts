import type { PayloadLimits } from './journal-bounds';

/**
 * Journal bodies kept as the JSON text that already crossed the wire, parsed only when someone
 * reads them (the report card, the control room). Copying every body into a bounded tree on
 * arrival cost more than the rest of a direct `tools/call`, and the trees, kept until the entry
 * is evicted, were most of the garbage collector's work. Only text that the payload limits
 * could not shorten is kept this way, so the value read later equals the bounded copy the
 * journal would have made and the entry's `truncated` flag is known without parsing.
 */

/**
 * Deepest nesting of JSON text, or `stop` as soon as it is reached. Brackets inside strings do
 * not count; the text is known to be valid JSON (it was parsed before).
 */
function depthOf(text: string, stop: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest >= stop) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * Whether JSON text is certain to come through {@link boundPayload} whole: no string in it can
 * be longer than the text, all its strings together are shorter than it, an array or object of
 * n members takes at least 2n characters, and its nesting (`depth`, when known) is within the limit.
 */
export function fitsLimits(text: string, limits: PayloadLimits, depth?: number): boolean {
  if (text.length > limits.maxString || text.length > limits.maxChars || text.length > 2 * limits.maxItems) return false;
  // The walk refuses depth `maxDepth` itself, i.e. `maxDepth + 1` nested containers. A request
  // body's nesting comes measured from its parse (parseJson); a response's is counted here.
  return (depth ?? depthOf(text, limits.maxDepth + 1)) <= limits.maxDepth;
}
