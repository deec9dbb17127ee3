/**
 * The `WWW-Authenticate` header of a 401 or 403 (RFC 7235 §4.1, RFC 6750 §3, RFC 9728 §5.1):
 * the Bearer challenge's `resource_metadata`, `scope` and `error`. A header may carry several
 * challenges, and auth-params may be quoted strings with escapes, so it is tokenised rather
 * than split on commas.
 */

/** The parameters of the Bearer challenge, lower-cased names. */
export interface BearerChallenge {
  resourceMetadata?: string;
  /** Space-separated scopes the operation needs (authoritative for it). */
  scope?: string;
  error?: string;
  errorDescription?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/** Every challenge of a header as `{ scheme, params }`, in order. */
function parseChallenges(header: string): { scheme: string; params: Record<string, string> }[] {
  const out: { scheme: string; params: Record<string, string> }[] = [];
  let rest = header.trim();
  let current: { scheme: string; params: Record<string, string> } | undefined;
  while (rest.length) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (!name) break;
    rest = rest.slice(name.length);
    const afterSpace = rest.replace(/^\s+/, '');
    if (afterSpace.startsWith('=') && current) {
      // name=value (token or quoted string)
      rest = afterSpace.slice(1).replace(/^\s+/, '');
      let value = '';
      if (rest.startsWith('"')) {
        let i = 1;
        for (; i < rest.length && rest[i] !== '"'; i++) value += rest[i] === '\\' ? (rest[++i] ?? '') : rest[i];
        rest = rest.slice(i + 1);
      } else {
        value = /^[^,\s]*/.exec(rest)?.[0] ?? '';
        rest = rest.slice(value.length);
      }
      current.params[name.toLowerCase()] = value;
    } else {
      // A new scheme (token68 forms are skipped: Bearer never uses them for its params).
      current = { scheme: name.toLowerCase(), params: {} };
      out.push(current);
      rest = afterSpace;
    }
  }
  return out;
}

/** The Bearer challenge of a `WWW-Authenticate` value, or undefined when there is none. */
export function bearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  if (!header) return undefined;
  const bearer = parseChallenges(header).find((c) => c.scheme === 'bearer');
  if (!bearer) return undefined;
  const p = bearer.params;
  return {
    ...(p.resource_metadata ? { resourceMetadata: p.resource_metadata } : {}),
    ...(p.scope !== undefined ? { scope: p.scope } : {}),
    ...(p.error ? { error: p.error } : {}),
    ...(p.error_description ? { errorDescription: p.error_description } : {}),
  };
}

/** Split a space-separated scope string into its distinct scopes, in order. */
export function scopeList(scope: string | undefined): string[] {
  return [...new Set((scope ?? '').split(/\s+/).filter(Boolean))];
}
