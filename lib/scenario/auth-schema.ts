import { z } from 'zod';

/**
 * The scenario's `auth:` block: the mock becomes an OAuth-protected MCP server with its own
 * authorization server on the same origin. Every knob mirrors a variation the conformance
 * suite's `auth/*` client scenarios serve, so one scenario file can reproduce any of them; the
 * defaults are a well-behaved server (path PRM named in the 401, RFC 8414 metadata, `iss` sent).
 */

const scopes = z.array(
  z
    .string()
    .min(1)
    .regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'a scope token (RFC 6749 §3.3)'),
);
const seconds = z.number().int().min(1);

const ClientSchema = z.strictObject({
  clientId: z.string().min(1).describe('The pre-registered client_id.'),
  clientSecret: z.string().min(1).optional().describe('Its secret; without one the client is public (token_endpoint_auth_method none).'),
  redirectUris: z.array(z.string()).optional().describe('Allowed redirect URIs, matched exactly; default: any loopback URI.'),
  grantTypes: z
    .array(z.string())
    .optional()
    .describe('Grant types it may use; default: authorization_code, refresh_token and (with a secret) client_credentials.'),
});

const ResourceSchema = z
  .strictObject({
    metadata: z
      .enum(['path', 'root', 'custom', 'none'])
      .default('path')
      .describe(
        'Where the protected resource metadata (RFC 9728) is served: path (/.well-known/oauth-protected-resource/mcp/<id>), root (/.well-known/oauth-protected-resource, for the /mcp scenario), custom (/mcp/<id>/prm.json, reachable only from the 401 header) or none. Default: path.',
      ),
    inChallenge: z.boolean().default(true).describe('Name the metadata URL in the 401 WWW-Authenticate (resource_metadata=…); default: true.'),
    resource: z
      .string()
      .optional()
      .describe('The `resource` the metadata claims; default: this endpoint (root: the origin). Set another origin to test resource-mismatch.'),
    scopesSupported: scopes.optional().describe('scopes_supported in the metadata; omitted by default.'),
    challengeScope: scopes.optional().describe('scope=… in the 401 WWW-Authenticate; omitted by default.'),
    requiredScopes: scopes.default([]).describe('Scopes every request needs (403 insufficient_scope otherwise); default: none.'),
    toolScopes: z
      .record(z.string(), scopes)
      .default({})
      .describe('Extra scopes per tool (step-up): tools/call of the tool without them answers 403 insufficient_scope naming only the missing ones.'),
    scopeImplies: z
      .record(z.string(), scopes)
      .default({})
      .describe(
        'Scope hierarchy: a broad scope and the narrower ones it grants, e.g. { notes:admin: [notes:read, notes:write] } (servers must honour hierarchies).',
      ),
    alwaysInsufficient: z
      .string()
      .optional()
      .describe('Answer every request with a token 403 insufficient_scope for this scope, whatever was granted (tests a client stops re-authorizing).'),
  })
  .describe('The protected resource: the MCP endpoint of this scenario.');

const ServerSchema = z
  .strictObject({
    metadata: z
      .enum(['oauth', 'openid', 'both'])
      .default('oauth')
      .describe(
        'Which discovery documents exist: RFC 8414 oauth-authorization-server, OpenID openid-configuration (path-inserted and appended), or both. Default: oauth.',
      ),
    metadataIssuer: z.string().optional().describe('An issuer the metadata claims instead of its own (tests issuer validation).'),
    scopesSupported: scopes.optional().describe('scopes_supported in the metadata (add offline_access to offer refresh tokens by scope).'),
    grantTypes: z
      .array(z.enum(['authorization_code', 'refresh_token', 'client_credentials']))
      .default(['authorization_code', 'refresh_token'])
      .describe('Grant types the token endpoint accepts (and advertises); default: authorization_code and refresh_token.'),
    tokenEndpointAuthMethods: z
      .array(z.enum(['none', 'client_secret_basic', 'client_secret_post']))
      .default(['none', 'client_secret_basic', 'client_secret_post'])
      .describe('Client authentication methods the token endpoint accepts (and advertises).'),
    codeChallengeMethods: z.array(z.string()).nullable().default(['S256']).describe('code_challenge_methods_supported; null leaves it out.'),
    issSupported: z
      .enum(['true', 'false', 'omit'])
      .default('true')
      .describe('authorization_response_iss_parameter_supported in the metadata (RFC 9207): true, false, or left out. Default: true.'),
    issInRedirect: z
      .enum(['correct', 'omit', 'wrong', 'normalized'])
      .default('correct')
      .describe('The iss the authorization response carries: the issuer, none, https://evil.example.com, or the issuer with a trailing slash.'),
    dcr: z.boolean().default(true).describe('Offer dynamic client registration (RFC 7591); default: true.'),
    cimd: z.boolean().default(false).describe('Accept URL client_ids (Client ID Metadata Documents) and advertise it; default: false.'),
    clients: z.array(ClientSchema).default([]).describe('Pre-registered clients.'),
    consent: z.enum(['auto', 'manual']).default('auto').describe('auto: the authorize endpoint redirects at once; manual: it shows an Approve/Deny page.'),
    requirePkce: z.boolean().default(true).describe('Refuse an authorization request without an S256 code_challenge (invalid_request); default: true.'),
    accessTokenTtlSeconds: seconds.default(3600).describe('Lifetime of access tokens (expires_in and the JWT exp), in seconds; default: 3600.'),
    refreshTokens: z
      .enum(['always', 'offline_access', 'never'])
      .default('always')
      .describe('When a refresh token is issued: always, only when offline_access was granted, or never.'),
    migrateAfterCalls: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('After this many authorized MCP requests the resource moves to a second authorization server (issuer …/as2): old tokens get 401.'),
  })
  .describe('The authorization server, at issuer <origin>/mcp/<id>/as.');

const AuthFaultsSchema = z
  .strictObject({
    expiredTokens: z.boolean().default(false).describe('Issue access tokens that are already expired.'),
    refreshInvalidGrant: z.boolean().default(false).describe('Answer every refresh_token grant invalid_grant.'),
    tokenDelayMs: z.number().int().min(0).max(60_000).default(0).describe('Delay every token endpoint answer by this many ms.'),
  })
  .describe('Authorization faults.');

/** The whole `auth:` block. */
export const AuthSchema = z
  .strictObject({
    resource: ResourceSchema.default(ResourceSchema.parse({})),
    server: ServerSchema.default(ServerSchema.parse({})),
    faults: AuthFaultsSchema.default(AuthFaultsSchema.parse({})),
  })
  .describe('OAuth 2.1 authorization: the MCP endpoint becomes a protected resource with its own authorization server on the same origin.');
export type AuthSpec = z.infer<typeof AuthSchema>;
