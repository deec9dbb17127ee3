import { PROXY_CHALLENGE_HEADER } from '../protocol/loupe-api';

/**
 * Which headers cross the proxy: hop-by-hop ones (RFC 9110 §7.6.1, and any a Connection header
 * lists) never do, in either direction; nor do those the proxy recomputes or must not relay.
 */

const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
];
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'content-length', 'expect']);
// fetch already decoded the body; a Set-Cookie would land on Loupe's own origin, and a
// Clear-Site-Data would wipe it (the session cookie and the page's request key).
const NOT_RELAYED = new Set([...HOP_BY_HOP, 'content-length', 'content-encoding', 'set-cookie', 'clear-site-data']);
/** Loupe's own headers (`x-loupe-proxy-error`) mean something only when Loupe sets them. */
const OWN_PREFIX = 'x-loupe-';

/** Names listed in a Connection header are hop-by-hop too. */
function connectionListed(value: string | null | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The envelope's headers to send upstream; throws on a header `Headers` rejects. */
export function forwardedHeaders(envelope: Record<string, string>): Headers {
  const headers = new Headers();
  const listed = connectionListed(Object.entries(envelope).find(([k]) => k.toLowerCase() === 'connection')?.[1]);
  for (const [k, v] of Object.entries(envelope)) if (!NOT_FORWARDED.has(k.toLowerCase()) && !listed.has(k.toLowerCase())) headers.append(k, v);
  return headers;
}

/** A challenge the browser would answer with its own sign-in dialog (any of the header's challenges). */
const BROWSER_ANSWERED = /(?:^|,)\s*(?:basic|digest|ntlm|negotiate)(?:\s|,|$)/i;

/** The upstream's headers to relay to the client, never cached. */
export function relayedHeaders(upstream: Headers, status: number): Record<string, string> {
  const out: Record<string, string> = {};
  const dropped = connectionListed(upstream.get('connection'));
  upstream.forEach((v, k) => {
    if (!NOT_RELAYED.has(k) && !dropped.has(k) && !k.startsWith(OWN_PREFIX)) out[k] = v;
  });
  const challenge = out['www-authenticate'];
  if (status === 401 && challenge !== undefined && BROWSER_ANSWERED.test(challenge)) {
    delete out['www-authenticate'];
    out[PROXY_CHALLENGE_HEADER] = challenge;
  }
  out['cache-control'] = 'no-store';
  return out;
}
