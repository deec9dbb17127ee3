import { z } from 'zod';
import type { BearerChallenge } from './challenge';
import { AuthError } from './errors';
import type { AuthCheck, AuthTracer } from './trace';

/**
 * Discovery (MCP 2026-07-28 authorization, "Authorization Server Discovery"): the protected
 * resource metadata (RFC 9728) from the challenge's `resource_metadata` or the well-known URIs
 * in the spec's order, then the authorization server metadata (RFC 8414 and OpenID Connect
 * Discovery, in the spec's order, the issuer compared as an exact string).
 */

const PrmSchema = z.looseObject({
  resource: z.string(),
  authorization_servers: z.array(z.string()).min(1),
  scopes_supported: z.array(z.string()).optional(),
});
type ResourceMetadata = z.infer<typeof PrmSchema>;

export const AsMetadataSchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string().optional(),
  token_endpoint: z.string(),
  registration_endpoint: z.string().optional(),
  scopes_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  grant_types_supported: z.array(z.string()).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
  client_id_metadata_document_supported: z.boolean().optional(),
});
export type AuthServerMetadata = z.infer<typeof AsMetadataSchema>;

const PRM_RULE = 'MCP asd §Protected Resource Metadata Discovery; RFC 9728';
const ASM_RULE = 'MCP asd §Authorization Server Metadata Discovery; RFC 8414 §3.3';

/** The well-known PRM URIs for a server URL: path insertion first, then the root. */
export function resourceMetadataUrls(serverUrl: string): string[] {
  const u = new URL(serverUrl);
  const path = u.pathname.replace(/\/$/, '');
  const root = `${u.origin}/.well-known/oauth-protected-resource`;
  return path ? [`${root}${path}`, root] : [root];
}

/**
 * Whether PRM `resource` may stand for `serverUrl`: the same origin, and its path a prefix of
 * the server's path (RFC 9728 §3.3 as the SDKs apply it; a root PRM names the origin).
 */
export function resourceMatches(resource: string, serverUrl: string): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.hash) return false;
  const s = new URL(serverUrl);
  if (r.origin.toLowerCase() !== s.origin.toLowerCase()) return false;
  const rp = r.pathname.replace(/\/$/, '');
  const sp = s.pathname.replace(/\/$/, '');
  return sp === rp || sp.startsWith(`${rp}/`);
}

/** Fetch and check the protected resource metadata of `serverUrl`. */
export async function discoverResource(t: AuthTracer, serverUrl: string, challenge: BearerChallenge | undefined): Promise<ResourceMetadata> {
  const candidates = challenge?.resourceMetadata ? [challenge.resourceMetadata, ...resourceMetadataUrls(serverUrl)] : resourceMetadataUrls(serverUrl);
  for (const url of [...new Set(candidates)]) {
    const ex = await t.fetch('resource-metadata', PRM_RULE, url, { method: 'GET', headers: { Accept: 'application/json' } });
    const parsed = ex.response.ok ? PrmSchema.safeParse(ex.json) : undefined;
    if (!parsed?.success) {
      ex.report([{ name: 'protected resource metadata found', ok: false, detail: `HTTP ${ex.response.status}${parsed ? ', not valid metadata' : ''}` }]);
      continue;
    }
    const ok = resourceMatches(parsed.data.resource, serverUrl);
    ex.report([
      { name: 'protected resource metadata found', ok: true },
      { name: 'resource names this server (RFC 9728 §3.3)', ok, detail: `resource ${parsed.data.resource}, server ${serverUrl}` },
    ]);
    if (!ok) throw new AuthError('resource-metadata', `the protected resource metadata names ${parsed.data.resource}, not ${serverUrl}: refusing to authorize`);
    return parsed.data;
  }
  throw new AuthError('resource-metadata', `no protected resource metadata for ${serverUrl} (tried ${[...new Set(candidates)].join(', ')})`);
}

/** The AS metadata URLs for an issuer, in the spec's order (RFC 8414, then OIDC insertion, then OIDC appended). */
export function authServerMetadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  if (!path) return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  return [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}/.well-known/openid-configuration${path}`,
    `${u.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** Fetch the metadata of the authorization server `issuer`; a document naming another issuer is never used. */
export async function discoverAuthServer(t: AuthTracer, issuer: string, needsPkce: boolean): Promise<AuthServerMetadata> {
  const tried: string[] = [];
  for (const url of authServerMetadataUrls(issuer)) {
    tried.push(url);
    const ex = await t.fetch('authorization-server-metadata', ASM_RULE, url, { method: 'GET', headers: { Accept: 'application/json' } });
    const parsed = ex.response.ok ? AsMetadataSchema.safeParse(ex.json) : undefined;
    if (!parsed?.success) {
      ex.report([{ name: 'authorization server metadata found', ok: false, detail: `HTTP ${ex.response.status}${parsed ? ', not valid metadata' : ''}` }]);
      continue;
    }
    const m = parsed.data;
    // RFC 8414 §3.3: identical, no normalisation (a trailing slash or case change is another issuer).
    const checks: AuthCheck[] = [
      { name: 'issuer is identical to the one the URL was built from', ok: m.issuer === issuer, detail: `${m.issuer} vs ${issuer}` },
    ];
    if (m.issuer !== issuer) {
      ex.report(checks);
      throw new AuthError('authorization-server-metadata', `the metadata at ${url} names issuer ${m.issuer}, not ${issuer}: not used`);
    }
    const s256 = m.code_challenge_methods_supported?.includes('S256') ?? false;
    if (needsPkce) checks.push({ name: 'PKCE S256 supported (code_challenge_methods_supported)', ok: s256 });
    ex.report(checks);
    if (needsPkce && !s256) throw new AuthError('authorization-server-metadata', `${issuer} does not advertise PKCE S256: refusing to authorize`);
    return m;
  }
  throw new AuthError('authorization-server-metadata', `no authorization server metadata for ${issuer} (tried ${tried.join(', ')})`);
}
