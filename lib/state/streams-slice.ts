import type { SubscriptionFilter } from '../protocol';
import { fingerprint } from '../shared/fingerprint';
import type { Frame } from '../client/frames';
import { classifyRetry } from '../client/results';
import { asRecord } from '../shared/records';
import type { SliceGet, SliceSet } from './slice';
import { createStreamsDraft } from './streams-draft';
import { createListenTracker } from './streams-listens';
import type { StreamFrameSummary, StreamsSlice, StreamsState } from './streams-types';

/**
 * The streams slice of the inspector store, built from frames: each SSE stream (one per POST
 * in 2026-07-28) with its HTTP status, acknowledgement, frame and byte counts, keep-alives and
 * close reason, and each `subscriptions/listen` as a whole across its re-opens (streams-listens.ts).
 * When a listen stream drops, the slice records the reconnect plan lib/client follows (same
 * filters, refetch the watched tasks, never Last-Event-ID, an in-flight side-effecting request
 * reported rather than re-sent, 250 ms × 2ⁿ capped at 8 s); the listener's own plan replaces
 * the derived one when it reports it (`noteListenDrop`). Labels carry task fingerprints, never task ids.
 */

const MAX_STREAMS = 200;
const MAX_RECENT = 40;

const isResponse = (body: Record<string, unknown> | undefined, rpcId: unknown) => !!body && ('result' in body || 'error' in body) && body.id === rpcId;

function summarize(f: Frame): StreamFrameSummary {
  const body = asRecord(f.body);
  const label =
    f.kind === 'sse-comment'
      ? 'keep-alive'
      : !body
        ? 'not JSON'
        : 'error' in body
          ? 'error'
          : 'result' in body
            ? 'response'
            : typeof body.method === 'string'
              ? body.method
              : 'message';
  return {
    seq: f.seq,
    at: f.at,
    kind: f.kind === 'sse-comment' ? 'keep-alive' : 'frame',
    label,
    ...(f.taskId ? { taskFp: fingerprint(f.taskId) } : {}),
    bytes: f.bytes,
  };
}

/** Create the streams slice (pure: compose it into any store whose state includes `streams`). */
export function createStreamsSlice(set: SliceSet<StreamsSlice>, _get?: SliceGet<StreamsSlice>): StreamsSlice {
  // Bookkeeping that views never read: the latest HTTP status per exchange (until its stream
  // opens) and the requests in flight, to tell whether a dropped listen left a mutation behind.
  const statuses = new Map<string, number>();
  const inFlight = new Map<string, { method: string; unsafe: boolean }>();
  const settle = (exchangeId: string) => {
    inFlight.delete(exchangeId);
    statuses.delete(exchangeId);
  };

  const draft = createStreamsDraft(set);
  const { run, current, own, putStream, draftStream, putListen } = draft;
  const listens = createListenTracker(draft, () => [...inFlight.values()].some((r) => r.unsafe));

  function openStream(f: Frame) {
    const id = f.streamId ?? f.exchangeId;
    const status = statuses.get(f.exchangeId);
    statuses.delete(f.exchangeId);
    const listenId = f.method === 'subscriptions/listen' ? (f.conversationId ?? f.exchangeId) : undefined;
    putStream({
      streamId: id,
      connectionId: f.connectionId,
      ...(f.method ? { method: f.method } : {}),
      ...(f.rpcId !== undefined ? { rpcId: f.rpcId } : {}),
      ...(f.conversationId ? { conversationId: f.conversationId } : {}),
      ...(listenId ? { listenId } : {}),
      ...(f.taskId ? { taskFp: fingerprint(f.taskId) } : {}),
      ...(status !== undefined ? { httpStatus: status } : {}),
      openedAt: f.at,
      frames: 0,
      bytes: 0,
      keepAlives: 0,
      lastActivityAt: f.at,
      responded: false,
      recent: [],
    });
    const w = own();
    w.order.push(id);
    if (w.order.length > MAX_STREAMS) {
      // Evict the oldest closed stream; open ones stay visible. (order names exactly the records of byId.)
      const i = Math.max(
        0,
        w.order.findIndex((sid) => w.byId[sid]!.closedAt !== undefined),
      );
      const [evicted] = w.order.splice(i, 1);
      if (evicted !== undefined) delete w.byId[evicted];
    }
    if (listenId) listens.streamOpened(listenId, id);
  }

  function streamFrame(f: Frame) {
    const body = asRecord(f.body);
    const responded = isResponse(body, f.rpcId);
    if (responded) settle(f.exchangeId);
    const r = draftStream(f.streamId ?? f.exchangeId);
    if (!r) return;
    const ack = body?.method === 'notifications/subscriptions/acknowledged';
    if (f.kind === 'sse-frame') r.frames++;
    else r.keepAlives++;
    r.bytes += f.bytes;
    r.lastActivityAt = f.at;
    r.recent.push(summarize(f));
    if (r.recent.length > MAX_RECENT) r.recent.shift();
    if (ack) r.ack = { at: f.at, agreed: (asRecord(body?.params)?.notifications ?? {}) as SubscriptionFilter };
    if (responded) r.responded = true;
    const l = r.listenId ? current().listens[r.listenId] : undefined;
    // The user may have closed the listen before this frame got here (frames come batched).
    if (l && ack) putListen({ ...l, state: l.state === 'closed' ? 'closed' : 'live', lastAckAt: f.at });
    else if (l && responded) putListen({ ...l, state: 'error' in body! ? 'refused' : 'ended' });
  }

  function closeStream(f: Frame) {
    settle(f.exchangeId);
    const r = draftStream(f.streamId ?? f.exchangeId);
    if (!r) return;
    r.closedAt = f.at;
    if (f.closeReason) r.closeReason = f.closeReason;
    if (f.errorText) r.closeDetail = f.errorText;
    if (f.durationMs !== undefined) r.durationMs = f.durationMs;
    const l = r.listenId ? current().listens[r.listenId] : undefined;
    if (!l || r.responded) return;
    if (f.closeReason === 'client-closed') putListen({ ...l, state: 'closed' });
    else listens.dropped(l.listenId, f, f.errorText ?? (f.closeReason === 'server-closed' ? 'the server closed the stream' : 'the stream failed'));
  }

  function ingestOne(f: Frame) {
    switch (f.kind) {
      case 'http-request':
        if (f.method === 'subscriptions/listen') listens.request(f);
        else if (f.rpcId !== undefined && f.method)
          inFlight.set(f.exchangeId, {
            method: f.method,
            unsafe:
              classifyRetry(f.method, {
                idempotencyKey: typeof asRecord(asRecord(asRecord(f.body)?.params)?.arguments)?.idempotencyKey === 'string' ? 'key' : undefined,
              }) === 'unsafe',
          });
        return;
      case 'http-response':
        if (f.httpStatus !== undefined) statuses.set(f.exchangeId, f.httpStatus);
        if (statuses.size > 256) statuses.delete(statuses.keys().next().value!);
        return;
      case 'message': {
        if (f.direction !== 'in') return;
        settle(f.exchangeId);
        // A listen answered with a plain JSON body never streamed: refused (error) or ended.
        const l = f.method === 'subscriptions/listen' ? current().listens[f.conversationId ?? f.exchangeId] : undefined;
        if (l && isResponse(asRecord(f.body), f.rpcId)) putListen({ ...l, state: 'error' in asRecord(f.body)! ? 'refused' : 'ended' });
        return;
      }
      case 'error':
        settle(f.exchangeId);
        // A listen (re-)open that never got a stream: the reconnect attempt failed.
        if (f.method === 'subscriptions/listen') listens.dropped(f.conversationId ?? f.exchangeId, f, f.errorText ?? 'network error');
        return;
      case 'sse-open':
        return openStream(f);
      case 'sse-frame':
      case 'sse-comment':
        return streamFrame(f);
      case 'sse-close':
        return closeStream(f);
      default:
        return;
    }
  }

  const state: StreamsState = {
    byId: {},
    order: [],
    listens: {},
    listenOrder: [],
    ingestMany: (frames) => run(() => frames.forEach(ingestOne)),
    ingest: (f) => run(() => ingestOne(f)),
    noteListenDrop: (subscriptionId, info) => run(() => listens.noteDrop(subscriptionId, info)),
    noteListenResync: (subscriptionId, at) => run(() => listens.noteResync(subscriptionId, at)),
    noteListenClosed: (subscriptionId) => run(() => listens.noteClosed(subscriptionId)),
    clear() {
      statuses.clear();
      inFlight.clear();
      listens.reset();
      run(() => {
        const w = own();
        Object.assign(w, { byId: {}, order: [], listens: {}, listenOrder: [] });
      });
    },
  };
  return { streams: state };
}
