/** Transport-level guards shared by the MCP endpoint and the control API (DNS rebinding, Origin). */

/** Strip the port from a Host header value (handles `[::1]:3000`). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a host name is loopback (`localhost`, `*.localhost`, 127.0.0.0/8, ::1). */
function isLoopbackName(name: string): boolean {
  if (LOOPBACK.has(name) || name.endsWith('.localhost')) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Host check: loopback names, or an explicit allow-list of host names. */
export function isAllowedHost(host: string | null, allowedHosts: readonly string[] = []): boolean {
  // A name or a bracketed IPv6 literal with at most a numeric port, or a bare IPv6 literal (`::1`,
  // a --host value). `127.0.0.1:80.evil.test` and `localhost:1@evil.test` are no Host a browser
  // sends, and hostName would read them as loopback.
  if (!host || !/^(?:(?:\[[0-9a-f:.]+\]|[^\s:[\]@/\\#?]+)(?::\d{1,5})?|[0-9a-f.]*:[0-9a-f.]*:[0-9a-f:.]*)$/i.test(host.trim())) return false;
  const name = hostName(host);
  return isLoopbackName(name) || allowedHosts.map((h) => h.toLowerCase()).includes(name);
}

/** Origin check: absent is fine here (callers decide about state changes); present must be loopback or allowed. */
export function isAllowedOrigin(origin: string | null, host: string | null, allowedOrigins: readonly string[] = []): boolean {
  if (origin === null) return true;
  if (origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (allowedOrigins.includes(url.origin)) return true;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const name = url.hostname.toLowerCase();
  const bracketed = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
  if (!isLoopbackName(bracketed)) return false;
  // Same machine: a loopback origin is accepted only when the request's host is loopback too.
  return host === null || isLoopbackName(hostName(host));
}
