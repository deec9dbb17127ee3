import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { Frame } from '../../../lib/client/frames';
import { reconnectPlan } from '../../../lib/client/reconnect';
import { createStreamsSlice } from '../../../lib/state/streams-slice';
import type { StreamsSlice } from '../../../lib/state/streams-types';

/**
 * The streams slice hears of a dropped listen twice: from the frames (the cut stream's close,
 * the failed exchange's error frame, the re-listen request), which the timeline hands over in
 * batches, and from the listener itself (its drop and resync reports), which come at once. In a
 * page the reports usually arrive first; in Node the frames may. Whatever the order, one listen
 * request is one drop with the listener's plan, and each resync marks the drop it made up for.
 */

type Event = { label: string; apply: (s: StreamsSlice['streams']) => void };

const FILTER = { taskIds: ['t1'] };
const base = { connectionId: 'c', direction: 'in' as const, bytes: 0, conversationId: 'listen-1', method: 'subscriptions/listen' };
const frame = (label: string, f: Omit<Frame, 'connectionId' | 'direction' | 'bytes' | 'seq'> & Partial<Frame>): Event => ({
  label,
  apply: (s) => s.ingest({ ...base, seq: 0, ...f }),
});

/** The frames of listen request n: request, stream, acknowledgement. */
function opened(n: number, at: number): Event[] {
  const ids = { exchangeId: `c:${n}`, rpcId: n };
  return [
    frame(`req${n}`, { ...ids, at, direction: 'out', kind: 'http-request', body: { params: { notifications: FILTER } } }),
    frame(`open${n}`, { ...ids, streamId: `c:${n}`, at: at + 1, kind: 'sse-open' }),
    frame(`ack${n}`, {
      ...ids,
      streamId: `c:${n}`,
      at: at + 2,
      kind: 'sse-frame',
      body: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: FILTER } },
    }),
  ];
}

/** The frames of request n's cut: its stream's close and the failed exchange (with or without its rpcId). */
function cut(n: number, at: number, errorRpcId: boolean): Event[] {
  return [
    frame(`close${n}`, { exchangeId: `c:${n}`, rpcId: n, streamId: `c:${n}`, at, kind: 'sse-close', closeReason: 'server-closed' }),
    frame(`err${n}`, {
      exchangeId: `c:${n}`,
      ...(errorRpcId ? { rpcId: n } : {}),
      at,
      kind: 'error',
      errorText: 'the server closed the stream without a response',
    }),
  ];
}

const plan = (n: number, attempt: number) => reconnectPlan({ previousSubscriptionId: n, filter: FILTER, attempt, unsafeMutationInFlight: false });
const reportDrop = (n: number, at: number, attempt: number): Event => ({
  label: `drop(s${n})`,
  apply: (s) => s.noteListenDrop(n, { at, reason: `listener saw stream ${n} end`, attempt, plan: plan(n, attempt) }),
});
const reportResync = (n: number, at: number): Event => ({ label: `resync(s${n})`, apply: (s) => s.noteListenResync(n, at) });

function run(events: Event[]) {
  const store = createStore<StreamsSlice>()((set, get) => createStreamsSlice(set, get));
  for (const e of events) e.apply(store.getState().streams);
  const s = store.getState().streams;
  expect(s.listenOrder).toEqual(['listen-1']);
  return s.listens['listen-1']!;
}

/** Every ordering of `items`. */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

describe('streams slice: a dropped listen, whatever order its frames and reports arrive in', () => {
  // One drop: request 1's stream is cut at 10, the listener reports it at 12, re-listens at 300
  // and resyncs once that is acknowledged (305). Every order of the five events in between.
  const middle = (errorRpcId: boolean) => [...cut(1, 10, errorRpcId), reportDrop(1, 12, 0), opened(2, 300)[0]!, reportResync(2, 305)];
  const cases = [true, false].flatMap((errorRpcId) => permutations(middle(errorRpcId)).map((order) => ({ errorRpcId, order })));

  it.each(cases.map((c) => [c.order.map((e) => e.label).join(' '), c.errorRpcId ? 'error frame with rpcId' : 'error frame without rpcId', c] as const))(
    '%s (%s)',
    (_order, _variant, { order }) => {
      const [, open2, ack2] = opened(2, 300);
      const l = run([...opened(1, 0), ...order, open2!, ack2!]);
      expect(l.drops).toHaveLength(1);
      expect(l.drops[0]).toMatchObject({
        at: 10,
        reason: 'listener saw stream 1 end',
        attempt: 0,
        subscriptionId: 1,
        reported: true,
        plan: { delayMs: 250, refetchTaskIds: ['t1'], sendLastEventId: false },
        reopenedAt: 300,
        resyncedAt: 305,
      });
      expect(l).toMatchObject({ state: 'live', subscriptionIds: [1, 2] });
    },
  );

  it('two drops in a row: any interleaving of the frames (in their order) with the reports (in theirs)', () => {
    const frames = [...opened(1, 0), ...cut(1, 10, true), ...opened(2, 300), ...cut(2, 1000, false), ...opened(3, 1600)];
    const reports = [reportDrop(1, 12, 0), reportResync(2, 305), reportDrop(2, 1003, 1), reportResync(3, 1605)];
    const total = frames.length + reports.length;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: total - 1 }), { minLength: reports.length, maxLength: reports.length }), (slots) => {
        const at = new Set(slots);
        const f = frames.slice();
        const r = reports.slice();
        const order = Array.from({ length: total }, (_, i) => (at.has(i) ? r.shift()! : f.shift()!));
        const l = run(order);
        expect(l.drops.map((d) => ({ ...d, plan: d.plan.delayMs }))).toEqual([
          {
            at: 10,
            reason: 'listener saw stream 1 end',
            attempt: 0,
            subscriptionId: 1,
            exchangeId: 'c:1',
            plan: 250,
            reported: true,
            reopenedAt: 300,
            resyncedAt: 305,
          },
          {
            at: 1000,
            reason: 'listener saw stream 2 end',
            attempt: 1,
            subscriptionId: 2,
            exchangeId: 'c:2',
            plan: 500,
            reported: true,
            reopenedAt: 1600,
            resyncedAt: 1605,
          },
        ]);
        expect(l.state).toBe('live');
      }),
      { numRuns: 200 },
    );
  });

  it('a listen closed by the user before its request frame arrived ends closed', () => {
    const l = run([{ label: 'closed(s1)', apply: (s) => s.noteListenClosed(1) }, ...opened(1, 0)]);
    expect(l.state).toBe('closed');
  });

  it('a report names the newest listen with that subscription id (ids start again on every connection)', () => {
    const store = createStore<StreamsSlice>()((set, get) => createStreamsSlice(set, get));
    const s = () => store.getState().streams;
    for (const e of opened(1, 0)) e.apply(s());
    // A second connection's listen, request id 1 again.
    s().ingest({ ...base, conversationId: 'listen-2', connectionId: 'd', seq: 0, at: 50, direction: 'out', kind: 'http-request', exchangeId: 'd:1', rpcId: 1 });
    s().noteListenDrop(1, { at: 60, reason: 'cut', attempt: 0, plan: plan(1, 0) });
    expect(s().listens['listen-1']!.drops).toEqual([]);
    expect(s().listens['listen-2']!.drops).toMatchObject([{ reason: 'cut', reported: true, exchangeId: 'd:1' }]);
  });
});
