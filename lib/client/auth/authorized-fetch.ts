import { abortable } from './abortable';
import { buildAuthorization, checkCallback, followRedirects, type Authorizer } from './authorize';
import { bearerChallenge, type BearerChallenge } from './challenge';
import { discoverAuthServer, discoverResource, type AuthServerMetadata } from './discovery';
import { AuthError } from './errors';
import { registerClient, type RegisteredClient } from './registration';
import { initialScopes, unionScopes, withOfflineAccess } from './scopes';
import { storedFor, type TokenStore } from './stored';
import { clientCredentials, exchangeCode, refreshTokens, type Tokens } from './tokens';
import { createAuthTracer, type AuthFrame, type AuthGate } from './trace';

/**
 * OAuth for the HTTP transport, as a fetch wrapper: every request carries the bearer token;
 * a 401 runs the flow (discovery, registration, authorization, token) and retries the request
 * once; a 403 `insufficient_scope` re-authorizes with the union of scopes and retries, at most
 * `maxAuthorizations` authorization requests in a row without an accepted request (the spec's
 * "no more than a few times"); an expired token is refreshed first. The transport and the
 * session never see a token, so no other layer has to keep one secret.
 */

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

interface AuthOptions {
  /** `client_credentials` for a machine client with a pre-registered id and secret. */
  grant?: 'authorization_code' | 'client_credentials';
  clientId?: string;
  clientSecret?: string;
  /** The issuer the pre-registered client belongs to, when known (credentials stay with their AS). */
  clientIssuer?: string;
  /** Loupe's Client ID Metadata Document URL, used when the AS supports CIMD. */
  clientMetadataUrl?: string;
  /** Scopes to ask for instead of the challenge's or the metadata's. */
  scope?: string;
  /** The redirect URI (a loopback listener's, started when first needed; or any loopback URI with `followRedirects`). */
  redirectUri: string | (() => Promise<string>);
  /** How the user reaches the authorize URL (default: follow its redirect without a person). */
  authorizer?: Authorizer;
  clientName?: string;
  maxAuthorizations?: number;
  /** A note for the user (the authorize URL, a failure). Never a secret. */
  onNotice?: (text: string) => void;
  now?: () => number;
  fetch?: Fetch;
  /** Keep tokens between runs (the CLI's --store-tokens): loaded before the first request, saved after each change. */
  store?: TokenStore;
  /** Called before each HTTP step (guided mode); a rejection stops the flow. */
  gate?: AuthGate;
}

export interface AuthorizedFetch {
  fetch: Fetch;
  /** Where auth-lane frames go (the tracking decorator's `record`). */
  setSink(sink: ((frame: AuthFrame) => void) | undefined): void;
  /** Why the last flow stopped, if it did. */
  readonly lastError: AuthError | undefined;
  /** The current tokens (in memory only; the CLI stores them only when asked). */
  readonly tokens: Tokens | undefined;
}

const MAX_AUTHORIZATIONS = 3;

/** Wrap `fetch` with OAuth for one MCP server. */
export function createAuthorizedFetch(o: AuthOptions): AuthorizedFetch {
  const base: Fetch = o.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = o.now ?? (() => Date.now());
  let sink: ((frame: AuthFrame) => void) | undefined;
  const t = createAuthTracer(base, (f) => sink?.(f), o.gate);
  const grant = o.grant ?? 'authorization_code';
  const registrations = new Map<string, RegisteredClient>();
  const max = o.maxAuthorizations ?? MAX_AUTHORIZATIONS;
  let tokens: Tokens | undefined;
  let current: { issuer: string; as: AuthServerMetadata; client: RegisteredClient; resource: string } | undefined;
  let requested: string[] = [];
  let attempts = 0;
  let lastError: AuthError | undefined;
  let inflight: Promise<void> | undefined;
  let server: string | undefined;

  /** Take up the stored state once, if it was saved for this server. */
  async function restore(serverUrl: string): Promise<void> {
    if (server !== undefined) return;
    server = serverUrl;
    if (!o.store) return;
    const s = storedFor(await o.store.load().catch(() => undefined), serverUrl);
    if (!s) return;
    tokens = s.tokens;
    current = { issuer: s.issuer, as: s.authorizationServer, client: s.client, resource: s.resource };
    registrations.set(s.issuer, s.client);
    requested = s.scopes;
    const left = s.tokens.expiresAt === undefined ? 'no expiry given' : s.tokens.expiresAt > now() ? 'still valid' : 'expired';
    t.note('token', "tokens kept between runs at the user's request", [
      { name: 'stored tokens loaded', ok: true, detail: `${left}${s.tokens.refreshToken ? ', with a refresh token' : ''}` },
    ]);
  }

  async function persist(): Promise<void> {
    if (!o.store || !tokens || !current || server === undefined) return;
    const c = current;
    await o.store
      .save({ version: 1, server, issuer: c.issuer, resource: c.resource, authorizationServer: c.as, client: c.client, tokens, scopes: requested })
      .catch((e: unknown) => o.onNotice?.(`cannot store the tokens: ${(e as Error).message}`));
  }

  async function authorize(serverUrl: string, challenge: BearerChallenge | undefined, stepUp: boolean): Promise<void> {
    const prm = await discoverResource(t, serverUrl, challenge);
    // RFC 9728 §7.6: the first listed server; its registration and tokens are its own.
    const issuer = prm.authorization_servers[0] ?? '';
    if (current && current.issuer !== issuer) {
      t.note('resource-metadata', 'MCP reg §Authorization Server Binding (SEP-2352)', [
        { name: 'authorization server changed: old credentials and tokens dropped', ok: true, detail: `${current.issuer} → ${issuer}` },
      ]);
      tokens = undefined;
      requested = [];
    }
    const as = current?.issuer === issuer ? current.as : await discoverAuthServer(t, issuer, grant === 'authorization_code');
    const redirectUri = typeof o.redirectUri === 'string' ? o.redirectUri : await o.redirectUri();
    let client = registrations.get(issuer);
    if (!client) {
      client = await registerClient(t, as, {
        clientId: o.clientId,
        clientSecret: o.clientSecret,
        clientIssuer: o.clientIssuer,
        clientMetadataUrl: o.clientMetadataUrl,
        clientName: o.clientName ?? 'MCP Loupe',
        redirectUri,
        grantTypes: grant === 'client_credentials' ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      });
      registrations.set(issuer, client);
    }
    const resource = prm.resource;
    current = { issuer, as, client, resource };
    if (grant === 'client_credentials') {
      tokens = await clientCredentials(t, as, client, resource, o.scope, now);
      return;
    }
    const chosen = stepUp
      ? { scopes: unionScopes(requested, challenge?.scope), reason: 'union' }
      : initialScopes({ configured: o.scope, challenge: challenge?.scope, prmScopes: prm.scopes_supported });
    const scopes = withOfflineAccess(chosen.scopes, as.scopes_supported);
    requested = scopes;
    attempts++;
    const pending = await buildAuthorization(as, client, { redirectUri, resource, scopes });
    t.note('authorization', 'MCP §Scope Selection Strategy; §Scope Challenge Handling', [
      { name: `scope: ${scopes.join(' ') || '(omitted)'}`, ok: true, detail: `from ${chosen.reason}; attempt ${attempts} of ${max}` },
    ]);
    const callback = await (o.authorizer ?? followRedirects(t))(pending.url, redirectUri);
    const params = checkCallback(t, as, client, pending, callback);
    tokens = await exchangeCode(t, as, client, params, redirectUri, pending.verifier, resource, now);
  }

  /** Run one flow at a time; concurrent 401s wait for the flow in progress. */
  async function once(run: () => Promise<void>): Promise<boolean> {
    if (inflight) {
      await inflight.catch(() => {});
      return !!tokens;
    }
    inflight = run();
    try {
      await inflight;
      lastError = undefined;
      await persist();
      return true;
    } catch (e) {
      lastError = e instanceof AuthError ? e : new AuthError('challenge', (e as Error).message);
      o.onNotice?.(`authorization failed at ${lastError.step}: ${lastError.message}`);
      return false;
    } finally {
      t.flush();
      inflight = undefined;
    }
  }

  async function refresh(): Promise<boolean> {
    const c = current;
    const rt = tokens?.refreshToken;
    if (!c || !rt) return false;
    return once(async () => {
      tokens = await refreshTokens(t, c.as, c.client, rt, c.resource, now);
    });
  }

  const withBearer = (init: RequestInit): RequestInit => {
    if (!tokens) return init;
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${tokens.accessToken}`);
    return { ...init, headers };
  };

  async function authFetch(input: string, init: RequestInit): Promise<Response> {
    await restore(input);
    const wait = <T>(work: Promise<T>) => abortable(work, init.signal);
    if (tokens?.expiresAt !== undefined && tokens.refreshToken && now() > tokens.expiresAt - 30_000) await wait(refresh());
    let res = await base(input, withBearer(init));
    if (res.status === 401) {
      const challenge = bearerChallenge(res.headers.get('www-authenticate'));
      t.note('challenge', 'MCP asd §Protected Resource Metadata Discovery (401 + WWW-Authenticate)', [
        { name: 'Bearer challenge', ok: !!challenge, detail: res.headers.get('www-authenticate') ?? '(no WWW-Authenticate)' },
      ]);
      const hadToken = !!tokens;
      const refreshed = hadToken && (await wait(refresh()));
      if (!refreshed && !(await wait(once(() => authorize(input, challenge, false))))) return res;
      await res.body?.cancel().catch(() => {});
      res = await base(input, withBearer(init));
    }
    for (;;) {
      if (res.status !== 403) break;
      const challenge = bearerChallenge(res.headers.get('www-authenticate'));
      if (challenge?.error !== 'insufficient_scope' || grant === 'client_credentials') break;
      const ok = attempts < max;
      t.note('step-up', 'MCP §Scope Challenge Handling (403 insufficient_scope: union of scopes, limited retries)', [
        { name: 'insufficient_scope', ok: true, detail: `challenged scope ${challenge.scope ?? '(none)'}` },
        { name: `retry limit (${max} authorization requests)`, ok, detail: `${attempts} made` },
      ]);
      if (!ok) {
        o.onNotice?.(`authorization failed: the server still answers 403 insufficient_scope after ${attempts} authorization requests`);
        break;
      }
      if (!(await wait(once(() => authorize(input, challenge, true))))) break;
      await res.body?.cancel().catch(() => {});
      res = await base(input, withBearer(init));
    }
    if (res.status !== 401 && res.status !== 403) attempts = 0;
    return res;
  }

  return {
    fetch: authFetch,
    setSink: (s) => {
      sink = s;
    },
    get lastError() {
      return lastError;
    },
    get tokens() {
      return tokens;
    },
  };
}
