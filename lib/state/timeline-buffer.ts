import type { Frame } from '../client/frames';
import { fingerprint } from '../shared/fingerprint';
import type { Lint } from '../protocol';
import { previewOf, stringBytes, toEntry } from './timeline-entry';
import { createSpanIndex, spanKeysOf } from './timeline-spans';
import { DEFAULT_LIMITS, type Span, type SpillBatch, type SpillHandler, type TimelineEntry, type TimelineLimits, type TimelineStats } from './timeline-types';

/**
 * The byte-bounded memory behind the timeline slice (plain mutable structures, read on the
 * slice's `version`):
 * - entries in a ring, oldest first, each costing `entry.cost` bytes against `maxBytes`;
 *   when over budget the oldest are evicted down to 90% of it (so evictions come in batches)
 *   and handed to `spill` (or only counted);
 * - a payload larger than `previewBytes` is cut in the entry, and its full text kept ONCE in
 *   the body store, itself bounded by `maxBodyBytes`, oldest first; an entry whose body left
 *   says so (`fullBody: 'evicted'`, or `'too-large'` when it never fit);
 * - spans, lints per exchange and task snapshots indexed for the views, forgotten with the
 *   entries they point at.
 */

export interface TimelineBuffer {
  readonly limits: TimelineLimits;
  stats(): TimelineStats;
  get(id: number): TimelineEntry | undefined;
  /** Ids of every entry held, oldest first. */
  ids(): number[];
  /** Call `fn` on every entry held from `fromId` on, oldest first. */
  forEach(fn: (entry: TimelineEntry) => void, fromId?: number): void;
  /** The full text of a truncated entry, while kept. */
  fullBody(id: number): string | undefined;
  /** The best text there is for an entry: the full body, else the preview. */
  text(id: number): string | undefined;
  span(key: string): Span | undefined;
  spans(): Span[];
  /** Iterate the spans other than exchanges (tasks, conversations, listens, bridges) without copying. */
  longSpans(): IterableIterator<Span>;
  /** The spans an entry belongs to that are still known. */
  spansOf(entry: TimelineEntry): Span[];
  lintsOf(exchangeId: string): readonly Lint[] | undefined;
  /** The previous snapshot entry of the same task, if still held. */
  previousSnapshot(id: number): TimelineEntry | undefined;
  /** Ingest frames; returns how many entries were evicted. */
  push(frames: readonly Frame[]): number;
  /** Set lints of exchanges (replacing earlier ones). */
  setLints(lints: ReadonlyMap<string, readonly Lint[]>): void;
  clear(): void;
}

const HYSTERESIS = 0.9;
const COMPACT_AT = 4096;

/** Create an empty timeline buffer. */
export function createTimelineBuffer(limits: Partial<TimelineLimits> = {}, spill?: SpillHandler): TimelineBuffer {
  const L: TimelineLimits = { ...DEFAULT_LIMITS, ...limits };
  let items: TimelineEntry[] = [];
  let start = 0;
  let firstId = 0;
  let nextId = 0;
  let retainedBytes = 0;
  let bodyBytes = 0;
  let spilled = 0;
  let spilledBytes = 0;
  const bodies = new Map<number, string>();
  const spans = createSpanIndex();
  const lints = new Map<string, readonly Lint[]>();
  const snapshots = new Map<string, number[]>();
  const fps = new Map<string, string>();
  const fp = (taskId: string) => {
    let f = fps.get(taskId);
    if (!f) {
      f = fingerprint(taskId);
      fps.set(taskId, f);
    }
    return f;
  };

  const indexOf = (id: number) => (id >= firstId && id < nextId ? start + (id - firstId) : -1);
  const get = (id: number) => {
    const i = indexOf(id);
    return i < 0 ? undefined : items[i];
  };
  const replace = (id: number, patch: Partial<TimelineEntry>) => {
    const i = indexOf(id);
    const e = items[i];
    if (e) items[i] = { ...e, ...patch };
  };

  function keepBody(id: number, text: string): TimelineEntry['fullBody'] {
    const size = stringBytes(text);
    if (size > L.maxBodyBytes) return 'too-large';
    bodies.set(id, text);
    bodyBytes += size;
    for (const [oldId, old] of bodies) {
      if (bodyBytes <= L.maxBodyBytes) break;
      bodies.delete(oldId);
      bodyBytes -= stringBytes(old);
      replace(oldId, { fullBody: 'evicted' });
    }
    return 'kept';
  }

  function evict(): number {
    if (retainedBytes <= L.maxBytes) return 0;
    const target = L.maxBytes * HYSTERESIS;
    const batch: SpillBatch = { entries: [], bodies: new Map() };
    let n = 0;
    while (retainedBytes > target && start < items.length) {
      const e = items[start++]!; // start < items.length
      n++;
      retainedBytes -= e.cost;
      spilledBytes += e.cost;
      firstId = e.id + 1;
      const body = bodies.get(e.id);
      if (body !== undefined) {
        bodies.delete(e.id);
        bodyBytes -= stringBytes(body);
        if (spill) batch.bodies.set(e.id, body);
      }
      if (spill) batch.entries.push(e);
    }
    spilled += n;
    if (start > COMPACT_AT && start > items.length / 2) {
      items = items.slice(start);
      start = 0;
    }
    for (const key of spans.sweep(firstId)) {
      if (key.startsWith('exchange:')) lints.delete(key.slice(9));
      else if (key.startsWith('task:')) {
        snapshots.delete(key.slice(5));
        fps.delete(key.slice(5));
      }
    }
    for (const [taskId, list] of snapshots) {
      let k = 0;
      while (k < list.length && list[k]! < firstId) k++;
      if (k) snapshots.set(taskId, list.slice(k));
    }
    if (spill && batch.entries.length) {
      try {
        spill(batch);
      } catch {
        /* a failing spill target must not break the timeline */
      }
    }
    return n;
  }

  function push(frames: readonly Frame[]): number {
    let evicted = 0;
    for (const frame of frames) {
      const id = nextId++;
      const { entry, fullBody } = toEntry(frame, id, L.previewBytes, fp);
      items.push(entry);
      retainedBytes += entry.cost;
      if (fullBody !== undefined) entry.fullBody = keepBody(id, fullBody);
      spans.add(entry);
      if (entry.snapshot && entry.taskId) {
        const list = snapshots.get(entry.taskId);
        if (list) list.push(id);
        else snapshots.set(entry.taskId, [id]);
      }
      if (retainedBytes > L.maxBytes) evicted += evict();
    }
    return evicted;
  }

  return {
    limits: L,
    stats: () => ({ count: nextId - firstId, firstId, nextId, retainedBytes, bodyBytes, spilled, spilledBytes }),
    get,
    ids: () => {
      const out = new Array<number>(nextId - firstId);
      for (let i = 0; i < out.length; i++) out[i] = firstId + i;
      return out;
    },
    forEach(fn, fromId = firstId) {
      for (let i = indexOf(Math.max(fromId, firstId)); i >= 0 && i < items.length; i++) fn(items[i]!);
    },
    fullBody: (id) => bodies.get(id),
    text: (id) => {
      const e = get(id);
      return bodies.get(id) ?? (e && previewOf(e));
    },
    span: (key) => spans.get(key),
    spans: () => [...spans.all()],
    longSpans: () => spans.long(),
    spansOf: (entry) => spanKeysOf(entry).flatMap((k) => spans.get(k) ?? []),
    lintsOf: (exchangeId) => lints.get(exchangeId),
    previousSnapshot(id) {
      const e = get(id);
      const list = e?.taskId ? snapshots.get(e.taskId) : undefined;
      if (!list) return undefined;
      const before = list.findLast((snapshotId) => snapshotId < id);
      return before === undefined ? undefined : get(before);
    },
    push,
    setLints(map) {
      for (const [exchangeId, found] of map) if (spans.get(`exchange:${exchangeId}`)) lints.set(exchangeId, found);
    },
    clear() {
      items = [];
      start = 0;
      firstId = nextId;
      retainedBytes = 0;
      bodyBytes = 0;
      bodies.clear();
      spans.clear();
      lints.clear();
      snapshots.clear();
      fps.clear();
    },
  };
}
