import { z } from 'zod';

/**
 * The limits an MCP App view's bridge messages are held to, and the gate that counts them. Two
 * places run the same gate: the sandbox proxy page (lib/server/sandbox-proxy.ts), which stops
 * relaying a view that goes over and tells the host once instead of passing on the flood, and the
 * inspector's bridge transport (lib/client/app-bridge-transport.ts), the second line for a flood
 * that reaches it anyway. The proxy page embeds `createFloodGate`'s source, so the function must
 * stay self-contained: no imports, no outer names, no defaults.
 */

/**
 * Messages a view may send per second before it is paused. Legitimate views send a handful (an
 * animated view's size changes are one a frame, 60 a second); each message read costs the page
 * a parse, a bridge log row and a timeline frame, so the limit stays close to that.
 */
export const BRIDGE_MESSAGES_PER_SECOND = 200;
/**
 * JSON a view may send within BRIDGE_BYTES_WINDOW_MS (as `JSON.stringify` measures it, UTF-16 code
 * units): each byte read is parsed, logged and kept on the timeline, so the window is long enough
 * that big messages sent a little apart still count together.
 */
export const BRIDGE_BYTES_PER_WINDOW = 4 * 1024 * 1024;
export const BRIDGE_BYTES_WINDOW_MS = 10_000;

/**
 * The notice the sandbox proxy sends the host, in order after the last message it relayed, when
 * it stopped a view (and again as its dropped count grows). The proxy drops this method from the
 * view, so only the proxy can send it.
 */
export const SANDBOX_FLOODED_METHOD = 'ui/notifications/sandbox-flooded';

/** Why a view was paused, as the UI tells the user. */
export interface FloodReport {
  /** Messages in the window that tripped the limit (for a count trip: the limit plus the one over). */
  received: number;
  /** How long those messages took to arrive, in ms. */
  windowMs: number;
  /** The limit, in messages per second. */
  perSecond: number;
  /** Messages that came from the view after the pause (or waiting at it) and were dropped unread. */
  dropped: number;
  /** Set when the view was paused for volume: the bytes in the window and the limit (per BRIDGE_BYTES_WINDOW_MS). */
  bytes?: number;
  bytesLimit?: number;
}

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** The params of a SANDBOX_FLOODED_METHOD notice: a FloodReport. */
export const FloodReportSchema = z.object({
  received: count,
  windowMs: z.number().nonnegative().max(1e12),
  perSecond: count.min(1),
  dropped: count,
  bytes: count.optional(),
  bytesLimit: count.optional(),
});

/** A sliding one-second window over arrival times, and a window over the bytes of the messages read. */
export interface FloodGate {
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

/** Create the gate of one view: `perSecond` messages a second, `bytesLimit` of JSON per `bytesWindowMs`. */
export function createFloodGate(perSecond: number, bytesLimit: number, bytesWindowMs: number): FloodGate {
  const limit = Math.max(1, Math.floor(perSecond));
  // The arrival times of the last `limit` admitted messages; `next` is the oldest.
  const times = new Float64Array(limit).fill(Number.NEGATIVE_INFINITY);
  let next = 0;
  // Messages weighed in the byte window, oldest first, with their sum (at most ten times `limit`: the count gate comes first).
  const reads: { at: number; bytes: number }[] = [];
  let readBytes = 0;
  let tripped: FloodReport | undefined;
  const trip = (now: number) => {
    const oldest = times[next] as number; // next < limit
    tripped ??= { received: limit + 1, windowMs: Number.isFinite(oldest) ? Math.max(0, now - oldest) : 0, perSecond: limit, dropped: 0 };
  };
  return {
    admit(now) {
      if (tripped) {
        tripped.dropped++;
        return false;
      }
      const oldest = times[next] as number; // next < limit
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
      while (reads.length && now - (reads[0] as { at: number }).at >= bytesWindowMs) readBytes -= (reads.shift() as { bytes: number }).bytes;
      reads.push({ at: now, bytes });
      readBytes += bytes;
      if (readBytes <= bytesLimit) return true;
      const first = (reads[0] as { at: number }).at;
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
