import { hostName, isAllowedHost } from '../engine/guards';
import { randomToken } from '../engine/runtime';
import { sameToken } from '../server/mock-router';

/**
 * Request interception for the Next app (Next 16 `proxy.ts`): the Host check against DNS
 * rebinding on every page, and the one-time exchange of the launch token in `?token=` for an
 * HttpOnly cookie. `/mcp` and `/api` do their own checks in the engine and the mock router.
 */

/** Name of the cookie that carries the launch token; the mock router reads the same name. */
export const TOKEN_COOKIE = 'loupe_token';

/**
 * The per-launch token: `LOUPE_TOKEN` (set by `npm start`), or one generated on first use and
 * kept in `process.env` so the proxy and the route handlers of this process agree on it.
 */
export function launchToken(): string {
  const fromEnv = process.env.LOUPE_TOKEN;
  if (fromEnv) return fromEnv;
  const token = randomToken(24);
  process.env.LOUPE_TOKEN = token;
  // Only reached under `next dev` or a bare `next start`: the console is the user's own terminal.
  console.log(`Loupe: LOUPE_TOKEN is not set; this process generated one. Open /?token=${token}`);
  return token;
}

/** Extra host names allowed besides loopback, from the comma-separated `LOUPE_ALLOWED_HOSTS`. */
export function allowedHostsFromEnv(): string[] {
  return (process.env.LOUPE_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
    .map(hostName);
}

const PAGE_HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** A small self-contained error page (no app CSS: it is answered before routing). */
function errorPage(status: number, title: string, message: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Loupe</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#0b0f17;color:#e2e8f0}main{max-width:32rem;padding:2rem}h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#94a3b8}code{color:#e2e8f0}</style>
</head><body><main><h1>${status} · ${title}</h1><p>${message}</p></main></body></html>`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}

/** The proxy function: a Response ends the request, undefined lets it through. */
export function toNextProxy(): (request: Request) => Response | undefined {
  return (request) => {
    if (!isAllowedHost(request.headers.get('host'), allowedHostsFromEnv())) {
      return errorPage(403, 'Host not allowed', 'Loupe answers only to loopback host names (localhost, 127.0.0.1, [::1]) and to the names listed in <code>LOUPE_ALLOWED_HOSTS</code>.');
    }
    const url = new URL(request.url);
    const presented = url.searchParams.get('token');
    if (presented === null) return undefined;
    if (!sameToken(presented, launchToken())) {
      return errorPage(401, 'Invalid token', 'This access token does not match the running Loupe. Open the URL that <code>npm start</code> printed in your terminal; every launch has a new token.');
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
  };
}
