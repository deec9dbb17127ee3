import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAllowedHost } from '../engine/guards';
import { KEY_FRAGMENT, LINK_TTL_MS, presentedSessions, sessionCookie, type LaunchAccess } from './launch-access';
import { writeWebResponse } from './node-response';

/**
 * The gate in front of the pages (the static export, Next's dev server, the sandbox page): the
 * Host check against DNS rebinding on every request, and the exchange of the launch token in
 * `?token=` for a browser session (launch-access.ts): an HttpOnly cookie, and the session's
 * request key in the fragment of the redirect, which the page moves to its own storage
 * (lib/client/api-key.ts). A generated link works once. `/mcp` and `/api` do their own checks
 * in the engine and the mock router.
 */

/** What the gate compares a request with. */
interface PageGateOptions {
  /** This launch's token and sessions. */
  access: LaunchAccess;
  /** Host names accepted besides loopback (already normalized, see launch.ts). */
  allowedHosts?: readonly string[];
}

/** What the gate reads of a request: a web Request fits, and so does a node request's view. */
interface GateRequest {
  url: string;
  headers: { get(name: string): string | null };
}

/** A node:http request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

const PAGE_HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** A small self-contained error page (no app CSS: it is answered before any page). */
function errorPage(status: number, title: string, message: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Loupe</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#0b0f17;color:#e2e8f0}main{max-width:32rem;padding:2rem}h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#94a3b8}code{color:#e2e8f0}</style>
</head><body><main><h1>${status} · ${title}</h1><p>${message}</p></main></body></html>`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}

/** How to get a new link, said on every refusal. */
const NEW_LINK = 'Run <code>npx mcp-loupe link</code> (with the same <code>--data-dir</code> as the running Loupe) for a new sign-in link.';

/** The page for a `?token=` value that opens no session. */
function refusedLink(reason: 'invalid' | 'used' | 'expired' | 'control-token'): Response {
  if (reason === 'used')
    return errorPage(
      410,
      'Link already used',
      `This sign-in link works once and has been used. Open Loupe in the browser where you first opened it. ${NEW_LINK}`,
    );
  if (reason === 'expired')
    return errorPage(
      410,
      'Link expired',
      `This sign-in link was not opened within ${LINK_TTL_MS / 60_000} minutes of being made, so it no longer works. ${NEW_LINK}`,
    );
  if (reason === 'control-token')
    return errorPage(
      401,
      'Not a sign-in link',
      `This is the running Loupe's control token, for its command-line tools (<code>Authorization: Bearer</code>); it does not sign a browser in. ${NEW_LINK}`,
    );
  return errorPage(401, 'Invalid link', `This sign-in link does not belong to the running Loupe (every launch makes new ones). ${NEW_LINK}`);
}

/** A Response that ends the page request (refusal, token exchange), or undefined to let it through. */
function pageGate(request: GateRequest, options: PageGateOptions): Response | undefined {
  if (!isAllowedHost(request.headers.get('host'), options.allowedHosts)) {
    return errorPage(
      403,
      'Host not allowed',
      'Loupe answers only to loopback host names (localhost, 127.0.0.1, [::1]) and to the names listed in <code>LOUPE_ALLOWED_HOSTS</code>.',
    );
  }
  const url = new URL(request.url, 'http://loupe.invalid');
  const presented = url.searchParams.get('token');
  if (presented === null) return undefined;
  const exchanged = options.access.exchange(presented);
  url.searchParams.delete('token');
  const location = `/${url.pathname.replace(/^\/+/, '')}${url.search}`;
  if (!exchanged.ok && exchanged.reason === 'used' && presentedSessions(request.headers.get('cookie')).some((s) => options.access.known(s)))
    // This browser already holds a session: the link only brings it back to the page.
    return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
  if (!exchanged.ok) return refusedLink(exchanged.reason);
  // A relative Location, so the Host header never chooses where the browser goes; one leading
  // slash, so it cannot read as a protocol-relative URL (`//elsewhere`).
  return new Response(null, {
    status: 303,
    headers: {
      // The fragment never reaches a server, this one's logs included; the page takes it out at once.
      Location: `${location}#${KEY_FRAGMENT}=${exchanged.key}`,
      // Loupe speaks plain http (TLS, when any, ends in front of it), so no Secure and no `__Host-`.
      'Set-Cookie': sessionCookie(exchanged.session, false),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

/** The gate as seen from node:http: the request's path and headers, no body, no web Request. */
function gateView(req: IncomingMessage): GateRequest {
  return {
    url: req.url ?? '/',
    headers: {
      get: (name) => {
        const v = req.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
      },
    },
  };
}

/** A request listener that passes the gate first, then `listener`. */
export function withPageGate(listener: NodeListener, options: PageGateOptions): NodeListener {
  return (req, res) => {
    const answer = pageGate(gateView(req), options);
    if (!answer) return listener(req, res);
    void writeWebResponse(answer, res).catch(() => res.destroy());
  };
}
