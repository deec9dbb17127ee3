import type { Clock } from '../../lib/engine';

/**
 * A manual clock for engine tests: time moves only through `advance`/`set`, and timers fire
 * in due order as time passes them (a timer scheduled by another timer's callback fires in the
 * same advance when it is due).
 */
export interface FakeClock extends Clock {
  /** Move time forward by `ms`, firing every timer that falls due. */
  advance(ms: number): void;
  /**
   * Like `advance`, but lets each fired timer's async work (a store write, then the next timer
   * it schedules) finish before looking for the next due timer.
   */
  advanceAsync(ms: number): Promise<void>;
  /** Jump to an absolute time (never backwards). */
  set(ms: number): void;
  /** Timers still pending. */
  pending(): number;
}

/** A {@link FakeClock} standing at `start` (2026-07-28 12:00 UTC unless given). */
export function createFakeClock(start = Date.UTC(2026, 6, 28, 12, 0, 0)): FakeClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();

  /** Fire the earliest timer due by `target`; false when none is. */
  function fireNext(target: number): boolean {
    let nextId: number | undefined;
    let nextDue = Infinity;
    for (const [id, t] of timers) if (t.due <= target && t.due < nextDue) [nextId, nextDue] = [id, t.due];
    if (nextId === undefined) return false;
    const timer = timers.get(nextId)!;
    timers.delete(nextId);
    now = Math.max(now, timer.due);
    timer.fn();
    return true;
  }

  function runUntil(target: number) {
    for (let guard = 0; guard < 100_000 && fireNext(target); guard++);
    now = Math.max(now, target);
  }

  async function runUntilAsync(target: number) {
    await flushAsync();
    for (let guard = 0; guard < 100_000 && fireNext(target); guard++) await flushAsync();
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
    advanceAsync: (ms) => runUntilAsync(now + ms),
    set: (ms) => runUntil(ms),
    pending: () => timers.size,
  };
}

/** Let pending promise callbacks and I/O callbacks run (a few macrotask turns). */
export async function flushAsync(): Promise<void> {
  for (let i = 0; i < 8; i++) await new Promise((r) => setImmediate(r));
}

/** Advance the fake clock in small steps until `p` settles; throws after `maxMs` of fake time. */
export async function drive<T>(clock: FakeClock, p: Promise<T>, stepMs = 25, maxMs = 60_000): Promise<T> {
  let settled = false;
  let value!: T;
  p.then((v) => {
    settled = true;
    value = v;
  });
  for (let t = 0; t <= maxMs && !settled; t += stepMs) {
    await flushAsync();
    if (settled) break;
    clock.advance(stepMs);
  }
  await flushAsync();
  if (!settled) throw new Error(`did not settle within ${maxMs} ms of fake time`);
  return value;
}
