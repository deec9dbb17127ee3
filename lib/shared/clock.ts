/**
 * Injected time. The engine and the client both run on a Clock, so task lifecycles, poll
 * cadence and backoff are driven by a fake one in tests.
 */

/** Timer handle returned by {@link Clock.setTimeout}. */
type TimerHandle = unknown;

/** Time and timers; the engine and the client never read the wall clock directly. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

interface SystemClockOptions {
  /**
   * Unref every timer so it never keeps the process alive. Servers want this (a pending task
   * step must not hold a mock open); a script awaiting a poll or a backoff does not.
   */
  unrefTimers?: boolean;
}

/** The real clock. */
export function createSystemClock(options: SystemClockOptions = {}): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      const t = setTimeout(fn, Math.max(0, ms)) as unknown as { unref?: () => void };
      if (options.unrefTimers) t.unref?.();
      return t;
    },
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

/**
 * Wait `ms` on the clock. `done` resolves `true` when the time passed, `false` when `signal`
 * fired or `wake` was called first (a notification arrived, the user pressed refresh).
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): { done: Promise<boolean>; wake: () => void } {
  let wake: (() => void) | undefined;
  const done = new Promise<boolean>((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => finish(false);
    const handle = clock.setTimeout(() => finish(true), ms);
    function finish(elapsed: boolean) {
      clock.clearTimeout(handle);
      signal?.removeEventListener('abort', onAbort);
      resolve(elapsed);
    }
    wake = () => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return { done, wake: () => wake?.() };
}
