import type { SliceSet } from './slice';
import type { ListenRecord, StreamRecord, StreamsSlice, StreamsState } from './streams-types';

/**
 * The working copy the streams slice's actions run against: read from `current()`, write
 * through `own()`, which copies the maps and lists once per action or batch (never once per
 * frame), so a batch of 100,000 frames costs one store update and no per-frame copies of the
 * whole map.
 */
export interface StreamsDraft {
  /** Run an action against the working copy; the store is set once at the end, if it changed. Nested runs join the outer one. */
  run(action: () => void): void;
  /** The state being worked on (inside `run` only). */
  current(): StreamsState;
  /** The working copy, made writable (its maps and lists copied) on first use in a run. */
  own(): StreamsState;
  putStream(r: StreamRecord): void;
  /** The stream's record, copied once per run so it can be updated in place. */
  draftStream(id: string): StreamRecord | undefined;
  putListen(l: ListenRecord): void;
  /** The newest listen one of whose requests had this subscription id. */
  listenOf(subscriptionId: string | number): ListenRecord | undefined;
}

/** Create the working copy of a streams slice. */
export function createStreamsDraft(set: SliceSet<StreamsSlice>): StreamsDraft {
  let cur: StreamsState | undefined;
  let owned = false;
  // Stream records copied in this run: further frames of the same stream update them in place.
  const fresh = new Set<string>();
  const current = () => cur!;
  const own = (): StreamsState => {
    if (!owned) {
      // Rebuilt from the order lists rather than spread: evictions leave the maps in V8's
      // dictionary mode, whose spread costs ~100× more than this loop.
      // Each order list names exactly the records its map holds.
      const c = cur!;
      const byId: Record<string, StreamRecord> = {};
      for (const id of c.order) byId[id] = c.byId[id]!;
      const listens: Record<string, ListenRecord> = {};
      for (const id of c.listenOrder) listens[id] = c.listens[id]!;
      cur = { ...c, byId, order: c.order.slice(), listens, listenOrder: c.listenOrder.slice() };
      owned = true;
    }
    return cur!;
  };
  function run(action: () => void) {
    if (cur) return action();
    set((s) => {
      cur = s.streams;
      owned = false;
      try {
        action();
        return owned ? { streams: cur } : {};
      } finally {
        cur = undefined;
        fresh.clear();
      }
    });
  }
  const putStream = (r: StreamRecord) => {
    own().byId[r.streamId] = r;
    fresh.add(r.streamId);
  };
  const draftStream = (id: string): StreamRecord | undefined => {
    const r = cur!.byId[id];
    if (!r || fresh.has(id)) return r;
    const copy = { ...r, recent: r.recent.slice() };
    putStream(copy);
    return copy;
  };
  const putListen = (l: ListenRecord) => {
    own().listens[l.listenId] = l;
  };
  const listenOf = (subscriptionId: string | number): ListenRecord | undefined => {
    const c = cur!;
    // Newest first: request ids start again at 1 on every connection, and reports come from the current one.
    for (let i = c.listenOrder.length - 1; i >= 0; i--) {
      const l = c.listens[c.listenOrder[i]!]!;
      if (l.subscriptionIds.includes(subscriptionId)) return l;
    }
    return undefined;
  };
  return { run, current, own, putStream, draftStream, putListen, listenOf };
}
