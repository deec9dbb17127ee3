import { randomToken } from '../engine/runtime';

/**
 * Who may use this launch's API from a browser. The launch token is exchanged once for a
 * session: an HttpOnly cookie naming it, plus a request key the page keeps in its own origin's
 * storage and sends as `X-Loupe-Request`. Browsers send a host's cookies to every port of that
 * host, so another server on 127.0.0.1 receives the cookie; it never receives the key (it only
 * travels in the URL fragment of the exchange and in request headers to this origin), so the
 * cookie alone is worth nothing. Sessions live in memory: a restart ends them all.
 */

/** The session cookie over plain http. */
const SESSION_COOKIE = 'loupe_session';
/** Over https the `__Host-` name pins the cookie to this host and `Path=/` (browsers require Secure for it). */
const HOST_SESSION_COOKIE = '__Host-loupe_session';
/** Fragment parameter that carries the request key from the exchange to the page. */
export const KEY_FRAGMENT = 'loupe-key';
/** More sessions than anyone opens by hand; the oldest goes first. */
const MAX_SESSIONS = 64;

/** Constant-time string comparison. */
export function sameToken(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

type Exchange = { ok: true; session: string; key: string } | { ok: false; reason: 'invalid' | 'used' };

/** A launch's token and the browser sessions it was exchanged for. */
export interface LaunchAccess {
  readonly token: string;
  /** Trade the token from a `?token=` link for a new session; a single-use link answers `used` the second time. */
  exchange(presented: string): Exchange;
  /** Whether `session` is live and `key` is its request key. */
  verify(session: string | undefined, key: string | undefined): boolean;
  /** Whether `session` names a live session (the key is checked by {@link verify}). */
  known(session: string | undefined): boolean;
}

interface LaunchAccessOptions {
  /**
   * Keep the `?token=` link usable for the whole launch. Only for a token the user chose
   * (LOUPE_TOKEN): it is their standing credential; a generated link works once.
   */
  reusableLink?: boolean;
}

/** Create the access state of one launch. */
export function createLaunchAccess(token: string, options: LaunchAccessOptions = {}): LaunchAccess {
  const sessions = new Map<string, string>();
  let linkUsed = false;
  return {
    token,
    exchange(presented) {
      if (!sameToken(presented, token)) return { ok: false, reason: 'invalid' };
      if (linkUsed && !options.reusableLink) return { ok: false, reason: 'used' };
      linkUsed = true;
      const session = randomToken(32);
      const key = randomToken(32);
      sessions.set(session, key);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      return { ok: true, session, key };
    },
    verify(session, key) {
      if (session === undefined || key === undefined) return false;
      const expected = sessions.get(session);
      return expected !== undefined && sameToken(key, expected);
    },
    known: (session) => session !== undefined && sessions.has(session),
  };
}

/** The cookie name for a request's scheme. */
function sessionCookieName(secure: boolean): string {
  return secure ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

/** The `Set-Cookie` value of a new session. */
export function sessionCookie(session: string, secure: boolean): string {
  return `${sessionCookieName(secure)}=${session}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The session a Cookie header names (either name), or undefined. */
export function presentedSession(cookieHeader: string | null): string | undefined {
  const m = /(?:^|;\s*)(?:__Host-)?loupe_session=([A-Za-z0-9_-]+)(?:;|$)/.exec(cookieHeader ?? '');
  return m?.[1];
}
