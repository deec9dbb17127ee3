import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRequestEnvelope } from '../../../lib/engine/envelope';
import { JsonRpcRequestSchema } from '../../../lib/protocol';
import { parseJson } from '../../../lib/shared/json';

/**
 * The hand-written envelope check answers for zod on the hot path: on any body, as the HTTP front
 * parses it, it must accept exactly what zod accepts and produce the same value.
 */

const text = (v: unknown) => JSON.stringify(v);
/** Keys a hostile or sloppy client might send, the four real ones included. */
const key = fc.constantFrom('jsonrpc', 'id', 'method', 'params', '__proto__', 'constructor', 'toString', 'result', 'error', 'x');
const id = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -0, 1.5, 2 ** 53, 2 ** 53 - 1, -(2 ** 53) + 1, 1e300, '', 'a', null, true),
  fc.string({ maxLength: 4 }),
  fc.double(),
);
const params = fc.oneof(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 })), fc.jsonValue({ maxDepth: 2 }));
const member = fc.oneof(
  fc.tuple(fc.constant('jsonrpc'), fc.constantFrom('2.0', '2', 2, null)),
  fc.tuple(fc.constant('id'), id),
  fc.tuple(fc.constant('method'), fc.oneof(fc.constantFrom('', 'tools/call', 'ping'), fc.integer(), fc.string({ maxLength: 3 }))),
  fc.tuple(fc.constant('params'), params),
  fc.tuple(key, fc.jsonValue({ maxDepth: 1 })),
);
/** Bodies written as JSON text (so `__proto__` is an own key, as JSON.parse makes it), mostly well formed. */
const bodyText = fc.oneof(
  fc.array(member, { maxLength: 6 }).map((ms) => `{${ms.map(([k, v]) => `${text(k)}:${text(v ?? null)}`).join(',')}}`),
  fc
    .record({ id, method: fc.constantFrom('tools/call', 'ping', ''), params: fc.option(params, { nil: undefined }) })
    .map((r) => text({ jsonrpc: '2.0', ...r })),
  fc.jsonValue({ maxDepth: 2 }).map(text),
);

describe('the JSON-RPC request envelope', () => {
  it('accepts and builds exactly what zod does, on any body', () => {
    let accepted = 0;
    fc.assert(
      fc.property(bodyText, (t) => {
        const parsed = parseJson(t);
        if (!parsed.ok) return;
        // Neither side changes its input (the texts are compared too), so both may read one value.
        const fast = parseRequestEnvelope(parsed.value);
        const slow = JsonRpcRequestSchema.safeParse(parsed.value);
        expect(JSON.stringify(parsed.value)).toBe(JSON.stringify(JSON.parse(t)));
        expect(fast.success).toBe(slow.success);
        if (!fast.success || !slow.success) return;
        accepted++;
        expect(fast.data).toStrictEqual(slow.data);
        expect(Object.keys(fast.data)).toEqual(Object.keys(slow.data));
        if (slow.data.params) {
          expect(Object.keys(fast.data.params ?? {})).toEqual(Object.keys(slow.data.params));
          expect(Object.getPrototypeOf(fast.data.params)).toBe(Object.getPrototypeOf(slow.data.params));
        }
      }),
      { numRuns: 1500 },
    );
    // The property is about accepted bodies too, not only refusals.
    expect(accepted).toBeGreaterThan(100);
  });

  it('refuses what zod refuses, with the reasons zod gives', () => {
    const r = parseRequestEnvelope({ jsonrpc: '2.0', id: 1.5, method: 'ping' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['id']);
    expect(parseRequestEnvelope({ jsonrpc: '2.0', id: 1, method: 'ping', params: [] }).success).toBe(false);
    expect(parseRequestEnvelope({ jsonrpc: '2.0', id: 2 ** 53, method: 'ping' }).success).toBe(false);
  });
});
