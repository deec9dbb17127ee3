import { digest } from './request-state';

/**
 * Who is calling: the bearer token's `sub` claim when it is a JWT, else a digest of the token,
 * else anonymous; always scoped by endpoint so two scenarios never share tasks.
 * The JWT is not verified: the mock has no issuer, and the subject only partitions data.
 */
export async function principalOf(endpoint: string, authorization: string | null): Promise<string> {
  const m = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization.trim()) : null;
  if (!m) return `${endpoint}:anonymous`;
  const token = m[1];
  const parts = token.split('.');
  if (parts.length === 3) {
    try {
      const json = JSON.parse(atob(parts[1].replace(/-/g, '+').replace(/_/g, '/')));
      if (json && typeof json.sub === 'string' && json.sub) return `${endpoint}:sub:${json.sub}`;
    } catch {
      /* not a JWT: fall through to the digest */
    }
  }
  return `${endpoint}:token:${(await digest(token)).slice(0, 22)}`;
}
