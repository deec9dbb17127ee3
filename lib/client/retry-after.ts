import { retryDelayMs } from './reconnect';

/**
 * A busy server (HTTP 429 Too Many Requests, 503 Service Unavailable) says when to come back with
 * `Retry-After` (RFC 9110 §10.2.3): a number of seconds or an HTTP-date. The client waits that
 * long before the same request goes out again, a bounded number of times, and says so while it
 * waits; without the header it backs off like a dropped stream. A wait longer than the cap is not
 * waited: the outcome reports the server busy at once.
 */

/** The statuses that mean "not now, the request was not processed". */
const BUSY_STATUSES = new Set([429, 503]);

const STATUS_TEXT: Record<number, string> = { 429: 'Too Many Requests', 503: 'Service Unavailable' };

/** Retries after a busy answer (default). */
export const BUSY_RETRIES = 3;
/** Longest Retry-After the client waits (default). */
export const MAX_RETRY_AFTER_MS = 60_000;

/** A wait before retrying a request the server was too busy for (reported to the UI). */
export interface BusyWait {
  method: string;
  status: number;
  /** What the wait rests on: the server's Retry-After, or the client's own backoff. */
  source: 'retry-after' | 'backoff';
  delayMs: number;
  /** 1-based retry number, and how many retries there are at most. */
  attempt: number;
  retries: number;
}

/** Whether an HTTP status means the server was too busy for the request. */
export function isBusyStatus(status: number | undefined): status is number {
  return status !== undefined && BUSY_STATUSES.has(status);
}

/** "503 Service Unavailable". */
function busyStatusText(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? 'busy'}`;
}

/**
 * Milliseconds a `Retry-After` value asks for, from `now`: delay-seconds (a non-negative
 * integer) or an HTTP-date (a past date means now). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // HTTP-dates (IMF-fixdate and the obsolete forms) always name a weekday and a time.
  if (!/[a-z]/i.test(v) || !/\d{1,2}:\d{2}:\d{2}/.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** What a busy answer leads to. */
interface BusyAnswer {
  method: string;
  status: number;
  retryAfter: string | undefined;
  /** Retries already made (0 for the first answer). */
  attempt: number;
  /** Where the request went, for the message. */
  target: string;
}

/** The wait before the next retry, or why there is none (the failure message). */
export function busyWait(a: BusyAnswer, now: number, limits: { retries: number; maxWaitMs: number }): BusyWait | { giveUp: string } {
  const from = `${busyStatusText(a.status)} from ${a.target}`;
  if (a.attempt >= limits.retries) return { giveUp: `${from}: retried ${a.attempt} ${a.attempt === 1 ? 'time' : 'times'}` };
  const asked = parseRetryAfter(a.retryAfter, now);
  const delayMs = asked ?? retryDelayMs(a.attempt);
  if (delayMs > limits.maxWaitMs)
    return { giveUp: `${from}: Retry-After asks for ${Math.ceil(delayMs / 1000)} s, longer than the ${limits.maxWaitMs / 1000} s this client waits` };
  return {
    method: a.method,
    status: a.status,
    source: asked === undefined ? 'backoff' : 'retry-after',
    delayMs,
    attempt: a.attempt + 1,
    retries: limits.retries,
  };
}

/** One line for the connection status: "Server busy (503 Service Unavailable), retrying tools/list in 3 s (1 of 3)". */
export function describeBusyWait(w: BusyWait): string {
  const secs = Math.max(1, Math.ceil(w.delayMs / 1000));
  return `Server busy (${busyStatusText(w.status)}), retrying ${w.method} in ${secs} s (${w.attempt} of ${w.retries})`;
}
