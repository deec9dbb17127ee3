/**
 * Injected time for the client: poll cadence, backoff, TTL backstops and request deadlines
 * all go through a Clock so tests drive them with a fake one. Same shape as the engine's
 * Clock (this room may not import the engine).
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock. Timers stay referenced: a script awaiting a poll or a backoff must not see
 * Node exit underneath it (the engine's clock differs: its timers must never hold a server).
 */
export function createSystemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

/**
 * Wait `ms` on the clock. Resolves `true` when the time passed, `false` when `signal` fired
 * or `wake` was called first (a notification arrived, the user pressed refresh).
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): { done: Promise<boolean>; wake: () => void } {
  let wake!: () => void;
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
