import { isAllowedHost } from '../engine/guards';
import { LOUPE_REQUEST_HEADER } from '../protocol/loupe-api';
import { presentedSessions, sameToken, type LaunchAccess } from './launch-access';

/**
 * The gate in front of the control API and the proxies: the Host must be a loopback name (or
 * allowed), an Origin, when sent, must be this very origin, and the caller must present either
 * the launch token explicitly (`Authorization: Bearer`, `X-Loupe-Token`: the CLI) or a browser
 * session: its cookie and, in `X-Loupe-Request`, its request key (launch-access.ts). A form, a
 * navigation or a redirect can carry the cookie but never that header, and a server on another
 * port of the same host receives the cookie but never the key. The cookie is SameSite=Strict,
 * and a page on another localhost port is same-site, so the Origin is compared exactly rather
 * than by "is loopback".
 */

/** What the gate reads of a request: a web Request or the engine's HttpInput both fit. */
interface AccessRequest {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
}

/** A refusal: the HTTP status and why. */
type Denied = { status: number; error: string };

/** The launch token presented explicitly, as a bearer or in `X-Loupe-Token`. */
function explicitToken(req: AccessRequest): string | undefined {
  const auth = req.headers.get('authorization');
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1] ?? req.headers.get('x-loupe-token') ?? undefined;
}

/** The request key: the header, or (GET only: an EventSource cannot send headers) the `key` query parameter. */
function requestKey(req: AccessRequest): string | undefined {
  const header = req.headers.get(LOUPE_REQUEST_HEADER);
  if (header !== null) return header;
  if (req.method !== 'GET') return undefined;
  try {
    return new URL(req.url, 'http://loupe.invalid').searchParams.get('key') ?? undefined;
  } catch {
    return undefined;
  }
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
export function checkControlAccess(req: AccessRequest, access: LaunchAccess, allowedHosts: readonly string[] = []): Denied | undefined {
  const host = req.headers.get('host');
  if (!isAllowedHost(host, allowedHosts)) return { status: 403, error: 'Host is not a loopback name or an allowed host' };
  const origin = req.headers.get('origin');
  if (origin !== null && !isSameOrigin(origin, host!))
    return { status: 403, error: 'Origin is not allowed: the control API answers only pages of this origin' };
  const explicit = explicitToken(req);
  if (explicit !== undefined) {
    return sameToken(explicit, access.token)
      ? undefined
      : { status: 401, error: 'A valid Loupe token is required (Authorization: Bearer <token>, or open the URL printed at start)' };
  }
  // Another port's page may have planted a loupe_session of its own beside ours (launch-access.ts).
  const key = requestKey(req);
  const sessions = presentedSessions(req.headers.get('cookie'));
  const session = sessions.find((s) => access.verify(s, key)) ?? sessions.find((s) => access.known(s));
  if (!access.known(session))
    return { status: 401, error: 'A valid Loupe token is required (Authorization: Bearer <token>, or open the URL printed at start)' };
  if (!access.verify(session, key))
    return { status: 401, error: `The session cookie is accepted only with its request key in ${LOUPE_REQUEST_HEADER} (sent by Loupe's own pages)` };
  // Browsers always send Origin on POST/PUT/DELETE: a state-changing call without one did not come from a page of this origin.
  if (origin === null && req.method !== 'GET' && req.method !== 'HEAD')
    return { status: 403, error: 'A state-changing request authenticated by cookie must carry an Origin header' };
  return undefined;
}

/** Journal entries as the control API shows them: a session cookie never leaves in a Cookie header. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const cookie = headers.cookie;
  if (!cookie || !/loupe_(?:token|session)=/.test(cookie)) return headers;
  return { ...headers, cookie: cookie.replace(/(^|;\s*)((?:__Host-)?loupe_(?:token|session))=[^;]*/g, '$1$2=<redacted>') };
}
