/**
 * Keeping the page responsive to an MCP App that floods its host. The sandbox proxy page stops a
 * view that goes over the limits (lib/protocol/bridge-gate.ts) and tells the host once; here, the
 * second line: messages that reach the host anyway are counted on arrival (a fixed ring of
 * arrival times, O(1) each) and read later, a few per animation frame within a time budget, so a
 * burst costs a bounded slice of each frame instead of one task's worth of parsing and rendering
 * per message. More than `perSecond` messages, or more than 4 MiB of JSON within ten seconds,
 * pauses the view: what it sends after that is counted and dropped, never read.
 */

import {
  BRIDGE_BYTES_PER_WINDOW,
  BRIDGE_BYTES_WINDOW_MS,
  BRIDGE_MESSAGES_PER_SECOND,
  createFloodGate as createGate,
  FloodReportSchema,
  SANDBOX_FLOODED_METHOD,
  type FloodGate,
  type FloodReport,
} from '../protocol/bridge-gate';
import { asRecord } from '../shared/records';

export type { FloodReport };

/** Create the gate of one view (lib/protocol/bridge-gate.ts), with the default limits. */
export function createFloodGate(perSecond = BRIDGE_MESSAGES_PER_SECOND, bytesLimit = BRIDGE_BYTES_PER_WINDOW): FloodGate {
  return createGate(perSecond, bytesLimit, BRIDGE_BYTES_WINDOW_MS);
}

/** The sandbox proxy's notice that it stopped the view: its report, checked, or undefined for anything else. */
export function floodNotice(data: unknown): FloodReport | undefined {
  const m = asRecord(data);
  if (m?.method !== SANDBOX_FLOODED_METHOD || m.jsonrpc !== '2.0') return undefined;
  const parsed = FloodReportSchema.safeParse(m.params);
  return parsed.success ? parsed.data : undefined;
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
