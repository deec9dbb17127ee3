import { digest } from './request-state';

/**
 * Who is calling: anonymous without a bearer token, else the token itself (its digest). A JWT's
 * `sub` names the caller only when the JWT is HS256-signed with the key the engine was given
 * (`principalKey`): an unverified claim would let anyone write `{"alg":"none","sub":"alice"}`
 * and act on alice's tasks given their ids. A JWT that does not verify is just a token, so its
 * principal is its own digest and it reaches nobody else's data. Always scoped by endpoint so two
 * scenarios never share tasks.
 */

/** Resolves the principal of a request's `Authorization` header. */
export type PrincipalResolver = (authorization: string | null) => Promise<string>;

const decoder = new TextDecoder();

function fromBase64url(part: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  try {
    return Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function jsonPart(part: string): Record<string, unknown> | undefined {
  const bytes = fromBase64url(part);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The principal of every caller without a bearer token at an endpoint (known without waiting). */
export const anonymousPrincipal = (endpoint: string): string => `${endpoint}:anonymous`;

/** Headers whose principal is remembered (a client sends the same one on every request). */
const KNOWN_MAX = 256;

/** Create the resolver of one endpoint; `jwtKey` is the HS256 key whose tokens name their subject. */
export function createPrincipalResolver(endpoint: string, jwtKey?: string | Uint8Array): PrincipalResolver {
  const raw = typeof jwtKey === 'string' ? new TextEncoder().encode(jwtKey) : jwtKey;
  const key = raw?.length ? crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']) : undefined;

  /** The verified subject of an HS256 JWT, or undefined. */
  async function verifiedSubject(token: string): Promise<string | undefined> {
    if (!key) return undefined;
    const [h, p, s, extra] = token.split('.');
    if (h === undefined || p === undefined || s === undefined || extra !== undefined) return undefined;
    // Only the algorithm the key is for: never `none`, never one the token picks.
    if (jsonPart(h)?.alg !== 'HS256') return undefined;
    const mac = fromBase64url(s);
    if (!mac?.length) return undefined;
    const valid = await crypto.subtle.verify('HMAC', await key, mac as BufferSource, new TextEncoder().encode(`${h}.${p}`));
    const sub = valid ? jsonPart(p)?.sub : undefined;
    return typeof sub === 'string' && sub ? sub : undefined;
  }

  // Asked twice per request (the journal and the pipeline): a caller without a header, the common
  // case, gets one settled promise instead of a new async call each time.
  const anonymous = Promise.resolve(anonymousPrincipal(endpoint));
  // A header's principal never changes, so both askers of one request share one promise: the
  // journal asks first, so its note of the principal is made before the answer goes out (two
  // separate digests could settle in either order, and the entry was read without one).
  const known = new Map<string, Promise<string>>();
  return (authorization) => {
    if (!authorization) return anonymous;
    let principal = known.get(authorization);
    if (principal === undefined) {
      if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value as string);
      principal = resolve(authorization);
      known.set(authorization, principal);
      const asked = authorization;
      principal.catch(() => known.delete(asked));
    }
    return principal;
  };

  async function resolve(authorization: string): Promise<string> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
    if (!token) return anonymousPrincipal(endpoint);
    const sub = await verifiedSubject(token);
    if (sub !== undefined) return `${endpoint}:sub:${sub}`;
    return `${endpoint}:token:${(await digest(token)).slice(0, 22)}`;
  }
}
