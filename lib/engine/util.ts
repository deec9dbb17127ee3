import { sleep, type Clock } from '../shared/clock';

/**
 * Sleep on the injected clock without a wake handle: resolves true when `ms` passed, false when
 * the signal aborts first. A non-positive `ms` settles at once.
 */
export function sleepUnlessAborted(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(!signal?.aborted);
  return sleep(clock, ms, signal).done;
}

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Whether a log entry at `level` passes the requested minimum. */
export function levelAtLeast(level: string, min: string): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(min);
}
