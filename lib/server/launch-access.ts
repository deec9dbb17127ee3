import { randomToken } from '../engine/runtime';

/**
 * Who may use this launch's API from a browser. A sign-in link carries a one-time value (minted
 * by {@link LaunchAccess.mintLink}, never the launch token: a link is seen in terminals, browser
 * history and the opener's command line, and the token is the CLI's standing credential). It is
 * exchanged once for a session: an HttpOnly cookie naming it, plus a request key the page keeps
 * in its own origin's storage and sends as `X-Loupe-Request`. Browsers send a host's cookies to
 * every port of that host, so another server on 127.0.0.1 receives the cookie; it never receives
 * the key (it only travels in the URL fragment of the exchange and in request headers to this
 * origin), so the cookie alone is worth nothing. Sessions live in memory: a restart ends them all.
 */

/** The session cookie over plain http. */
const SESSION_COOKIE = 'loupe_session';
/** Over https the `__Host-` name pins the cookie to this host and `Path=/` (browsers require Secure for it). */
const HOST_SESSION_COOKIE = '__Host-loupe_session';
/** Fragment parameter that carries the request key from the exchange to the page. */
export const KEY_FRAGMENT = 'loupe-key';
/** More sessions than anyone opens by hand; the oldest goes first. */
const MAX_SESSIONS = 64;
/** How long an unused sign-in link stays good: long enough to switch to the browser, short enough to go stale in a scrollback. */
export const LINK_TTL_MS = 10 * 60_000;
/** Unused links kept at once (each `mcp-loupe link` mints one); the oldest goes first. */
const MAX_LINKS = 32;
/** Used and expired links remembered so their page can say so rather than "invalid". */
const MAX_SPENT = 256;

/** Constant-time string comparison. */
export function sameToken(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

type Exchange = { ok: true; session: string; key: string } | { ok: false; reason: 'invalid' | 'used' | 'expired' | 'control-token' };

/** A launch's token and the browser sessions it was exchanged for. */
export interface LaunchAccess {
  readonly token: string;
  /** A new one-time value for a `?token=` link (the token itself when it is the user's reusable one). */
  mintLink(): string;
  /** Trade the value of a `?token=` link for a new session; a link answers `used` the second time. */
  exchange(presented: string): Exchange;
  /** Whether `session` is live and `key` is its request key. */
  verify(session: string | undefined, key: string | undefined): boolean;
  /** Whether `session` names a live session (the key is checked by {@link verify}). */
  known(session: string | undefined): boolean;
}

interface LaunchAccessOptions {
  /**
   * Let the token itself serve as a `?token=` link for the whole launch. Only for a token the user
   * chose (LOUPE_TOKEN): it is their standing credential; minted links work once.
   */
  reusableLink?: boolean;
  /** The clock (tests move it past {@link LINK_TTL_MS}). */
  now?: () => number;
}

/** Drop the oldest entries of a Map beyond `max` (Maps keep insertion order). */
function bound<K, V>(map: Map<K, V>, max: number): void {
  while (map.size > max) map.delete(map.keys().next().value as K);
}

/** Create the access state of one launch. */
export function createLaunchAccess(token: string, options: LaunchAccessOptions = {}): LaunchAccess {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, string>();
  /** Unused links and when they stop working. */
  const links = new Map<string, number>();
  const spent = new Map<string, 'used' | 'expired'>();
  const open = (): Exchange => {
    const session = randomToken(32);
    const key = randomToken(32);
    sessions.set(session, key);
    bound(sessions, MAX_SESSIONS);
    return { ok: true, session, key };
  };
  return {
    token,
    mintLink() {
      if (options.reusableLink) return token;
      const link = randomToken(24);
      links.set(link, now() + LINK_TTL_MS);
      bound(links, MAX_LINKS);
      return link;
    },
    exchange(presented) {
      if (options.reusableLink && sameToken(presented, token)) return open();
      // Links are random and looked up by value; the map lookup leaks nothing a guess could use.
      const expires = links.get(presented);
      if (expires !== undefined) {
        links.delete(presented);
        const state = now() < expires ? undefined : 'expired';
        spent.set(presented, state ?? 'used');
        bound(spent, MAX_SPENT);
        return state ? { ok: false, reason: state } : open();
      }
      const was = spent.get(presented);
      if (was) return { ok: false, reason: was };
      if (sameToken(presented, token)) return { ok: false, reason: 'control-token' };
      return { ok: false, reason: 'invalid' };
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

/**
 * Every session a Cookie header names (either name), in order. Not just the first: cookies are not
 * scoped by port, so a page on another port of this host name can set a `loupe_session` of its own
 * with a longer Path, which the browser then sends before ours; reading only the first would lock
 * the user out. Callers pick the one that is live.
 */
export function presentedSessions(cookieHeader: string | null): string[] {
  return [...(cookieHeader ?? '').matchAll(/(?:^|;)\s*(?:__Host-)?loupe_session=([A-Za-z0-9_-]+)\s*(?=;|$)/g)].map((m) => m[1] ?? '');
}
