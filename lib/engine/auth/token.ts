import { authenticate } from './clients';
import { jsonReply, oauthError, s256, type AuthReply } from './http-util';
import type { AsIndex } from './places';
import { advertisedIssuer, type AuthContext, type KnownClient } from './state';

/**
 * The token endpoint: authorization_code (PKCE S256 checked, the code single-use and bound to
 * its client, redirect URI and resource), refresh_token (rotated on every use) and
 * client_credentials. Faults: a delay, already-expired access tokens, invalid_grant on refresh.
 */

/** What the journal keeps about a token request beyond its redacted parameters. */
interface TokenFacts {
  grantType?: string;
  clientAuth: string;
  clientId?: string;
  /** authorization_code: whether the verifier hashed to the code's challenge. */
  verifierMatches?: boolean;
  /** The resource the issued token is for. */
  audience?: string;
  scope?: string;
}

interface Issue {
  client: KnownClient;
  scope: string;
  audience: string;
  as: AsIndex;
  refresh: boolean;
}

async function issue(ctx: AuthContext, origin: string, t: Issue): Promise<AuthReply> {
  const s = ctx.spec;
  const now = Math.floor(ctx.now() / 1000);
  const ttl = s.server.accessTokenTtlSeconds;
  // An already-expired token tests that a client reacts to 401 invalid_token by refreshing.
  const expiresAt = s.faults.expiredTokens ? now - 60 : now + ttl;
  const access = await ctx.keys.sign(
    { issuer: advertisedIssuer(ctx, origin, t.as), audience: t.audience, clientId: t.client.clientId, scope: t.scope, issuedAt: now, expiresAt },
    ctx.random(),
  );
  const policy = s.server.refreshTokens;
  const scopes = t.scope.split(' ');
  const giveRefresh =
    t.refresh && s.server.grantTypes.includes('refresh_token') && (policy === 'always' || (policy === 'offline_access' && scopes.includes('offline_access')));
  let refresh: string | undefined;
  if (giveRefresh) {
    refresh = ctx.random();
    ctx.state.refresh.set(refresh, { clientId: t.client.clientId, scope: t.scope, resource: t.audience, as: t.as });
  }
  return jsonReply(200, {
    access_token: access,
    token_type: 'Bearer',
    expires_in: s.faults.expiredTokens ? 0 : ttl,
    ...(t.scope ? { scope: t.scope } : {}),
    ...(refresh ? { refresh_token: refresh } : {}),
  });
}

/** POST /token; returns the reply and what the journal should know. */
export async function token(
  ctx: AuthContext,
  origin: string,
  as: AsIndex,
  authorization: string | null,
  f: Record<string, string>,
): Promise<{ reply: AuthReply; facts: TokenFacts }> {
  if (ctx.spec.faults.tokenDelayMs > 0) await ctx.sleep(ctx.spec.faults.tokenDelayMs);
  const auth = await authenticate(ctx, as, authorization, f);
  const facts: TokenFacts = { grantType: f.grant_type, clientAuth: auth.method, ...(auth.clientId ? { clientId: auth.clientId } : {}) };
  const done = (reply: AuthReply) => ({ reply, facts });
  if (f.code_verifier !== undefined && f.grant_type === 'authorization_code') {
    const grant = f.code ? ctx.state.codes.get(f.code) : undefined;
    if (grant?.challenge) facts.verifierMatches = s256(f.code_verifier) === grant.challenge;
  }
  if (auth.error || !auth.client) return done(auth.error ?? oauthError(401, 'invalid_client', 'client authentication failed'));
  const client = auth.client;
  const grantType = f.grant_type ?? '';
  if (!ctx.spec.server.grantTypes.includes(grantType as never))
    return done(oauthError(400, 'unsupported_grant_type', `grant_type ${grantType || '(none)'} is not supported`));
  const defaultAudience = `${origin}/mcp/${ctx.scenarioId}`;
  const ok = async (t: Omit<Issue, 'client' | 'as'>) => {
    facts.audience = t.audience;
    facts.scope = t.scope;
    return done(await issue(ctx, origin, { ...t, client, as }));
  };

  if (grantType === 'authorization_code') {
    const grant = f.code ? ctx.state.codes.get(f.code) : undefined;
    if (f.code) ctx.state.codes.delete(f.code);
    if (!grant || grant.clientId !== client.clientId || grant.as !== as || grant.expiresAt < ctx.now())
      return done(oauthError(400, 'invalid_grant', 'the code is unknown, expired, used, or was issued to another client'));
    if (f.redirect_uri !== grant.redirectUri) return done(oauthError(400, 'invalid_grant', 'redirect_uri differs from the authorization request'));
    if (grant.challenge && (f.code_verifier === undefined || s256(f.code_verifier) !== grant.challenge))
      return done(oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)'));
    if (grant.resource && f.resource !== undefined && f.resource !== grant.resource)
      return done(oauthError(400, 'invalid_target', 'resource differs from the authorization request'));
    return ok({ scope: grant.scope, audience: f.resource ?? grant.resource ?? defaultAudience, refresh: true });
  }
  if (grantType === 'refresh_token') {
    if (ctx.spec.faults.refreshInvalidGrant) return done(oauthError(400, 'invalid_grant', 'the refresh token was revoked (scenario fault)'));
    const grant = f.refresh_token ? ctx.state.refresh.get(f.refresh_token) : undefined;
    if (!grant || grant.clientId !== client.clientId || grant.as !== as)
      return done(oauthError(400, 'invalid_grant', 'the refresh token is unknown or was already used'));
    // Rotation: a refresh token is good once (OAuth 2.1 §4.3.1 for public clients).
    ctx.state.refresh.delete(f.refresh_token ?? '');
    const asked = f.scope?.split(' ').filter(Boolean);
    const granted = grant.scope.split(' ');
    if (asked?.some((s) => !granted.includes(s))) return done(oauthError(400, 'invalid_scope', 'a refresh may not widen the scope'));
    if (f.resource !== undefined && f.resource !== grant.resource) return done(oauthError(400, 'invalid_target', 'resource differs from the original grant'));
    return ok({ scope: asked?.join(' ') ?? grant.scope, audience: grant.resource, refresh: true });
  }
  if (!client.secret || !client.grantTypes.includes('client_credentials'))
    return done(oauthError(400, 'unauthorized_client', 'client_credentials needs a confidential client registered for that grant'));
  return ok({ scope: f.scope ?? '', audience: f.resource ?? defaultAudience, refresh: false });
}
