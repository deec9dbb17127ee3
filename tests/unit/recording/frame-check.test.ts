import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameSchema } from '../../../lib/client/frames';
import { isExactFrame } from '../../../lib/recording/frame-check';
import { parseRecording } from '../../../lib/recording/schema';

/**
 * The fast frame check must agree with FrameSchema: whatever it accepts, zod accepts and returns
 * unchanged; whatever zod rejects, it rejects. Values are drawn near the edges of every field.
 */

const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.string({ maxLength: 3 }), fc.integer(), fc.double(), fc.constant([]), fc.constant({}));
const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: junk });
const optional = <T>(valid: fc.Arbitrary<T>) => fc.option(field(valid), { nil: undefined, freq: 2 });

const frame = fc.record(
  {
    seq: field(fc.oneof(fc.nat(), fc.integer({ min: -3, max: -1 }), fc.constant(Number.MAX_SAFE_INTEGER + 2), fc.constant(1.5))),
    at: field(fc.oneof(fc.double({ noNaN: true }), fc.integer())),
    connectionId: field(fc.string({ maxLength: 4 })),
    direction: field(fc.constantFrom('in', 'out', 'sideways')),
    kind: field(
      fc.constantFrom('http-request', 'http-response', 'message', 'sse-open', 'sse-frame', 'sse-comment', 'sse-close', 'error', 'bridge', 'sse-event'),
    ),
    exchangeId: field(fc.string({ maxLength: 4 })),
    streamId: optional(fc.string({ maxLength: 4 })),
    conversationId: optional(fc.string({ maxLength: 4 })),
    rpcId: optional(fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.double({ noNaN: true }))),
    method: optional(fc.string({ maxLength: 8 })),
    taskId: optional(fc.string({ maxLength: 8 })),
    httpStatus: optional(fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constant(200.5), fc.constant(2 ** 60))),
    headers: optional(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof({ weight: 8, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: fc.integer() }), {
        maxKeys: 3,
      }),
    ),
    body: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    raw: optional(fc.string({ maxLength: 8 })),
    bytes: field(fc.oneof(fc.nat(), fc.constant(-1), fc.constant(0.5))),
    durationMs: optional(fc.oneof(fc.double({ min: 0, noNaN: true }), fc.constant(-1))),
    closeReason: optional(fc.constantFrom('complete', 'server-closed', 'client-closed', 'network-error', 'eaten')),
    errorText: optional(fc.string({ maxLength: 6 })),
  },
  { requiredKeys: [] },
);

// JSON has no undefined; drop keys the record left undefined, as a parsed file would have them.
const asParsed = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));

describe('the fast frame check', () => {
  it('agrees with FrameSchema on frames near every edge', () => {
    fc.assert(
      fc.property(frame, (raw) => {
        const f = asParsed(raw);
        const zod = FrameSchema.safeParse(f);
        expect(isExactFrame(f)).toBe(zod.success);
        if (zod.success) expect(zod.data).toEqual(f);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves frames with unknown keys to zod, which strips them', () => {
    fc.assert(
      fc.property(frame, fc.constantFrom('extra', '__proto__', 'constructor'), (raw, key) => {
        const f = JSON.parse(JSON.stringify({ ...asParsed(raw), [key]: 'x' })) as Record<string, unknown>;
        expect(isExactFrame(f)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('opening a recording still names the invalid field, and strips unknown ones', () => {
    const doc = {
      format: 'mcp-loupe-recording',
      version: 3,
      createdAt: 'x',
      app: { name: 'a', version: '1' },
      connection: { target: 't' },
      frames: [] as unknown[],
    };
    const ok = { seq: 0, at: 1, connectionId: 'c', direction: 'out', kind: 'http-request', exchangeId: 'c:1', bytes: 0 };
    doc.frames = [ok, { ...ok, seq: 1, smuggled: 'secret' }, { ...ok, seq: 2, httpStatus: '200' }];
    expect(parseRecording(JSON.stringify(doc))).toMatchObject({ ok: false, error: expect.stringContaining('frames.2.httpStatus') });
    doc.frames.pop();
    const opened = parseRecording(JSON.stringify(doc));
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.recording.frames[1]).toEqual({ ...ok, seq: 1 });
  });
});
