import type { AsIndex } from './places';
import { issuerPath } from './places';
import type { AuthContext } from './state';

/** The discovery documents: protected resource metadata (RFC 9728) and authorization server metadata (RFC 8414 / OpenID). */

/** PRM for the resource, naming the server the resource trusts now. */
export function resourceMetadata(ctx: AuthContext, origin: string, resource: string): Record<string, unknown> {
  const { spec, state } = ctx;
  return {
    resource,
    authorization_servers: [`${origin}${issuerPath(ctx.scenarioId, state.current)}`],
    bearer_methods_supported: ['header'],
    ...(spec.resource.scopesSupported ? { scopes_supported: spec.resource.scopesSupported } : {}),
  };
}

/** Authorization server metadata; the OpenID flavour adds the fields OpenID Discovery requires. */
export function serverMetadata(ctx: AuthContext, origin: string, as: AsIndex, flavor: 'oauth' | 'openid'): Record<string, unknown> {
  const s = ctx.spec.server;
  const base = `${origin}${issuerPath(ctx.scenarioId, as)}`;
  return {
    issuer: s.metadataIssuer ?? base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    ...(s.dcr ? { registration_endpoint: `${base}/register` } : {}),
    jwks_uri: `${base}/jwks`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: s.grantTypes,
    token_endpoint_auth_methods_supported: s.tokenEndpointAuthMethods,
    ...(s.codeChallengeMethods ? { code_challenge_methods_supported: s.codeChallengeMethods } : {}),
    ...(s.issSupported === 'omit' ? {} : { authorization_response_iss_parameter_supported: s.issSupported === 'true' }),
    ...(s.scopesSupported ? { scopes_supported: s.scopesSupported } : {}),
    ...(s.cimd ? { client_id_metadata_document_supported: true } : {}),
    ...(flavor === 'openid' ? { subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['ES256'] } : {}),
  };
}
