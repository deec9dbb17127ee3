/**
 * Keeping the page responsive to an MCP App that floods its host: messages from a view are
 * counted on arrival (a fixed ring of arrival times, O(1) each) and handed on in batches, one
 * per animation frame, so a burst costs one store update and one render per frame instead of
 * one per message. More than `perSecond` messages within any one second pauses the view: what
 * it sends after that is dropped, counted, never parsed.
 */

/** Messages a view may send per second before it is paused. Legitimate views send a handful. */
export const BRIDGE_MESSAGES_PER_SECOND = 500;

/** Why a view was paused, as the UI tells the user. */
export interface FloodReport {
  /** Messages received in the window that tripped the limit (the limit plus the one over). */
  received: number;
  /** How long those messages took to arrive, in ms. */
  windowMs: number;
  /** The limit, in messages per second. */
  perSecond: number;
  /** Messages that arrived since the pause and were dropped. */
  dropped: number;
}

/** A sliding one-second window over arrival times. */
interface FloodGate {
  /** Count one arrival at `now` (ms); false once the view is over the limit (and from then on). */
  admit(now: number): boolean;
  /** Pause now (the host fell behind: more than the limit waiting to be read). */
  trip(now: number): void;
  readonly paused: boolean;
  report(): FloodReport | undefined;
}

/** Create the gate of one view. */
export function createFloodGate(perSecond = BRIDGE_MESSAGES_PER_SECOND): FloodGate {
  const limit = Math.max(1, Math.floor(perSecond));
  // The arrival times of the last `limit` admitted messages; `next` is the oldest.
  const times = new Float64Array(limit).fill(Number.NEGATIVE_INFINITY);
  let next = 0;
  let tripped: FloodReport | undefined;
  const trip = (now: number) => {
    const oldest = times[next]!; // next < limit
    tripped ??= { received: limit + 1, windowMs: Number.isFinite(oldest) ? Math.max(0, now - oldest) : 0, perSecond: limit, dropped: 0 };
  };
  return {
    admit(now) {
      if (tripped) {
        tripped.dropped++;
        return false;
      }
      const oldest = times[next]!; // next < limit
      if (now - oldest < 1000) {
        trip(now);
        return false;
      }
      times[next] = now;
      next = (next + 1) % limit;
      return true;
    },
    trip,
    get paused() {
      return tripped !== undefined;
    },
    report: () => (tripped ? { ...tripped } : undefined),
  };
}

/** Collects items and hands them over in one call per animation frame. */
interface FrameBatcher<T> {
  push(item: T): void;
  /** Items waiting for a frame. */
  readonly size: number;
  /** Drop what is waiting and stop. */
  cancel(): void;
}

/** Schedules a callback for the next frame; returns a cancel function. */
type FrameScheduler = (run: () => void) => () => void;

/** The next animation frame, or 50 ms, whichever comes first (a hidden tab gets no frames). */
export const nextFrame: FrameScheduler = (run) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (raf !== undefined) cancelAnimationFrame(raf);
    run();
  };
  const raf = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(once) : undefined;
  const timer = setTimeout(once, 50);
  return () => {
    done = true;
    clearTimeout(timer);
    if (raf !== undefined) cancelAnimationFrame(raf);
  };
};

/** Create a batcher that calls `flush` with what arrived since the last frame, at most `perFrame` at a time. */
export function createFrameBatcher<T>(flush: (items: T[]) => void, schedule: FrameScheduler = nextFrame, perFrame = Infinity): FrameBatcher<T> {
  let items: T[] = [];
  let scheduled = false;
  let cancelRun: (() => void) | undefined;
  const run = () => {
    scheduled = false;
    const batch = items.length > perFrame ? items.splice(0, perFrame) : items;
    if (batch === items) items = [];
    // The rest waits for the next frame, so one frame's work stays bounded.
    else if (items.length) {
      scheduled = true;
      cancelRun = schedule(run);
    }
    flush(batch);
  };
  return {
    push(item) {
      items.push(item);
      if (scheduled) return;
      scheduled = true;
      cancelRun = schedule(run);
    },
    get size() {
      return items.length;
    },
    cancel() {
      if (scheduled) cancelRun?.();
      scheduled = false;
      items = [];
    },
  };
}

/** The pause, in words: "the app sent 501 messages in 0.04 s; the limit is 500 per second". */
export function describeFlood(r: FloodReport): string {
  const seconds = (r.windowMs / 1000).toFixed(r.windowMs < 100 ? 3 : 2);
  const more = r.dropped ? `; ${r.dropped.toLocaleString('en-US')} more dropped` : '';
  return `Paused: the app sent ${r.received.toLocaleString('en-US')} messages in ${seconds} s; the limit is ${r.perSecond.toLocaleString('en-US')} per second${more}`;
}
