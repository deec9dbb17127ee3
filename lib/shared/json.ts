/**
 * JSON from outside (request bodies, proxied and stdio messages), parsed so that its shape
 * cannot break the code that reads it:
 *
 * - Nesting is capped. V8's JSON.parse accepts 10,000 levels, but JSON.stringify, zod and any
 *   recursive walk of such a value overflow the stack later, far from the parse.
 * - An object with its own `toString` or `valueOf` key (`{"toString": 1}`) throws a TypeError
 *   wherever it is turned into a string or a number: a template literal, `String(x)`, a `<`
 *   comparison (zod's length checks compare an object's `length` that way). Such objects get a
 *   non-enumerable `Symbol.toPrimitive`, which JSON cannot name, so they convert like any other
 *   object while their keys, JSON.stringify output and equality stay as sent.
 *
 * Lookups by a key from the data itself still go through `Object.hasOwn` or a Map.
 */

/** Deepest nesting accepted by {@link parseJson}; MCP messages stay far below it. */
const MAX_JSON_DEPTH = 512;

/**
 * The parsed value and its nesting (containers inside containers: `{}` is 1, `[[1]]` 2, a bare
 * string 0; the walk measures it anyway, so a reader need not scan the text again), or why the
 * text was refused (a parse error or the nesting cap).
 */
type JsonParse = { ok: true; value: unknown; depth: number } | { ok: false; message: string };

const plainToPrimitive = function (this: object, hint: string) {
  return hint === 'number' ? Number.NaN : '[object Object]';
};

/** Parse JSON text from outside: see the module comment for what is refused and what is defused. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  return guardJson(value, maxDepth);
}

/**
 * The walk's two stacks (values and their depths rather than a pair per node), shared by every
 * call: the walk is synchronous, so one call never sees another's, and every request body passes
 * here. Slots are cleared as they are popped, so the stacks hold nothing of a finished walk; ones
 * a huge body grew are dropped.
 */
let walkValues: unknown[] = [];
let walkDepths: number[] = [];
const KEPT_STACK = 4096;

/** Check the depth of an already parsed value and defuse its objects, without recursion. */
function guardJson(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonParse {
  if (typeof value !== 'object' || value === null) return { ok: true, value, depth: 0 };
  const values = walkValues;
  const depths = walkDepths;
  let top = 0;
  let peak = 0;
  let deepest = 0;
  values[top] = value;
  depths[top++] = 0;
  try {
    while (top > 0) {
      const v = values[--top];
      const depth = depths[top] ?? 0;
      values[top] = undefined;
      if (typeof v !== 'object' || v === null) continue;
      if (depth >= maxDepth) return { ok: false, message: `JSON nested deeper than ${maxDepth} levels` };
      if (depth > deepest) deepest = depth;
      if (Array.isArray(v)) {
        for (const item of v) {
          values[top] = item;
          depths[top++] = depth + 1;
        }
      } else {
        if ((Object.hasOwn(v, 'toString') || Object.hasOwn(v, 'valueOf')) && !Object.hasOwn(v, Symbol.toPrimitive))
          Object.defineProperty(v, Symbol.toPrimitive, { value: plainToPrimitive, enumerable: false });
        // JSON.parse makes own, enumerable keys only; the primitive guard above is a symbol, which for-in skips.
        for (const k in v) {
          values[top] = (v as Record<string, unknown>)[k];
          depths[top++] = depth + 1;
        }
      }
      if (top > peak) peak = top;
    }
  } finally {
    // A walk cut short (the nesting cap) leaves slots filled: clear them.
    if (top > 0) values.fill(undefined, 0, top);
    if (peak > KEPT_STACK) {
      walkValues = [];
      walkDepths = [];
    }
  }
  return { ok: true, value, depth: deepest + 1 };
}
