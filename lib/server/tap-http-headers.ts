/**
 * The headers the HTTP tap relays and records: every end-to-end header, names as sent; the
 * hop-by-hop ones belong to each connection and never cross.
 */

/** Hop-by-hop headers (RFC 9110 §7.6.1) never cross; Host names the upstream instead. */
const HOP = /^(connection|keep-alive|transfer-encoding|te|trailer|trailers|upgrade|proxy-.*|host)$/i;

/** Raw header pairs minus hop-by-hop ones and any a Connection header lists, names as sent. */
export function endToEnd(raw: readonly string[]): string[] {
  const listed = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === 'connection') for (const n of raw[i + 1]!.split(',')) listed.add(n.trim().toLowerCase());
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (!HOP.test(name) && !listed.has(name.toLowerCase())) out.push(name, raw[i + 1]!);
  }
  return out;
}

/** Lower-case name → value (repeated headers joined) for the observer's frames. */
export function record(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    const k = pairs[i]!.toLowerCase();
    out[k] = out[k] === undefined ? pairs[i + 1]! : `${out[k]}, ${pairs[i + 1]!}`;
  }
  return out;
}
