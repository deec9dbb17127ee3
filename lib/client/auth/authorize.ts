import * as oauth from 'oauth4webapi';
import type { AuthServerMetadata } from './discovery';
import { AuthError } from './errors';
import type { RegisteredClient } from './registration';
import type { AuthTracer } from './trace';

/**
 * The authorization request and its response: PKCE S256, `state`, `resource` (RFC 8707) and
 * the scopes chosen; the issuer recorded beside the verifier before the browser goes anywhere;
 * the response checked (RFC 9207 `iss` by exact string, then `state`, and only then `error`)
 * before the code may go to any token endpoint.
 */

/** What the client keeps for one authorization request. */
interface PendingAuthorization {
  url: string;
  verifier: string;
  state: string;
  /** The issuer of the validated metadata, compared with the response's `iss`. */
  issuer: string;
  redirectUri: string;
}

/**
 * Brings the user (or, in tests and conformance runs, a plain HTTP client) to the authorize
 * URL and resolves with the URL the authorization server redirected back to.
 */
export type Authorizer = (authorizeUrl: string, redirectUri: string) => Promise<string>;

/** Build the authorization request. */
export async function buildAuthorization(
  as: AuthServerMetadata,
  c: RegisteredClient,
  o: { redirectUri: string; resource: string; scopes: string[] },
): Promise<PendingAuthorization> {
  if (!as.authorization_endpoint) throw new AuthError('authorization', `${as.issuer} has no authorization_endpoint`);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  // The URL is shown to a person and opened in a browser: http(s) only, never javascript: or file:.
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AuthError('authorization', `refusing an authorization endpoint of scheme ${url.protocol}`);
  const p = url.searchParams;
  p.set('response_type', 'code');
  p.set('client_id', c.clientId);
  p.set('redirect_uri', o.redirectUri);
  p.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  p.set('code_challenge_method', 'S256');
  p.set('state', state);
  p.set('resource', o.resource);
  if (o.scopes.length) p.set('scope', o.scopes.join(' '));
  return { url: url.toString(), verifier, state, issuer: as.issuer, redirectUri: o.redirectUri };
}

/** Why the client sends the authorization request as it does. */
export const AUTHORIZE_RULE = 'OAuth 2.1 §4.1.1; MCP §Authorization Code Protection (PKCE S256, state, resource)';

/**
 * An Authorizer for an authorization server that redirects without a person (the conformance
 * suite's, a mock with automatic consent): GET the URL, read the redirect's Location.
 */
export function followRedirects(t: AuthTracer): Authorizer {
  return async (authorizeUrl, redirectUri) => {
    let url = authorizeUrl;
    for (let hop = 0; hop < 5; hop++) {
      const ex = await t.fetch('authorization', AUTHORIZE_RULE, url, { method: 'GET' });
      const location = ex.response.headers.get('location');
      ex.report([{ name: 'redirected', ok: !!location, detail: `HTTP ${ex.response.status}` }]);
      if (!location) throw new AuthError('authorization', `the authorization endpoint answered HTTP ${ex.response.status} without a redirect`);
      const next = new URL(location, url).toString();
      if (next.startsWith(redirectUri)) return next;
      url = next;
    }
    throw new AuthError('authorization', 'too many redirects before reaching the redirect URI');
  };
}

/** Check the authorization response; resolves with its parameters when the code may be used. */
export function checkCallback(t: AuthTracer, as: AuthServerMetadata, c: RegisteredClient, pending: PendingAuthorization, callbackUrl: string): URLSearchParams {
  const params = new URL(callbackUrl).searchParams;
  const rule = 'RFC 9207 §2.4; MCP §Authorization Response Validation (iss compared by exact string, before the code is used)';
  // The recorded issuer, never a re-read of the metadata (the response is compared with what was validated).
  const server = { ...(as as unknown as oauth.AuthorizationServer), issuer: pending.issuer };
  const iss = params.get('iss');
  const issCheck = {
    name: 'iss matches the recorded issuer',
    ok: iss === null ? as.authorization_response_iss_parameter_supported !== true : iss === pending.issuer,
    detail: `iss ${iss ?? '(absent)'}, recorded ${pending.issuer}, advertised ${String(as.authorization_response_iss_parameter_supported ?? false)}`,
  };
  try {
    const out = oauth.validateAuthResponse(server, { client_id: c.clientId }, params, pending.state);
    t.note('callback', rule, [issCheck, { name: 'state matches', ok: true }], { url: callbackUrl });
    return out;
  } catch (e) {
    // After an iss mismatch the error fields are not acted on or shown (RFC 9207 §2.4).
    const why = issCheck.ok && e instanceof oauth.AuthorizationResponseError ? `the authorization server answered ${e.error}` : (e as Error).message;
    t.note('callback', rule, [issCheck, { name: 'authorization response accepted', ok: false, detail: why }], { url: callbackUrl });
    throw new AuthError('callback', `authorization response rejected: ${why}`);
  }
}
