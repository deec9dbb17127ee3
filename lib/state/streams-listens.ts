import type { SubscriptionFilter } from '../protocol';
import type { Frame } from '../client/frames';
import { BACKOFF_CAP_MS, reconnectPlan } from '../client/reconnect';
import { asRecord } from '../shared/records';
import type { StreamsDraft } from './streams-draft';
import type { ListenDrop, StreamsState } from './streams-types';

/**
 * The listens of the streams slice: each `subscriptions/listen` as a whole across its re-opens
 * (frames of one listen share a conversationId), its drops, and the reconnect plan recorded for
 * each drop — derived from the frames, or the listener's own once it reports it.
 */

const MAX_LISTENS = 50;
/** Drops kept per listen, and streams remembered per listen. */
const MAX_DROPS = 50;

/** What the streams slice asks of its listens; every method runs inside the draft's `run`. */
interface ListenTracker {
  /** A listen request: the first open, or a re-open of a listen seen before. */
  request(f: Frame): void;
  /** A listen request ended without its final response: record a drop and the plan. */
  dropped(listenId: string, f: Frame, reason: string): void;
  /** A stream of the listen opened. */
  streamOpened(listenId: string, streamId: string): void;
  noteDrop: StreamsState['noteListenDrop'];
  noteResync: StreamsState['noteListenResync'];
  noteClosed: StreamsState['noteListenClosed'];
}

/** Track listens in `draft`; `unsafeInFlight` tells whether a side-effecting request is still unanswered. */
export function createListenTracker(draft: StreamsDraft, unsafeInFlight: () => boolean): ListenTracker {
  const { current, own, putListen, listenOf } = draft;
  return {
    request(f) {
      const listenId = f.conversationId ?? f.exchangeId;
      const l = current().listens[listenId];
      if (l) {
        const drops = l.drops.slice();
        const last = drops[drops.length - 1];
        if (last && last.reopenedAt === undefined) drops[drops.length - 1] = { ...last, reopenedAt: f.at };
        return putListen({ ...l, state: 'opening', drops, subscriptionIds: f.rpcId !== undefined ? [...l.subscriptionIds, f.rpcId] : l.subscriptionIds });
      }
      const filter = (asRecord(asRecord(asRecord(f.body)?.params)?.notifications) ?? {}) as SubscriptionFilter;
      putListen({
        listenId,
        connectionId: f.connectionId,
        filter,
        subscriptionIds: f.rpcId !== undefined ? [f.rpcId] : [],
        streamIds: [],
        state: 'opening',
        openedAt: f.at,
        attempt: 0,
        drops: [],
      });
      const w = own();
      w.listenOrder.push(listenId);
      if (w.listenOrder.length > MAX_LISTENS) delete w.listens[w.listenOrder.shift()!];
    },

    dropped(listenId, f, reason) {
      const l = current().listens[listenId];
      if (!l || l.state === 'closed' || l.state === 'ended' || l.state === 'refused') return;
      // One listen request drops once. Its stream's close and its failed exchange are two frames
      // of the same drop, and the listener may have reported it before either got here (the
      // timeline hands frames over once per animation frame; the listener's callbacks run at
      // once): the record already made, with the plan being carried out, stands.
      if (f.rpcId !== undefined && l.drops.some((d) => d.subscriptionId === f.rpcId)) return;
      // Like the listener: a stream that stayed up past the cap earns a fresh backoff.
      const attempt = l.lastAckAt !== undefined && f.at - l.lastAckAt >= BACKOFF_CAP_MS && l.state === 'live' ? 0 : l.drops.length ? l.attempt + 1 : 0;
      const plan = reconnectPlan({ previousSubscriptionId: f.rpcId, filter: l.filter, attempt, unsafeMutationInFlight: unsafeInFlight() });
      const drop: ListenDrop = { at: f.at, reason, attempt, ...(f.rpcId !== undefined ? { subscriptionId: f.rpcId } : {}), plan, reported: false };
      putListen({ ...l, state: 'reconnecting', attempt, drops: [...l.drops, drop].slice(-MAX_DROPS) });
    },

    streamOpened(listenId, streamId) {
      const l = current().listens[listenId];
      if (l) putListen({ ...l, streamIds: [...l.streamIds, streamId].slice(-MAX_DROPS) });
    },

    noteDrop(subscriptionId, info) {
      const l = listenOf(subscriptionId);
      if (!l) return;
      const drops = l.drops.slice();
      const i = drops.findLastIndex((d) => d.subscriptionId === subscriptionId && !d.reported);
      const drop: ListenDrop = { at: info.at, reason: info.reason, attempt: info.attempt, subscriptionId, plan: info.plan, reported: true };
      const derived = drops[i];
      if (derived) drops[i] = { ...derived, ...drop, at: derived.at };
      else drops.push(drop);
      putListen({ ...l, state: 'reconnecting', attempt: info.attempt, drops: drops.slice(-MAX_DROPS) });
    },

    noteResync(subscriptionId, at) {
      const l = listenOf(subscriptionId);
      const last = l?.drops[l.drops.length - 1];
      if (l && last) putListen({ ...l, drops: [...l.drops.slice(0, -1), { ...last, resyncedAt: at }] });
    },

    noteClosed(subscriptionId) {
      const l = listenOf(subscriptionId);
      if (l) putListen({ ...l, state: 'closed' });
    },
  };
}
