import * as oauth from 'oauth4webapi';
import type { AuthServerMetadata } from './discovery';
import { AuthError } from './errors';
import type { RegisteredClient } from './registration';
import type { AuthStepName, AuthTracer, TracedExchange } from './trace';

/**
 * The token endpoint through oauth4webapi: the authorization code grant (with the PKCE
 * verifier and the `resource` of RFC 8707), refresh (keeping `resource`) and client
 * credentials. Client authentication is basic, post or none per the registration;
 * `client_secret_basic` is encoded here per RFC 6749 §2.3.1 (form-urlencoded, so `-` stays
 * `-`), because oauth4webapi's encoder escapes it as `%2D` and servers that decode Basic
 * without form-decoding (the conformance suite's among them) then see another client id.
 */

export interface Tokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms when the access token expires, if the AS said. */
  expiresAt?: number;
  scope?: string;
}

/** RFC 6749 §2.3.1: application/x-www-form-urlencoded, then base64 of `id:secret`. */
const formEncode = (s: string) => new URLSearchParams([['', s]]).toString().slice(1);

function clientAuth(c: RegisteredClient): oauth.ClientAuth {
  if (c.method === 'client_secret_basic' && c.clientSecret !== undefined) {
    const secret = c.clientSecret;
    return (_as, client, _body, headers) => {
      headers.set('authorization', `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(secret)}`)}`);
    };
  }
  if (c.method === 'client_secret_post' && c.clientSecret !== undefined) return oauth.ClientSecretPost(c.clientSecret);
  return oauth.None();
}

const asOf = (m: AuthServerMetadata): oauth.AuthorizationServer => m as unknown as oauth.AuthorizationServer;

/** Run one token request through the tracer, then its o4w processing; failures become AuthErrors of `step`. */
async function tokenCall(
  t: AuthTracer,
  step: AuthStepName,
  rule: string,
  send: (opts: oauth.TokenEndpointRequestOptions) => Promise<Response>,
  process: (r: Response) => Promise<oauth.TokenEndpointResponse>,
  now: () => number,
): Promise<Tokens> {
  let ex: TracedExchange | undefined;
  const opts: oauth.TokenEndpointRequestOptions = {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: async (url, init) => {
      ex = await t.fetch(step, rule, url, init as RequestInit);
      return ex.response;
    },
  };
  try {
    const response = await send(opts);
    const r = await process(response);
    ex?.report([{ name: 'access token issued', ok: true, detail: `token_type ${r.token_type}${r.refresh_token ? ', with a refresh token' : ''}` }]);
    return {
      accessToken: r.access_token,
      ...(r.refresh_token ? { refreshToken: r.refresh_token } : {}),
      ...(typeof r.expires_in === 'number' ? { expiresAt: now() + r.expires_in * 1000 } : {}),
      ...(r.scope ? { scope: r.scope } : {}),
    };
  } catch (e) {
    ex?.report([{ name: 'access token issued', ok: false, detail: (e as Error).message }]);
    throw new AuthError(step, `the token request failed: ${(e as Error).message}`);
  }
}

const TOKEN_RULE = 'OAuth 2.1 §4.1.3 (code_verifier); RFC 8707 resource in the token request; MCP §Resource Parameter';

/** Exchange the authorization code (the callback was validated before this is called). */
export function exchangeCode(
  t: AuthTracer,
  as: AuthServerMetadata,
  c: RegisteredClient,
  callback: URLSearchParams,
  redirectUri: string,
  verifier: string,
  resource: string,
  now: () => number,
): Promise<Tokens> {
  const client = { client_id: c.clientId };
  return tokenCall(
    t,
    'token',
    TOKEN_RULE,
    (o) => oauth.authorizationCodeGrantRequest(asOf(as), client, clientAuth(c), callback, redirectUri, verifier, { ...o, additionalParameters: { resource } }),
    (r) => oauth.processAuthorizationCodeResponse(asOf(as), client, r),
    now,
  );
}

/** Refresh the access token, for the same resource. */
export function refreshTokens(t: AuthTracer, as: AuthServerMetadata, c: RegisteredClient, refreshToken: string, resource: string, now: () => number) {
  const client = { client_id: c.clientId };
  return tokenCall(
    t,
    'refresh',
    'OAuth 2.1 §4.3 (refresh_token grant); RFC 8707 resource kept',
    (o) => oauth.refreshTokenGrantRequest(asOf(as), client, clientAuth(c), refreshToken, { ...o, additionalParameters: { resource } }),
    (r) => oauth.processRefreshTokenResponse(asOf(as), client, r),
    now,
  );
}

/** The client credentials grant (the io.modelcontextprotocol/oauth-client-credentials extension). */
export function clientCredentials(t: AuthTracer, as: AuthServerMetadata, c: RegisteredClient, resource: string, scope: string | undefined, now: () => number) {
  const client = { client_id: c.clientId };
  const params: Record<string, string> = { resource, ...(scope ? { scope } : {}) };
  return tokenCall(
    t,
    'client-credentials',
    'ext-auth oauth-client-credentials (SEP-1046); OAuth 2.1 §4.2',
    (o) => oauth.clientCredentialsGrantRequest(asOf(as), client, clientAuth(c), params, o),
    (r) => oauth.processClientCredentialsResponse(asOf(as), client, r),
    now,
  );
}
