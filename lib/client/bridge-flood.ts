/**
 * Keeping the page responsive to an MCP App that floods its host: messages from a view are
 * counted on arrival (a fixed ring of arrival times, O(1) each) and read later, a few per
 * animation frame within a time budget, so a burst costs a bounded slice of each frame instead
 * of one task's worth of parsing and rendering per message. More than `perSecond` messages, or
 * more than 4 MiB of JSON within ten seconds, pauses the view: what it sends after
 * that is counted and dropped, never read.
 */

/**
 * Messages a view may send per second before it is paused. Legitimate views send a handful (an
 * animated view's size changes are one a frame, 60 a second); each message read costs the page
 * a parse, a bridge log row and a timeline frame, so the limit stays close to that.
 */
export const BRIDGE_MESSAGES_PER_SECOND = 200;
/**
 * JSON a view may send within BRIDGE_BYTES_WINDOW_MS (as read, UTF-16 code units): each byte read
 * is parsed, logged and kept on the timeline, and a page already holding a large timeline spends
 * seconds on each 1 MiB message, so the window is long enough that big messages sent a little
 * apart (the sandbox relays them slowly) still count together.
 */
export const BRIDGE_BYTES_PER_WINDOW = 4 * 1024 * 1024;
export const BRIDGE_BYTES_WINDOW_MS = 10_000;

/** Why a view was paused, as the UI tells the user. */
export interface FloodReport {
  /** Messages in the window that tripped the limit (for a count trip: the limit plus the one over). */
  received: number;
  /** How long those messages took to arrive, in ms. */
  windowMs: number;
  /** The limit, in messages per second. */
  perSecond: number;
  /** Messages that arrived from the view and were dropped unread (those waiting at the pause and all since). */
  dropped: number;
  /** Set when the view was paused for volume: the bytes in the window and the limit (per BRIDGE_BYTES_WINDOW_MS). */
  bytes?: number;
  bytesLimit?: number;
}

/** A sliding one-second window over arrival times, and a ten-second one over the bytes of the messages read. */
interface FloodGate {
  /** Count one arrival at `now` (ms); false once the view is over the limit (and from then on, counting it dropped). */
  admit(now: number): boolean;
  /** Weigh one message that came at `now`; false (the view paused, the message dropped) when the bytes in the window go over. */
  weigh(now: number, bytes: number): boolean;
  /** Pause now (the host fell behind: more than the limit waiting to be read). */
  trip(now: number): void;
  /** Count messages dropped unread because of the pause (those that were waiting for a frame). */
  drop(count: number): void;
  readonly paused: boolean;
  report(): FloodReport | undefined;
}

/** Create the gate of one view. */
export function createFloodGate(perSecond = BRIDGE_MESSAGES_PER_SECOND, bytesLimit = BRIDGE_BYTES_PER_WINDOW): FloodGate {
  const limit = Math.max(1, Math.floor(perSecond));
  // The arrival times of the last `limit` admitted messages; `next` is the oldest.
  const times = new Float64Array(limit).fill(Number.NEGATIVE_INFINITY);
  let next = 0;
  // Messages read in the byte window, oldest first, with their sum (at most ten times `limit`: the count gate comes first).
  const reads: { at: number; bytes: number }[] = [];
  let readBytes = 0;
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
    weigh(now, bytes) {
      if (tripped) return false;
      while (reads.length && now - reads[0]!.at >= BRIDGE_BYTES_WINDOW_MS) readBytes -= reads.shift()!.bytes;
      reads.push({ at: now, bytes });
      readBytes += bytes;
      if (readBytes <= bytesLimit) return true;
      const first = reads[0]!.at;
      tripped = { received: reads.length, windowMs: Math.max(0, now - first), perSecond: limit, dropped: 1, bytes: readBytes, bytesLimit };
      return false;
    },
    trip,
    drop(count) {
      if (tripped) tripped.dropped += count;
    },
    get paused() {
      return tripped !== undefined;
    },
    report: () => (tripped ? { ...tripped } : undefined),
  };
}

/** Collects items and hands them over a few per animation frame. */
interface FrameBatcher<T> {
  push(item: T): void;
  /** Items waiting for a frame. */
  readonly size: number;
  /** Drop what is waiting and stop; returns how many were dropped. */
  cancel(): number;
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

interface BatcherOptions {
  schedule?: FrameScheduler;
  /** Most items handed over in one frame. */
  perFrame?: number;
  /** Time (ms, by `now`) after which a frame hands over no more (at least one item goes each frame). */
  budgetMs?: number;
  now?: () => number;
}

/** Create a batcher that calls `each` for what arrived, in order, up to `perFrame` items or `budgetMs` per frame. */
export function createFrameBatcher<T>(each: (item: T) => void, options: BatcherOptions = {}): FrameBatcher<T> {
  const { schedule = nextFrame, perFrame = Infinity, budgetMs = Infinity, now = () => performance.now() } = options;
  let items: T[] = [];
  // Items before `head` were handed over in the running frame.
  let head = 0;
  let scheduled = false;
  let cancelRun: (() => void) | undefined;
  // Grows on cancel, so a run that `each` cancelled stops handing over.
  let generation = 0;
  const run = () => {
    scheduled = false;
    const gen = generation;
    const start = now();
    for (let n = 0; head < items.length && n < perFrame && (n === 0 || now() - start < budgetMs); n++) {
      each(items[head++]!);
      if (gen !== generation) return;
    }
    // The rest waits for the next frame, so one frame's work stays bounded.
    items = items.slice(head);
    head = 0;
    if (items.length) {
      scheduled = true;
      cancelRun = schedule(run);
    }
  };
  return {
    push(item) {
      items.push(item);
      if (scheduled) return;
      scheduled = true;
      cancelRun = schedule(run);
    },
    get size() {
      return items.length - head;
    },
    cancel() {
      if (scheduled) cancelRun?.();
      scheduled = false;
      generation++;
      const n = items.length - head;
      items = [];
      head = 0;
      return n;
    },
  };
}

const MIB = 1024 * 1024;

/** The pause, in words: "the app sent 201 messages in 0.04 s; the limit is 200 per second". */
export function describeFlood(r: FloodReport): string {
  const seconds = (r.windowMs / 1000).toFixed(r.windowMs < 100 ? 3 : 2);
  const more = r.dropped ? `; ${r.dropped.toLocaleString('en-US')} dropped unread` : '';
  if (r.bytes !== undefined && r.bytesLimit !== undefined)
    return `Paused: the app sent ${(r.bytes / MIB).toFixed(1)} MiB in ${r.received.toLocaleString('en-US')} messages in ${seconds} s; the limit is ${(r.bytesLimit / MIB).toFixed(0)} MiB per ${BRIDGE_BYTES_WINDOW_MS / 1000} s${more}`;
  return `Paused: the app sent ${r.received.toLocaleString('en-US')} messages in ${seconds} s; the limit is ${r.perSecond.toLocaleString('en-US')} per second${more}`;
}
