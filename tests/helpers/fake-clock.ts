import type { Clock } from '../../lib/engine';

/**
 * A manual clock for engine tests: time moves only through `advance`/`set`, and timers fire
 * in due order as time passes them (a timer scheduled by another timer's callback fires in the
 * same advance when it is due).
 */
export interface FakeClock extends Clock {
  /** Move time forward by `ms`, firing every timer that falls due. */
  advance(ms: number): void;
  /** Jump to an absolute time (never backwards). */
  set(ms: number): void;
  /** Timers still pending. */
  pending(): number;
}

export function createFakeClock(start = Date.UTC(2026, 6, 28, 12, 0, 0)): FakeClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();

  function runUntil(target: number) {
    for (let guard = 0; guard < 100_000; guard++) {
      let nextId: number | undefined;
      let nextDue = Infinity;
      for (const [id, t] of timers) if (t.due <= target && t.due < nextDue) [nextId, nextDue] = [id, t.due];
      if (nextId === undefined) break;
      const timer = timers.get(nextId)!;
      timers.delete(nextId);
      now = Math.max(now, timer.due);
      timer.fn();
    }
    now = Math.max(now, target);
  }

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { due: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance: (ms) => runUntil(now + ms),
    set: (ms) => runUntil(ms),
    pending: () => timers.size,
  };
}
