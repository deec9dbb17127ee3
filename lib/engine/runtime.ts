/** Injected time, ids and randomness, so lifecycles can be driven by a fake clock in tests. */
import { createSystemClock, type Clock } from '../shared/clock';

export type { Clock } from '../shared/clock';

/** Where task ids and requestState nonces come from (fixed in tests). */
export interface IdSource {
  /** A task id with at least 128 random bits, never beginning with "-" (a command line would read it as an option). */
  taskId(): string;
  /** A one-time nonce for requestState. */
  nonce(): string;
}

/** The engine's real clock: timers are unref'd so they never keep a server process alive. */
export function createServerClock(): Clock {
  return createSystemClock({ unrefTimers: true });
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

/**
 * Cryptographically random ids: 160-bit task ids, 128-bit nonces. A task id is "t" and then its
 * base64url: 1 in 64 bare ones began with "-", which `mcp-loupe task get ID` took for an option.
 * The letter keeps every random bit (redrawing would drop some).
 */
export function createRandomIds(): IdSource {
  return { taskId: () => `t${randomToken(20)}`, nonce: () => randomToken(16) };
}

export { base64url };
