import { isAllowedHost } from '../engine/guards';
import { sameToken } from './control-auth';
import { allowedHostsFromEnv, launchToken, TOKEN_COOKIE } from './launch';

/**
 * The gate in front of the web app's pages: the Host check against DNS rebinding on every page,
 * and the one-time exchange of the launch token in `?token=` for an HttpOnly cookie. `/mcp` and
 * `/api` do their own checks in the engine and the mock router.
 */

const PAGE_HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** A small self-contained error page (no app CSS: it is answered before routing). */
function errorPage(status: number, title: string, message: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Loupe</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#0b0f17;color:#e2e8f0}main{max-width:32rem;padding:2rem}h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#94a3b8}code{color:#e2e8f0}</style>
</head><body><main><h1>${status} · ${title}</h1><p>${message}</p></main></body></html>`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}

/** A Response that ends the page request (refusal, token exchange), or undefined to let it through. */
export function pageGate(request: Request): Response | undefined {
  if (!isAllowedHost(request.headers.get('host'), allowedHostsFromEnv())) {
    return errorPage(
      403,
      'Host not allowed',
      'Loupe answers only to loopback host names (localhost, 127.0.0.1, [::1]) and to the names listed in <code>LOUPE_ALLOWED_HOSTS</code>.',
    );
  }
  const url = new URL(request.url);
  const presented = url.searchParams.get('token');
  if (presented === null) return undefined;
  if (!sameToken(presented, launchToken())) {
    return errorPage(
      401,
      'Invalid token',
      'This access token does not match the running Loupe. Open the URL that <code>npm start</code> printed in your terminal; every launch has a new token.',
    );
  }
  url.searchParams.delete('token');
  // Next requires an absolute Location here; it rewrites a same-origin one to a relative path.
  return new Response(null, {
    status: 303,
    headers: {
      Location: url.toString(),
      'Set-Cookie': `${TOKEN_COOKIE}=${encodeURIComponent(presented)}; Path=/; HttpOnly; SameSite=Strict`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
