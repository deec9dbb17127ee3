import type { SubscriptionFilter } from '../protocol';
import type { Frame } from '../client/frames';
import { BACKOFF_CAP_MS, type ReconnectPlan, reconnectPlan } from '../client/reconnect';
import { asRecord } from '../shared/records';
import type { StreamsDraft } from './streams-draft';
import type { ListenDrop, ListenRecord, ListenRequest, StreamsState } from './streams-types';

/**
 * The listens of the streams slice: each `subscriptions/listen` as a whole across its re-opens
 * (frames of one listen share a conversationId), its drops, and the reconnect plan recorded for
 * each drop — derived from the frames, or the listener's own once it reports it.
 *
 * Two sources feed it and neither waits for the other: the frames come batched by the timeline
 * (once per animation frame in a page), the listener's reports (drop, resync, closed) come at
 * once. So nothing here depends on which arrives first. A drop belongs to the request whose
 * stream ended (its exchange: the stream's close, its error frame and the listener's report are
 * one drop); a re-open and a resync belong to the request after it. A report naming a
 * subscription no request frame has shown yet is held until that frame comes.
 */

const MAX_LISTENS = 50;
/** Drops kept per listen, and streams remembered per listen. */
const MAX_DROPS = 50;
/** Requests remembered per listen (one more than drops: the drop's re-open). */
const MAX_REQUESTS = MAX_DROPS + 1;
/** Subscriptions with reports held for their request frame, and reports held for each. */
const MAX_HELD = 64;
const MAX_HELD_EACH = 8;

type DropInfo = { at: number; reason: string; attempt: number; plan: ReconnectPlan };
type Report = { kind: 'drop'; info: DropInfo } | { kind: 'resync'; at: number } | { kind: 'closed' };

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
  /** Forget held reports (the slice was cleared). */
  reset(): void;
}

const isOver = (l: ListenRecord) => l.state === 'closed' || l.state === 'ended' || l.state === 'refused';
const indexOfExchange = (l: ListenRecord, exchangeId: string | undefined) =>
  exchangeId === undefined ? -1 : l.requests.findIndex((r) => r.exchangeId === exchangeId);

/** What the request after the dropped one says of the drop: when it re-opened and when the listener resynced. */
function followUp(l: ListenRecord, exchangeId: string | undefined): Pick<ListenDrop, 'reopenedAt' | 'resyncedAt'> {
  const i = indexOfExchange(l, exchangeId);
  const next = i < 0 ? undefined : l.requests[i + 1];
  if (!next) return {};
  return { reopenedAt: next.at, ...(next.resyncedAt !== undefined ? { resyncedAt: next.resyncedAt } : {}) };
}

/** Add a drop in request order (the drops of earlier requests first). */
function placeDrop(l: ListenRecord, drop: ListenDrop): ListenDrop[] {
  const rank = indexOfExchange(l, drop.exchangeId);
  const drops = l.drops.slice();
  const at = rank < 0 ? -1 : drops.findIndex((d) => indexOfExchange(l, d.exchangeId) > rank);
  if (at < 0) drops.push(drop);
  else drops.splice(at, 0, drop);
  return drops.slice(-MAX_DROPS);
}

/** Track listens in `draft`; `unsafeInFlight` tells whether a side-effecting request is still unanswered. */
export function createListenTracker(draft: StreamsDraft, unsafeInFlight: () => boolean): ListenTracker {
  const { current, own, putListen, listenOf } = draft;
  const held = new Map<string | number, Report[]>();

  function hold(subscriptionId: string | number, report: Report) {
    const reports = held.get(subscriptionId) ?? [];
    held.delete(subscriptionId);
    held.set(subscriptionId, [...reports, report].slice(-MAX_HELD_EACH));
    if (held.size > MAX_HELD) held.delete(held.keys().next().value!);
  }

  /** The listen's drop and its place for a report naming `subscriptionId`. */
  function dropOf(l: ListenRecord, subscriptionId: string | number) {
    const exchangeId = l.requests.find((r) => r.subscriptionId === subscriptionId)?.exchangeId;
    const i = l.drops.findIndex((d) =>
      exchangeId !== undefined && d.exchangeId !== undefined ? d.exchangeId === exchangeId : d.subscriptionId === subscriptionId,
    );
    return { exchangeId, i };
  }

  const tracker: ListenTracker = {
    request(f) {
      const listenId = f.conversationId ?? f.exchangeId;
      const req: ListenRequest = { exchangeId: f.exchangeId, ...(f.rpcId !== undefined ? { subscriptionId: f.rpcId } : {}), at: f.at };
      const l = current().listens[listenId];
      if (l) {
        if (indexOfExchange(l, f.exchangeId) >= 0) return;
        // This request re-opens after the drop of the one before it.
        const before = l.requests[l.requests.length - 1]?.exchangeId;
        const drops = l.drops.map((d) => (d.exchangeId === before && d.reopenedAt === undefined ? { ...d, reopenedAt: f.at } : d));
        putListen({
          ...l,
          state: isOver(l) ? l.state : 'opening',
          drops,
          requests: [...l.requests, req].slice(-MAX_REQUESTS),
          subscriptionIds: f.rpcId !== undefined ? [...l.subscriptionIds, f.rpcId] : l.subscriptionIds,
        });
      } else {
        const filter = (asRecord(asRecord(asRecord(f.body)?.params)?.notifications) ?? {}) as SubscriptionFilter;
        putListen({
          listenId,
          connectionId: f.connectionId,
          filter,
          subscriptionIds: f.rpcId !== undefined ? [f.rpcId] : [],
          requests: [req],
          streamIds: [],
          state: 'opening',
          openedAt: f.at,
          attempt: 0,
          drops: [],
        });
        const w = own();
        w.listenOrder.push(listenId);
        if (w.listenOrder.length > MAX_LISTENS) delete w.listens[w.listenOrder.shift()!];
      }
      // Reports the listener made before this frame got here.
      const reports = f.rpcId !== undefined ? held.get(f.rpcId) : undefined;
      if (f.rpcId === undefined || !reports) return;
      held.delete(f.rpcId);
      for (const r of reports) {
        if (r.kind === 'drop') tracker.noteDrop(f.rpcId, r.info);
        else if (r.kind === 'resync') tracker.noteResync(f.rpcId, r.at);
        else tracker.noteClosed(f.rpcId);
      }
    },

    dropped(listenId, f, reason) {
      const l = current().listens[listenId];
      if (!l || isOver(l)) return;
      // One listen request drops once: its stream's close, its error frame and the listener's
      // report are the same drop, whichever came first; it keeps the earliest time.
      const subscriptionId = f.rpcId ?? l.requests[indexOfExchange(l, f.exchangeId)]?.subscriptionId;
      const same = l.drops.findIndex((d) => d.exchangeId === f.exchangeId);
      const i = same >= 0 || subscriptionId === undefined ? same : dropOf(l, subscriptionId).i;
      const found = l.drops[i];
      if (found) {
        if (f.at < found.at) putListen({ ...l, drops: l.drops.map((d, k) => (k === i ? { ...found, at: f.at } : d)) });
        return;
      }
      const latest = l.requests[l.requests.length - 1]?.exchangeId === f.exchangeId;
      // Like the listener: a stream that stayed up past the cap earns a fresh backoff.
      const attempt = l.lastAckAt !== undefined && f.at - l.lastAckAt >= BACKOFF_CAP_MS && l.state === 'live' ? 0 : l.drops.length ? l.attempt + 1 : 0;
      const plan = reconnectPlan({ previousSubscriptionId: subscriptionId, filter: l.filter, attempt, unsafeMutationInFlight: unsafeInFlight() });
      const drop: ListenDrop = {
        at: f.at,
        reason,
        attempt,
        ...(subscriptionId !== undefined ? { subscriptionId } : {}),
        exchangeId: f.exchangeId,
        plan,
        reported: false,
        ...followUp(l, f.exchangeId),
      };
      // A drop of an earlier request (its frames late) does not undo the re-open after it.
      putListen({ ...l, ...(latest ? { state: 'reconnecting' as const, attempt } : {}), drops: placeDrop(l, drop) });
    },

    streamOpened(listenId, streamId) {
      const l = current().listens[listenId];
      if (l) putListen({ ...l, streamIds: [...l.streamIds, streamId].slice(-MAX_DROPS) });
    },

    noteDrop(subscriptionId, info) {
      const l = listenOf(subscriptionId);
      if (!l) return hold(subscriptionId, { kind: 'drop', info });
      const { exchangeId, i } = dropOf(l, subscriptionId);
      const reported = { reason: info.reason, attempt: info.attempt, subscriptionId, ...(exchangeId ? { exchangeId } : {}), plan: info.plan, reported: true };
      const found = l.drops[i];
      // The listener's plan replaces the derived one; the drop keeps the earliest time.
      const drops = found
        ? l.drops.map((d, k) => (k === i ? { ...found, ...reported, at: Math.min(found.at, info.at) } : d))
        : placeDrop(l, { at: info.at, ...reported, ...followUp(l, exchangeId) });
      const latest = l.requests[l.requests.length - 1]?.subscriptionId === subscriptionId;
      putListen({ ...l, ...(latest && !isOver(l) ? { state: 'reconnecting' as const, attempt: info.attempt } : {}), drops });
    },

    noteResync(subscriptionId, at) {
      const l = listenOf(subscriptionId);
      if (!l) return hold(subscriptionId, { kind: 'resync', at });
      // The resync follows the acknowledgement of this request: it makes up for the drop of the
      // request before it. Kept on the request too, for a drop whose frames come later.
      const k = l.requests.findIndex((r) => r.subscriptionId === subscriptionId);
      const requests = k < 0 ? l.requests : l.requests.map((r, n) => (n === k ? { ...r, resyncedAt: at } : r));
      const before = k > 0 ? l.requests[k - 1]?.exchangeId : undefined;
      let i = before === undefined ? -1 : l.drops.findIndex((d) => d.exchangeId === before);
      if (i < 0 && before === undefined) i = l.drops.findLastIndex((d) => d.reported && d.resyncedAt === undefined);
      putListen({ ...l, requests, drops: l.drops.map((d, n) => (n === i ? { ...d, resyncedAt: at } : d)) });
    },

    noteClosed(subscriptionId) {
      const l = listenOf(subscriptionId);
      if (!l) return hold(subscriptionId, { kind: 'closed' });
      putListen({ ...l, state: 'closed' });
    },

    reset: () => held.clear(),
  };
  return tracker;
}
