import { isAllowedHost } from '../engine/guards';

/**
 * `GET /healthz` on every server Loupe runs (the app server, `mcp-loupe mock`, `mcp-loupe
 * replay`): a liveness answer for scripts and process managers that needs no token. It still
 * checks the Host, like every other route, so a rebinding page learns nothing from it either.
 */

/** The health route's path. */
export const HEALTH_PATH = '/healthz';

/** The answer to a request for {@link HEALTH_PATH}; undefined for a method this route does not take. */
export function healthResponse(request: Request, allowedHosts: readonly string[] = []): Response | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  if (!isAllowedHost(request.headers.get('host'), allowedHosts)) {
    return new Response(JSON.stringify({ error: 'Host is not a loopback name or an allowed host' }), { status: 403, headers });
  }
  return new Response(request.method === 'HEAD' ? null : JSON.stringify({ status: 'ok' }), { status: 200, headers });
}
