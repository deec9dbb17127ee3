import type { AuthSpec } from '../../scenario/auth-schema';
import type { AsIndex } from './places';
import type { TokenKeys } from './tokens';

/**
 * What the authorization server remembers: registered clients, outstanding codes, refresh
 * tokens and manual consents, plus the resource's migration state. Kept in memory per engine:
 * an authorization is short-lived test state, and a restarted mock simply asks again.
 */

export type AuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A client the server knows, by how it came to know it. */
export interface KnownClient {
  clientId: string;
  secret?: string;
  /** Exact redirect URIs; undefined accepts any loopback URI (a pre-registered local tool). */
  redirectUris?: string[];
  authMethod: AuthMethod;
  grantTypes: string[];
  /** The server it is registered at; 0 for pre-registered and CIMD clients, valid at both. */
  as: AsIndex | 0;
  via: 'pre-registered' | 'dcr' | 'cimd';
}

/** An authorization code waiting for its token request. */
interface CodeGrant {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  scope: string;
  resource?: string;
  as: AsIndex;
  expiresAt: number;
}

/** A refresh token's grant. */
interface RefreshGrant {
  clientId: string;
  scope: string;
  resource: string;
  as: AsIndex;
}

/** An authorization request waiting on the manual consent page. */
interface PendingConsent {
  params: Record<string, string>;
  client: KnownClient;
  as: AsIndex;
  origin: string;
}

interface AuthState {
  clients: Map<string, KnownClient>;
  codes: Map<string, CodeGrant>;
  refresh: Map<string, RefreshGrant>;
  consents: Map<string, PendingConsent>;
  /** MCP requests served with a valid token, for migrateAfterCalls. */
  authorizedCalls: number;
  /** Which server the resource names now. */
  current: AsIndex;
}

/** Everything an endpoint needs. */
export interface AuthContext {
  spec: AuthSpec;
  scenarioId: string;
  state: AuthState;
  keys: TokenKeys;
  /** Injected clock, ms. */
  now(): number;
  random(): string;
  /** Wait (the slow token endpoint fault), on the injected clock. */
  sleep(ms: number): Promise<void>;
  /** How CIMD documents are fetched (tests may serve them from memory). */
  fetch: typeof fetch;
}

/** A fresh state with the scenario's pre-registered clients. */
export function createAuthState(spec: AuthSpec): AuthState {
  const clients = new Map<string, KnownClient>();
  for (const c of spec.server.clients) {
    const method: AuthMethod = !c.clientSecret ? 'none' : (spec.server.tokenEndpointAuthMethods.find((m) => m !== 'none') ?? 'client_secret_basic');
    clients.set(c.clientId, {
      clientId: c.clientId,
      ...(c.clientSecret ? { secret: c.clientSecret } : {}),
      ...(c.redirectUris ? { redirectUris: c.redirectUris } : {}),
      authMethod: method,
      grantTypes: c.grantTypes ?? ['authorization_code', 'refresh_token', ...(c.clientSecret ? ['client_credentials'] : [])],
      as: 0,
      via: 'pre-registered',
    });
  }
  return { clients, codes: new Map(), refresh: new Map(), consents: new Map(), authorizedCalls: 0, current: 1 };
}

/** The issuer an authorization server names itself by (its metadata's, which the `iss` must match). */
export function advertisedIssuer(ctx: AuthContext, origin: string, as: AsIndex): string {
  return ctx.spec.server.metadataIssuer ?? `${origin}/mcp/${ctx.scenarioId}/as${as === 2 ? '2' : ''}`;
}
