import type { Frame } from '../client/frames';
import type { InspectorStoreOptions } from './inspector-store';
import type { SliceGet, SliceSet } from './slice';
import { createTimelineBuffer, type TimelineBuffer } from './timeline-buffer';
import { createIncrementalLinter } from './timeline-lints';
import { DEFAULT_FILTERS, type LintMap, type TimelineFilters, type TimelineStats } from './timeline-types';
import { perAnimationFrame } from './per-animation-frame';

/**
 * The timeline slice: the reactive face of the byte-bounded buffer. Components subscribe to
 * `version` (or to derived selectors) and read entries through `buffer`; one ingest is one
 * store update, so a 100,000-frame recording opened with `appendMany` renders once, and live
 * frames (`enqueue`) are one update per animation frame however many arrive (a burst of large
 * ones in 100 ms slices). The streams slice does not mind that frames come later than the
 * listener's own reports (streams-listens.ts).
 * Lints run off the ingest path, in slices of a few milliseconds, as exchanges complete.
 */

/** Receives every ingested frame, unchanged (parsed body included), in arrival batches. */
type FrameListener = (frames: readonly Frame[]) => void;

interface TimelineState {
  /** Grows on every change of the buffer (entries, bodies, lints). */
  version: number;
  /** Grows when lints were added. */
  lintVersion: number;
  stats: TimelineStats;
  filters: TimelineFilters;
  search: string;
  selectedId?: number;
  /** Keep the newest entry in view as frames arrive. */
  follow: boolean;
  /** One row per HTTP exchange (expandable to its frames), or one row per frame. */
  grouped: boolean;
  /** The bounded memory itself: non-reactive reads (get, ids, fullBody, spans, lintsOf...). */
  buffer: TimelineBuffer;
  /** Ingest one frame now (one store update). */
  append(frame: Frame): void;
  /** Ingest many frames in one store update; `lints` (e.g. from a recording) skip re-linting them. */
  appendMany(frames: readonly Frame[], options?: { lints?: LintMap }): void;
  /** Ingest a live frame: frames arriving before the next animation frame are batched into one update. */
  enqueue(frame: Frame): void;
  clear(): void;
  setFilters(patch: Partial<TimelineFilters>): void;
  setSearch(text: string): void;
  select(id: number | undefined): void;
  setFollow(follow: boolean): void;
  setGrouped(grouped: boolean): void;
  /** Lint everything waiting, including exchanges that never completed (tests, export). */
  flushLints(): void;
  subscribeFrames(listener: FrameListener): () => void;
}

/** The timeline part of the inspector state. */
export interface TimelineSlice {
  timeline: TimelineState;
}

const LINT_SLICE_MS = 4;
const OBSERVE_CHUNK = 2000;
const LINT_NOTIFY_MS = 250;
const BULK_LINT_DELAY_MS = 100;
const LINT_PRESSURE_BYTES = 8 * 1024 * 1024;
/** Live frames: one slice of ingest (ms), and what a slice takes at once before the rest waits for the next. */
const SLICE_MS = 100;
const SLICE_BYTES = 256 * 1024;
const SLICE_FRAMES = 500;

/** The timeline slice of the inspector store. */
export function createTimelineSlice(set: SliceSet<TimelineSlice>, get: SliceGet<TimelineSlice>, options: InspectorStoreOptions = {}): TimelineSlice {
  const buffer = createTimelineBuffer(options.limits, options.spill);
  const linter = options.lint === false ? undefined : createIncrementalLinter();
  const schedule = options.scheduleLint ?? ((run: () => void) => void setTimeout(run, 0));
  // A recording's lints start once its first screen has been painted (the frame after this one).
  const afterPaint = (run: () => void) => void setTimeout(run, BULK_LINT_DELAY_MS);
  const scheduleBulk =
    options.scheduleLint ?? (typeof requestAnimationFrame === 'function' ? (run: () => void) => void requestAnimationFrame(() => afterPaint(run)) : afterPaint);
  const scheduleFrames = options.scheduleFrames ?? perAnimationFrame;
  const listeners = new Set<FrameListener>();
  let lintScheduled = false;
  let queue: Frame[] = [];

  /** The live ingest slice (see `enqueue`): when it started and what it took. */
  let sliceStart = 0;
  let sliceBytes = 0;
  let sliceFrames = 0;
  const flushQueue = () => {
    const batch = queue;
    queue = [];
    const now = Date.now();
    if (now - sliceStart >= SLICE_MS) {
      sliceStart = now;
      sliceBytes = 0;
      sliceFrames = 0;
    }
    for (const f of batch) sliceBytes += f.bytes;
    sliceFrames += batch.length;
    ingest(batch);
    changed();
  };

  const update = (patch: Partial<TimelineState>) => set((s) => ({ timeline: { ...s.timeline, ...patch } }));
  const changed = (extra: Partial<TimelineState> = {}) => update({ version: get().timeline.version + 1, stats: buffer.stats(), ...extra });

  /** Bulk batches (a recording) the linter has not looked at yet: opening them does not wait for it. */
  let unobserved: (readonly Frame[])[] = [];
  /** How far into `unobserved[0]` the linter has looked. */
  let observedTo = 0;
  let lintsUnseen = false;
  let lintsShownAt = 0;

  /** Show the linter bulk frames, a chunk at a time, until `budgetMs` is used up. */
  function observeBulk(budgetMs = Infinity) {
    if (!linter) return;
    const started = Date.now();
    while (unobserved.length && Date.now() - started <= budgetMs) {
      const batch = unobserved[0]!; // the loop runs while unobserved has batches
      const end = Math.min(batch.length, observedTo + OBSERVE_CHUNK);
      linter.observe(batch.slice(observedTo, end));
      observedTo = end;
      if (observedTo >= batch.length) {
        unobserved.shift();
        observedTo = 0;
      }
    }
  }

  function runLints() {
    lintScheduled = false;
    if (!linter) return;
    const started = Date.now();
    observeBulk(LINT_SLICE_MS);
    if (unobserved.length) return scheduleLints();
    const found = linter.drain(Math.max(0, LINT_SLICE_MS - (Date.now() - started)));
    if (found.size) {
      buffer.setLints(found);
      lintsUnseen = true;
    }
    // A long backlog (a recording) re-renders a few times a second, not after every slice.
    if (lintsUnseen && (!linter.backlog || Date.now() - lintsShownAt >= LINT_NOTIFY_MS)) {
      lintsUnseen = false;
      lintsShownAt = Date.now();
      changed({ lintVersion: get().timeline.lintVersion + 1 });
    }
    if (linter.backlog) scheduleLints();
  }
  function scheduleLints() {
    if (lintScheduled) return;
    lintScheduled = true;
    schedule(runLints);
  }

  /** `bulk`: the caller holds these frames anyway (a recording), so linting them may wait. */
  function ingest(frames: readonly Frame[], lints?: LintMap, bulk = false) {
    if (!frames.length) return;
    buffer.push(frames);
    if (lints) buffer.setLints(lints);
    else if (linter && bulk) {
      unobserved.push(frames);
      if (!lintScheduled) {
        lintScheduled = true;
        scheduleBulk(runLints);
      }
    } else if (linter) {
      if (linter.observe(frames)) scheduleLints();
      // Live frames wait for their exchange to complete; never let that hold much memory.
      if (linter.pendingBytes > LINT_PRESSURE_BYTES) {
        buffer.setLints(linter.drain(Infinity));
        if (linter.pendingBytes > LINT_PRESSURE_BYTES) buffer.setLints(linter.drain(Infinity, true));
      }
    }
    for (const l of listeners) {
      try {
        l(frames);
      } catch {
        /* one broken listener must not break ingestion */
      }
    }
  }

  const state: TimelineState = {
    version: 0,
    lintVersion: 0,
    stats: buffer.stats(),
    filters: DEFAULT_FILTERS,
    search: '',
    follow: true,
    grouped: true,
    buffer,
    append(frame) {
      ingest([frame]);
      changed();
    },
    appendMany(frames, o = {}) {
      ingest(frames, o.lints, true);
      changed(o.lints ? { lintVersion: get().timeline.lintVersion + 1 } : {});
    },
    enqueue(frame) {
      queue.push(frame);
      if (queue.length > 1) return;
      // A burst (a stream of large events) is taken in slices: past SLICE_BYTES in the current
      // slice, the rest waits for the next one, so the views render a few times a second, not per
      // event; otherwise what arrived goes in once per animation frame.
      const wait = sliceBytes >= SLICE_BYTES || sliceFrames >= SLICE_FRAMES ? sliceStart + SLICE_MS - Date.now() : 0;
      if (wait > 0) setTimeout(flushQueue, wait);
      else scheduleFrames(flushQueue);
    },
    clear() {
      buffer.clear();
      linter?.clear();
      unobserved = [];
      observedTo = 0;
      changed({ selectedId: undefined });
    },
    setFilters: (patch) => update({ filters: { ...get().timeline.filters, ...patch } }),
    setSearch: (search) => update({ search }),
    select: (selectedId) => update({ selectedId, ...(selectedId !== undefined ? { follow: false } : {}) }),
    setFollow: (follow) => update({ follow }),
    setGrouped: (grouped) => update({ grouped }),
    flushLints() {
      if (!linter) return;
      observeBulk();
      const found = linter.drain(Infinity, true);
      buffer.setLints(found);
      changed({ lintVersion: get().timeline.lintVersion + 1 });
    },
    subscribeFrames(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { timeline: state };
}
