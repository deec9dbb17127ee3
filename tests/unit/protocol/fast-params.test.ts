import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallToolParamsParser, CallToolParamsSchema, ClientCapabilitiesSchema, parseClientCapabilities } from '../../../lib/protocol';
import { parseJson } from '../../../lib/shared/json';

/**
 * The hand checks in front of two tools/call schemas answer for zod on the hot path: on any value,
 * parsed from JSON text as the HTTP front parses it, each must accept exactly what zod accepts and
 * build the same value, key order included, without changing its input.
 */

const text = (v: unknown) => JSON.stringify(v);
/** Keys a hostile or sloppy client might send, the schemas' own among them. */
const key = fc.constantFrom('name', 'arguments', '_meta', 'form', 'url', 'listChanged', 'context', 'tools', 'a', '__proto__', 'toString', 'constructor');
const leaf = fc.oneof(fc.constantFrom(null, true, false, 0, 'x', [], {}), fc.jsonValue({ maxDepth: 1 }));
/** An object written as JSON text, so `__proto__` is an own key as JSON.parse makes it. */
const objectText = (value: fc.Arbitrary<string>) =>
  fc.array(fc.tuple(key, value), { maxLength: 4 }).map((ms) => `{${ms.map(([k, v]) => `${text(k)}:${v}`).join(',')}}`);
const obj = objectText(leaf.map(text));
const member = fc.oneof(leaf.map(text), obj, objectText(obj));
const capsMember = (k: string) => fc.tuple(fc.constant(k), fc.oneof(member, objectText(member), objectText(objectText(obj))));
const capsText = fc.oneof(
  fc
    .array(fc.oneof(...['experimental', 'roots', 'sampling', 'elicitation', 'extensions', 'x', '__proto__'].map(capsMember)), { maxLength: 5 })
    .map((ms) => `{${ms.map(([k, v]) => `${text(k)}:${v}`).join(',')}}`),
  member,
);
const callText = fc.oneof(
  fc
    .array(
      fc.oneof(
        fc.tuple(fc.constant('name'), fc.oneof(fc.string({ maxLength: 3 }).map(text), leaf.map(text))),
        fc.tuple(fc.constant('arguments'), fc.oneof(obj, leaf.map(text))),
        fc.tuple(key, member),
      ),
      { maxLength: 5 },
    )
    .map((ms) => `{${ms.map(([k, v]) => `${text(k)}:${v}`).join(',')}}`),
  member,
);

/** Whether each object in a value (depth first, in key order) has Object's prototype. */
function prototypes(v: unknown, out: boolean[] = []): boolean[] {
  if (typeof v !== 'object' || v === null) return out;
  out.push(Object.getPrototypeOf(v) === (Array.isArray(v) ? Array.prototype : Object.prototype));
  for (const k of Object.keys(v)) prototypes((v as Record<string, unknown>)[k], out);
  return out;
}

function same(
  fastParse: (v: unknown) => { success: boolean; data?: unknown },
  slowParse: (v: unknown) => { success: boolean; data?: unknown },
  t: string,
): boolean {
  const parsed = parseJson(t);
  if (!parsed.ok) return false;
  const fast = fastParse(parsed.value);
  const slow = slowParse(parsed.value);
  expect(JSON.stringify(parsed.value)).toBe(JSON.stringify(JSON.parse(t)));
  expect(fast.success).toBe(slow.success);
  if (!fast.success) return false;
  // toEqual, not toStrictEqual: the latter compares `x.constructor`, which an own `constructor`
  // key (sent by a client) makes differ between any two copies.
  expect(fast.data).toEqual(slow.data);
  // Key order, at every level, and the prototype of the result.
  expect(JSON.stringify(fast.data)).toBe(JSON.stringify(slow.data));
  expect(prototypes(fast.data)).toEqual(prototypes(slow.data));
  return true;
}

describe('the hand checks in front of the tools/call schemas', () => {
  it('client capabilities: accepted and built exactly as zod does', () => {
    let accepted = 0;
    fc.assert(
      fc.property(capsText, (t) => {
        if (same(parseClientCapabilities, (v) => ClientCapabilitiesSchema.safeParse(v), t)) accepted++;
      }),
      { numRuns: 1500 },
    );
    // The generator must reach the interesting side, not only refusals.
    expect(accepted).toBeGreaterThan(100);
    const sent = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: { form: {} } };
    expect(parseClientCapabilities(sent)).toStrictEqual(ClientCapabilitiesSchema.safeParse(sent));
  });

  it('tools/call params: accepted and built exactly as zod does, arguments kept as sent', () => {
    let accepted = 0;
    fc.assert(
      fc.property(callText, (t) => {
        if (
          same(
            (v) => CallToolParamsParser.safeParse(v),
            (v) => CallToolParamsSchema.safeParse(v),
            t,
          )
        )
          accepted++;
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(100);
    const args = { a: 1 };
    const r = CallToolParamsParser.safeParse({ x: 1, arguments: args, name: 't' });
    expect(r.success && Object.keys(r.data)).toEqual(['name', 'arguments', 'x']);
    expect(r.success && r.data.arguments).toBe(args);
  });
});
