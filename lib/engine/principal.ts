import { digest } from './request-state';

/**
 * Who is calling: the bearer token's `sub` claim when it is a JWT, else a digest of the token,
 * else anonymous; always scoped by endpoint so two scenarios never share tasks.
 * The JWT is not verified: the mock has no issuer, and the subject only partitions data.
 */
export async function principalOf(endpoint: string, authorization: string | null): Promise<string> {
  const token = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1] : undefined;
  if (!token) return `${endpoint}:anonymous`;
  const parts = token.split('.');
  const payload = parts[1];
  if (parts.length === 3 && payload !== undefined) {
    try {
      const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
      if (json && typeof json.sub === 'string' && json.sub) return `${endpoint}:sub:${json.sub}`;
    } catch {
      /* not a JWT: fall through to the digest */
    }
  }
  return `${endpoint}:token:${(await digest(token)).slice(0, 22)}`;
}
