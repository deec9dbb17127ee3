import { z } from 'zod';
import { fetchCimd } from './cimd';
import { basicCredentials, isLoopbackUrl, jsonReply, oauthError, type AuthReply } from './http-util';
import type { AsIndex } from './places';
import type { AuthContext, AuthMethod, KnownClient } from './state';

/**
 * Who the client is: dynamic registration (RFC 7591), Client ID Metadata Documents (a URL
 * client_id the server fetches) and pre-registered clients; and client authentication at the
 * token endpoint (none, client_secret_basic, client_secret_post).
 */

const DcrSchema = z.looseObject({
  redirect_uris: z.array(z.string()).min(1),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  client_name: z.string().optional(),
  application_type: z.string().optional(),
  scope: z.string().optional(),
});

/** POST /register. */
export function register(ctx: AuthContext, as: AsIndex, body: unknown): AuthReply {
  const parsed = DcrSchema.safeParse(body);
  if (!parsed.success) return oauthError(400, 'invalid_client_metadata', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const m = parsed.data;
  const bad = m.redirect_uris.find((u) => (!isLoopbackUrl(u) && !u.startsWith('https://')) || !URL.canParse(u) || u.includes('#'));
  if (bad) return oauthError(400, 'invalid_redirect_uri', `redirect_uris must be absolute https or loopback URIs without a fragment: ${bad}`);
  const supported = ctx.spec.server.tokenEndpointAuthMethods;
  // The server decides the method (RFC 7591 §3.2.1 lets it replace the requested one).
  const asked = m.token_endpoint_auth_method as AuthMethod | undefined;
  const method: AuthMethod = asked && supported.includes(asked) ? asked : (supported[0] ?? 'none');
  const client: KnownClient = {
    clientId: `${as === 2 ? 'as2' : 'as1'}-client-${ctx.random()}`,
    ...(method === 'none' ? {} : { secret: ctx.random() }),
    redirectUris: m.redirect_uris,
    authMethod: method,
    grantTypes: m.grant_types ?? ['authorization_code'],
    as,
    via: 'dcr',
  };
  ctx.state.clients.set(client.clientId, client);
  return jsonReply(201, {
    client_id: client.clientId,
    ...(client.secret ? { client_secret: client.secret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(ctx.now() / 1000),
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: client.grantTypes,
    ...(m.client_name ? { client_name: m.client_name } : {}),
    ...(m.application_type ? { application_type: m.application_type } : {}),
  });
}

/** The client named by `clientId` at server `as`, or why it is unknown. */
export async function findClient(ctx: AuthContext, clientId: string, as: AsIndex): Promise<KnownClient | string> {
  const known = ctx.state.clients.get(clientId);
  if (known) {
    // Credentials are bound to the server that issued them (SEP-2352).
    if (known.as !== 0 && known.as !== as) return `client ${clientId} is registered at another authorization server`;
    return known;
  }
  if (ctx.spec.server.cimd && /^https?:\/\//.test(clientId)) {
    const fetched = await fetchCimd(ctx, clientId);
    if (typeof fetched !== 'string') ctx.state.clients.set(clientId, fetched);
    return fetched;
  }
  return `unknown client_id ${clientId}`;
}

/** How the token request authenticated its client. */
interface ClientAuthResult {
  method: AuthMethod;
  clientId?: string;
  client?: KnownClient;
  error?: AuthReply;
}

/** Authenticate the client of a token request. */
export async function authenticate(ctx: AuthContext, as: AsIndex, authorization: string | null, fields: Record<string, string>): Promise<ClientAuthResult> {
  const basic = basicCredentials(authorization);
  const method: AuthMethod = basic ? 'client_secret_basic' : fields.client_secret !== undefined ? 'client_secret_post' : 'none';
  const clientId = basic?.id ?? fields.client_id;
  const fail = (why: string): ClientAuthResult => ({
    method,
    ...(clientId ? { clientId } : {}),
    error: oauthError(401, 'invalid_client', why, basic ? { 'WWW-Authenticate': 'Basic realm="token"' } : {}),
  });
  if (!clientId) return fail('no client_id');
  if (!ctx.spec.server.tokenEndpointAuthMethods.includes(method)) return fail(`token_endpoint_auth_method ${method} is not supported here`);
  const client = await findClient(ctx, clientId, as);
  if (typeof client === 'string') return fail(client);
  const secret = basic?.secret ?? fields.client_secret;
  if (client.secret !== undefined && (method === 'none' || secret !== client.secret)) return fail('client authentication failed');
  if (client.secret === undefined && method !== 'none') return fail('this client has no secret; authenticate with none');
  return { method, clientId, client };
}
