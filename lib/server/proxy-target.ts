import type { HttpInput } from '../engine/http-types';

/**
 * Where the proxy may forward: http(s) URLs without credentials, and never Loupe's own control
 * routes (a target on this server's host and port whose path starts with /api), so a page cannot
 * use the proxy to reach the API with the proxy's privileges.
 */

const LOOPBACK =
  /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|\[::1\]|\[::\]|0\.0\.0\.0|\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d+\.\d+\.\d+)\]|\[::ffff:0:0\]|0)$/i;

function portOf(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

/** Whether `target` is this server's own /api (by host name, loopback alias, and port). */
export function isOwnControlRoute(target: URL, self: URL): boolean {
  let path = target.pathname.replace(/\/{2,}/g, '/');
  try {
    path = decodeURIComponent(path);
  } catch {
    /* undecodable: compare as is */
  }
  path = path.toLowerCase();
  if (path !== '/api' && !path.startsWith('/api/')) return false;
  if (portOf(target) !== portOf(self)) return false;
  const a = target.hostname.toLowerCase();
  const b = self.hostname.toLowerCase();
  return a === b || (LOOPBACK.test(a) && LOOPBACK.test(b));
}

/** The target to forward to, or why not (status, the `x-loupe-proxy-error` code, message). */
type TargetCheck = { ok: true; target: URL } | { ok: false; status: number; code: string; error: string };

/** Check an envelope's `url` for a proxy request received as `req`. */
export function checkTarget(url: string, req: Pick<HttpInput, 'url' | 'headers'>): TargetCheck {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, status: 400, code: 'url', error: `Not a URL: ${url}` };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return { ok: false, status: 400, code: 'scheme', error: `The proxy only speaks http and https, not ${target.protocol}` };
  if (target.username || target.password)
    return { ok: false, status: 400, code: 'url', error: 'Credentials in the URL are not forwarded; send an Authorization header instead' };
  const self = new URL(req.url);
  const hostHeader = req.headers.get('host');
  if (hostHeader) self.host = hostHeader;
  if (isOwnControlRoute(target, self)) return { ok: false, status: 403, code: 'self', error: "The proxy does not forward to Loupe's own /api routes" };
  return { ok: true, target };
}
