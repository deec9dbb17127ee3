/** Injected time, ids and randomness, so lifecycles can be driven by a fake clock in tests. */

/** Timer handle returned by {@link Clock.setTimeout}. */
export type TimerHandle = unknown;

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface IdSource {
  /** A task id with at least 128 random bits. */
  taskId(): string;
  /** A one-time nonce for requestState. */
  nonce(): string;
}

/** The real clock. Timers are unref'd where the host supports it so they never keep a process alive. */
export function createSystemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      const t = setTimeout(fn, Math.max(0, ms)) as unknown as { unref?: () => void };
      t.unref?.();
      return t;
    },
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Random bytes as base64url text. */
export function randomToken(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return base64url(buf);
}

/** Cryptographically random ids: 160-bit task ids, 128-bit nonces. */
export function createRandomIds(): IdSource {
  return { taskId: () => randomToken(20), nonce: () => randomToken(16) };
}

export { base64url };
