import type { AuthSpec } from '../../scenario/auth-schema';

/**
 * Where the protected resource and its authorization servers live on the mock's origin, and
 * which of them a path names. The resource is the MCP endpoint the client called (`/mcp` or
 * `/mcp/<id>`); the authorization servers are issuers with a path, `<origin>/mcp/<id>/as` and,
 * for migration, `…/as2`, so their RFC 8414 metadata sits at
 * `/.well-known/oauth-authorization-server/mcp/<id>/as` (path insertion).
 */

/** Which of the two authorization servers: the first, or the one the resource migrates to. */
export type AsIndex = 1 | 2;

/** What an auth path names. */
type AuthRoute =
  | { kind: 'prm'; resource: string }
  | { kind: 'as-metadata'; as: AsIndex; flavor: 'oauth' | 'openid' }
  | { kind: 'authorize' | 'token' | 'register' | 'jwks' | 'consent'; as: AsIndex }
  | { kind: 'unknown' };

const PRM = '/.well-known/oauth-protected-resource';
const OAUTH_META = '/.well-known/oauth-authorization-server';
const OIDC_META = '/.well-known/openid-configuration';

/** The issuer path of an authorization server of scenario `id`. */
export const issuerPath = (id: string, as: AsIndex) => `/mcp/${id}/as${as === 2 ? '2' : ''}`;

/** The scheme and host of a request URL. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** The PRM URL for the resource at `mcpPath`, per the scenario's location knob; undefined when none is served. */
export function prmUrlFor(spec: AuthSpec, origin: string, id: string, mcpPath: string): string | undefined {
  const where = spec.resource.metadata;
  if (where === 'none') return undefined;
  if (where === 'root') return `${origin}${PRM}`;
  if (where === 'custom') return `${origin}/mcp/${id}/prm.json`;
  return `${origin}${PRM}${mcpPath}`;
}

/** Match a path served by the auth side of scenario `id` (whose paths the router sent here). */
export function routeAuthPath(spec: AuthSpec, id: string, pathname: string, origin: string): AuthRoute {
  const where = spec.resource.metadata;
  if (pathname.startsWith(PRM)) {
    const rest = pathname.slice(PRM.length);
    if (where === 'root' && rest === '') return { kind: 'prm', resource: spec.resource.resource ?? origin };
    if (where === 'path' && (rest === '/mcp' || rest === `/mcp/${id}`)) return { kind: 'prm', resource: spec.resource.resource ?? `${origin}${rest}` };
    return { kind: 'unknown' };
  }
  if (where === 'custom' && pathname === `/mcp/${id}/prm.json`) return { kind: 'prm', resource: spec.resource.resource ?? `${origin}/mcp/${id}` };
  const kind = spec.server.metadata;
  for (const as of [1, 2] as const) {
    const issuer = issuerPath(id, as);
    if (pathname === `${OAUTH_META}${issuer}`) return kind === 'openid' ? { kind: 'unknown' } : { kind: 'as-metadata', as, flavor: 'oauth' };
    if (pathname === `${OIDC_META}${issuer}` || pathname === `${issuer}${OIDC_META}`)
      return kind === 'oauth' ? { kind: 'unknown' } : { kind: 'as-metadata', as, flavor: 'openid' };
    if (pathname.startsWith(`${issuer}/`)) {
      const endpoint = pathname.slice(issuer.length + 1);
      if (endpoint === 'authorize' || endpoint === 'token' || endpoint === 'register' || endpoint === 'jwks' || endpoint === 'consent')
        return { kind: endpoint, as };
    }
  }
  return { kind: 'unknown' };
}
