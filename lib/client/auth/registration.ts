import { z } from 'zod';
import type { AuthServerMetadata } from './discovery';
import { AuthError } from './errors';
import type { AuthTracer } from './trace';

/**
 * Client registration (MCP 2026-07-28 "Client Registration"), in the spec's order:
 * pre-registered credentials, a Client ID Metadata Document URL when the AS advertises
 * support, dynamic registration (RFC 7591) when it has a registration endpoint. Credentials
 * are bound to the issuer that issued them (SEP-2352): the caller keys them by issuer and
 * never presents them to another authorization server.
 */

type TokenAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** A client id at one authorization server, and how it authenticates at the token endpoint. */
export interface RegisteredClient {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  method: TokenAuthMethod;
  via: 'pre-registered' | 'cimd' | 'dcr';
}

interface RegistrationConfig {
  /** Pre-registered credentials (--client-id, --client-secret). */
  clientId?: string;
  clientSecret?: string;
  /** The issuer the pre-registered credentials belong to, when known. */
  clientIssuer?: string;
  /** The https URL of Loupe's Client ID Metadata Document, when one is hosted. */
  clientMetadataUrl?: string;
  clientName: string;
  redirectUri: string;
  /** Grants this client uses (DCR `grant_types`). */
  grantTypes: string[];
}

// RFC 7591 §3.2.1; lenient on purpose: servers omit client_secret_expires_at although a secret is returned.
const DcrResponseSchema = z.looseObject({
  client_id: z.string().min(1),
  client_secret: z.string().optional(),
  token_endpoint_auth_method: z.string().optional(),
});

const REG_RULE = 'MCP reg §Client Registration (pre-registration > CIMD > DCR); RFC 7591';

/** The token endpoint auth method for a client that holds (or not) a secret, from what the AS supports. */
export function pickAuthMethod(as: AuthServerMetadata, hasSecret: boolean): TokenAuthMethod {
  // RFC 8414 §2: absent means client_secret_basic only.
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (!hasSecret) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return supported.includes('none') ? 'none' : 'client_secret_basic';
}

const isMethod = (m: string | undefined): m is TokenAuthMethod => m === 'client_secret_basic' || m === 'client_secret_post' || m === 'none';

/** Get a client id at `as`, by the first mechanism that applies. */
export async function registerClient(t: AuthTracer, as: AuthServerMetadata, c: RegistrationConfig): Promise<RegisteredClient> {
  const issuer = as.issuer;
  if (c.clientId) {
    // SEP-2352: credentials made for another AS must not be tried here.
    if (c.clientIssuer && c.clientIssuer !== issuer)
      throw new AuthError('registration', `the pre-registered client belongs to ${c.clientIssuer}, but this server now uses ${issuer}`);
    t.note('registration', REG_RULE, [{ name: 'pre-registered client id used', ok: true }], { body: { client_id: c.clientId } });
    return { issuer, clientId: c.clientId, clientSecret: c.clientSecret, method: pickAuthMethod(as, !!c.clientSecret), via: 'pre-registered' };
  }
  if (as.client_id_metadata_document_supported === true && c.clientMetadataUrl) {
    t.note('registration', REG_RULE, [{ name: 'client_id_metadata_document_supported: the metadata document URL is the client id', ok: true }], {
      body: { client_id: c.clientMetadataUrl },
    });
    return { issuer, clientId: c.clientMetadataUrl, method: 'none', via: 'cimd' };
  }
  if (!as.registration_endpoint)
    throw new AuthError(
      'registration',
      `${issuer} offers no way to register (no Client ID Metadata Document support, no registration endpoint): pass --client-id`,
    );
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  // A public client when the AS takes one (Loupe cannot keep a secret safer than a token).
  const requested: TokenAuthMethod = supported.includes('none')
    ? 'none'
    : supported.includes('client_secret_basic')
      ? 'client_secret_basic'
      : 'client_secret_post';
  const body = {
    client_name: c.clientName,
    redirect_uris: [c.redirectUri],
    grant_types: c.grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: requested,
    // SEP-837: a CLI or a loopback-served app is a native application.
    application_type: 'native',
  };
  const ex = await t.fetch('registration', REG_RULE, as.registration_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = ex.response.ok ? DcrResponseSchema.safeParse(ex.json) : undefined;
  ex.report([{ name: 'registered (client_id returned)', ok: !!parsed?.success, detail: `HTTP ${ex.response.status}` }]);
  if (!parsed?.success)
    throw new AuthError('registration', `dynamic registration at ${as.registration_endpoint} failed: HTTP ${ex.response.status} ${ex.text.slice(0, 200)}`);
  const r = parsed.data;
  const method = isMethod(r.token_endpoint_auth_method) ? r.token_endpoint_auth_method : r.client_secret && requested === 'none' ? 'none' : requested;
  return { issuer, clientId: r.client_id, ...(r.client_secret ? { clientSecret: r.client_secret } : {}), method, via: 'dcr' };
}
