/**
 * Where the MCP Apps sandbox proxy lives: the same Loupe server under its other loopback name.
 * An inspector on http://127.0.0.1:3000 frames http://localhost:3000/sandbox/proxy.html and
 * vice versa: a different origin (so the view can never reach the inspector's DOM, cookies or
 * storage) without a second port, so it works behind the same TLS and port as the inspector.
 * The inspector picks the sandbox origin with this pairing and the sandbox page admits as its
 * embedder only the origin that pairs with its own (lib/server/sandbox-proxy.ts), so both sides
 * read it from this one file.
 */

/** The other loopback name for a host name, or undefined when it has none. */
export function otherLoopbackName(hostname: string): string | undefined {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return '127.0.0.1';
  // IPv6 literals cannot be named in frame-ancestors, so [::1] pairs with a name, never the reverse.
  if (h === '[::1]' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return 'localhost';
  return undefined;
}

/** The sandbox origin for an inspector origin, or undefined when the inspector is not on a loopback name. */
export function sandboxOriginFor(inspectorOrigin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(inspectorOrigin);
  } catch {
    return undefined;
  }
  const other = otherLoopbackName(url.hostname);
  if (!other) return undefined;
  return `${url.protocol}//${other}${url.port ? `:${url.port}` : ''}`;
}
