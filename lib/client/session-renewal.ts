import { describeOutcome, type RequestOutcome } from './results';

/**
 * 2025-11-25 Streamable HTTP, session management: when the server answers HTTP 404 to a request
 * carrying `Mcp-Session-Id`, it no longer knows the session (it restarted, or ended it), and the
 * client MUST start a new session with a fresh `initialize` sent without a session id. Every
 * request (and the GET stream) that hit the 404 shares that one initialize.
 */

interface RenewalHooks {
  /** The session id the connection holds now. */
  current(): string | undefined;
  /** Forget the session: no id, no GET stream. */
  forget(): void;
  /** The handshake again (it opens the new session's GET stream). */
  initialize(): Promise<RequestOutcome>;
  warn(text: string): void;
}

/** The renewal of one connection. */
interface SessionRenewal {
  /** Start a new session after `stale` got a 404 (or join the renewal under way). */
  renew(stale: string): Promise<RequestOutcome>;
  /** The renewal under way, if any: a request waits for it rather than go out with no session id. */
  underway(): Promise<RequestOutcome> | undefined;
}

/** Renews the session once per loss, however many requests report it. */
export function createSessionRenewal(hooks: RenewalHooks): SessionRenewal {
  let renewing: Promise<RequestOutcome> | undefined;
  const renew = (stale: string): Promise<RequestOutcome> => {
    if (renewing) return renewing;
    const now = hooks.current();
    // Another request already renewed it: this one only needs to go again.
    if (now !== undefined && now !== stale) return Promise.resolve({ type: 'complete', result: {} });
    hooks.warn('the server no longer knows this session (HTTP 404: it restarted or ended it); starting a new session with initialize');
    hooks.forget();
    renewing = hooks.initialize().finally(() => {
      renewing = undefined;
    });
    return renewing;
  };
  return { renew, underway: () => renewing };
}

/**
 * What a request that got the 404 does once the session was renewed: go again (`undefined`) when
 * that is safe, else end with a failure that says what happened and what to do. The server never
 * ran it (it knew no such session), but a side-effecting call in a new session is the person's choice.
 */
export function afterRenewal(fresh: RequestOutcome, method: string, safe: boolean): RequestOutcome | undefined {
  if (fresh.type !== 'complete')
    return {
      type: 'failure',
      reason: 'session-lost',
      message: `the server no longer knows this session (HTTP 404), and a new initialize failed: ${describeOutcome(fresh)}`,
    };
  if (safe) return undefined;
  return {
    type: 'failure',
    reason: 'session-renewed',
    message: `the server no longer knew this session (HTTP 404: it restarted or ended it); a new session was started, and ${method} was not re-sent in it: send it again`,
  };
}
