import { isAllowedHost } from '../engine/guards';

/**
 * The gate in front of the control API: the Host must be a loopback name (or allowed), an
 * Origin, when sent, must be this very origin, and the launch token must be presented. The
 * cookie is SameSite=Strict, and a page on another localhost port is same-site, so the Origin
 * is compared exactly rather than by "is loopback".
 */

/** What the gate reads of a request: a web Request or the engine's HttpInput both fit. */
interface AccessRequest {
  method: string;
  headers: { get(name: string): string | null };
}

/** The launch token a request presents: `Authorization: Bearer`, `X-Loupe-Token` or the `loupe_token` cookie. */
function presentedToken(req: AccessRequest): string | undefined {
  const auth = req.headers.get('authorization');
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  if (m) return m[1];
  const header = req.headers.get('x-loupe-token');
  if (header) return header;
  const cookie = req.headers.get('cookie') ?? '';
  const encoded = /(?:^|;\s*)loupe_token=([^;]+)/.exec(cookie)?.[1];
  if (!encoded) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/** Constant-time string comparison. */
export function sameToken(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether an Origin header names exactly the origin the request was sent to. */
function isSameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

/** A refusal (status and message) or undefined when the request may use the control API. */
export function checkControlAccess(req: AccessRequest, token: string, allowedHosts: readonly string[] = []): { status: number; error: string } | undefined {
  const host = req.headers.get('host');
  if (!isAllowedHost(host, allowedHosts)) return { status: 403, error: 'Host is not a loopback name or an allowed host' };
  const origin = req.headers.get('origin');
  if (origin !== null && !isSameOrigin(origin, host!))
    return { status: 403, error: 'Origin is not allowed: the control API answers only pages of this origin' };
  if (!sameToken(presentedToken(req), token))
    return { status: 401, error: 'A valid Loupe token is required (Authorization: Bearer <token>, or open the URL printed at start)' };
  // The cookie is an ambient credential: a state-changing call that relies on it must say where
  // it comes from (browsers always send Origin on POST/PUT/DELETE), so a forged request cannot ride it.
  const explicit = req.headers.get('authorization') !== null || req.headers.get('x-loupe-token') !== null;
  if (origin === null && !explicit && req.method !== 'GET' && req.method !== 'HEAD') {
    return { status: 403, error: 'A state-changing request authenticated by cookie must carry an Origin header' };
  }
  return undefined;
}

/** Journal entries as the control API shows them: the launch token never leaves in a Cookie header. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  if (!headers.cookie || !/loupe_token=/.test(headers.cookie)) return headers;
  return { ...headers, cookie: headers.cookie.replace(/(^|;\s*)loupe_token=[^;]*/g, '$1loupe_token=<redacted>') };
}
