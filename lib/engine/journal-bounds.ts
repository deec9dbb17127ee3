/**
 * Size limits for journal payloads. Bodies keep their shape (so grading can still read method,
 * ids, task ids and requestState); only oversized parts are replaced by visible markers.
 */

/** Limits applied to one payload (a request body, a response body or one SSE frame). */
export interface PayloadLimits {
  /** Longest string kept whole, in characters. */
  maxString: number;
  /** Characters of a payload's strings kept in total before the rest become markers. */
  maxChars: number;
  /** Items kept per array and keys per object. */
  maxItems: number;
  /** Nesting kept before a subtree becomes a marker. */
  maxDepth: number;
}

/** How much of a payload the journal keeps by default (the rest becomes truncation markers). */
export const DEFAULT_PAYLOAD_LIMITS: PayloadLimits = { maxString: 16_384, maxChars: 262_144, maxItems: 500, maxDepth: 24 };

/** Prefix of every truncation marker, so a viewer can highlight them. */
export const TRUNCATED = '…[truncated';

/** FNV-1a over UTF-16 code units: a cheap fingerprint, so equal strings keep equal markers. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** Shorten a string to `keep` characters plus a marker naming its full length and fingerprint. */
function truncateString(text: string, keep: number): string {
  return `${text.slice(0, Math.max(0, keep))}${TRUNCATED}: ${text.length} chars, fnv1a ${fingerprint(text)}]`;
}

/** Request headers with values over `max` characters shortened; the caller's (fresh) record itself when none is. */
export function boundHeaders(headers: Record<string, string>, max: number): Record<string, string> {
  let out = headers;
  for (const k in headers) {
    const v = headers[k] ?? '';
    if (v.length <= max) continue;
    if (out === headers) out = { ...headers };
    out[k] = truncateString(v, 256);
  }
  return out;
}

/**
 * Approximate size of a header record, in characters, or -1 when a value is longer than `max`
 * (one walk for the common case, where {@link boundHeaders} would change nothing).
 */
export function headerChars(headers: Record<string, string>, max = Number.POSITIVE_INFINITY): number {
  let chars = 0;
  for (const k in headers) {
    const length = headers[k]?.length ?? 0;
    if (length > max) return -1;
    chars += k.length + length + 4;
  }
  return chars;
}

/** Result of {@link boundPayload}. */
interface BoundedPayload {
  value: unknown;
  truncated: boolean;
  /** Approximate serialized size of the kept value, in characters. */
  chars: number;
}

/** Copy a JSON value within the limits. Values that are not JSON (functions, cycles) become markers. */
export function boundPayload(value: unknown, limits: PayloadLimits = DEFAULT_PAYLOAD_LIMITS): BoundedPayload {
  let budget = limits.maxChars;
  let truncated = false;
  let chars = 0;
  const seen = new Set<object>();

  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v === 'number' || typeof v === 'boolean') {
      chars += 6;
      return v;
    }
    if (typeof v === 'string') {
      const keep = Math.min(limits.maxString, budget);
      if (v.length > keep) {
        truncated = true;
        const s = truncateString(v, Math.min(keep, 256));
        budget = Math.max(0, budget - Math.min(keep, 256));
        chars += s.length + 2;
        return s;
      }
      budget -= v.length;
      chars += v.length + 2;
      return v;
    }
    if (typeof v !== 'object') {
      truncated = true;
      return `${TRUNCATED}: not JSON (${typeof v})]`;
    }
    if (seen.has(v) || depth >= limits.maxDepth) {
      truncated = true;
      return `${TRUNCATED}: ${seen.has(v) ? 'cycle' : 'too deep'}]`;
    }
    seen.add(v);
    try {
      if (Array.isArray(v)) {
        const out = v.slice(0, limits.maxItems).map((x) => walk(x, depth + 1));
        if (v.length > limits.maxItems) {
          truncated = true;
          out.push(`${TRUNCATED}: ${v.length - limits.maxItems} more items]`);
        }
        chars += 2 + out.length;
        return out;
      }
      const out: Record<string, unknown> = {};
      const keys = Object.keys(v);
      for (const k of keys.slice(0, limits.maxItems)) {
        chars += k.length + 4;
        out[k] = walk((v as Record<string, unknown>)[k], depth + 1);
      }
      if (keys.length > limits.maxItems) {
        truncated = true;
        out[TRUNCATED] = `${keys.length - limits.maxItems} more keys`;
      }
      chars += 2;
      return out;
    } finally {
      seen.delete(v);
    }
  };

  const bounded = walk(value, 0);
  return { value: bounded, truncated, chars };
}
