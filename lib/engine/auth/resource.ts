import { asRecord } from '../../shared/records';
import { originOf, prmUrlFor } from './places';
import { advertisedIssuer, type AuthContext } from './state';

/**
 * The protected resource: every MCP request needs a bearer token this server's current
 * authorization server issued for this endpoint (`aud`), unexpired, with the scopes the
 * request needs. 401 when authorization is missing or the token is invalid, 403
 * insufficient_scope naming the missing scopes (MCP 2026-07-28 §Error Handling, RFC 6750 §3).
 */

/** A refusal: the status, its challenge, and a JSON-RPC error body. */
export interface Refusal {
  status: 401 | 403;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const quote = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;

/** Check one MCP request. `fields` is its parsed JSON body (for the id and the tool name). */
export async function guardRequest(ctx: AuthContext, url: string, authorization: string | null, fields: Record<string, unknown>): Promise<Refusal | undefined> {
  const { spec, state } = ctx;
  const u = new URL(url);
  const origin = originOf(url);
  const resource = `${origin}${u.pathname.replace(/\/$/, '')}`;
  const prm = spec.resource.inChallenge ? prmUrlFor(spec, origin, ctx.scenarioId, u.pathname.replace(/\/$/, '')) : undefined;
  const refuse = (status: 401 | 403, params: Record<string, string | undefined>, message: string): Refusal => {
    const list = Object.entries({ ...params, resource_metadata: prm })
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => `${k}=${quote(v)}`);
    const id = fields.id;
    const challenge = `Bearer${list.length ? ` ${list.join(', ')}` : ''}`;
    // The challenge is repeated in the error's data: the journal keeps bodies, not response headers.
    return {
      status,
      headers: { 'WWW-Authenticate': challenge },
      body: { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code: -32600, message, data: { status, params } } },
    };
  };
  const challengeScope = spec.resource.challengeScope?.join(' ');
  const m = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization ?? '');
  if (!m?.[1]) return refuse(401, { scope: challengeScope }, 'Unauthorized: this server needs an OAuth bearer token (see WWW-Authenticate)');
  const invalid = (why: string) => refuse(401, { error: 'invalid_token', error_description: why, scope: challengeScope }, `Unauthorized: ${why}`);
  const verified = await ctx.keys.verify(m[1], ctx.now());
  if (!verified.ok) return invalid(verified.reason);
  const { claims } = verified;
  // After a migration the resource trusts only the new server: the old one's tokens are invalid here.
  if (claims.issuer !== advertisedIssuer(ctx, origin, state.current))
    return invalid('the token was issued by an authorization server this resource no longer trusts');
  if (claims.audience !== resource) return invalid(`the token is for ${claims.audience}, not this resource (${resource})`);
  const granted = new Set(claims.scope.split(' ').filter(Boolean));
  for (const broad of [...granted]) for (const narrow of spec.resource.scopeImplies[broad] ?? []) granted.add(narrow);
  const insufficient = (scope: string) =>
    refuse(
      403,
      { error: 'insufficient_scope', error_description: `this request needs scope ${scope}`, scope },
      `Forbidden: insufficient scope (needs ${scope})`,
    );
  if (spec.resource.alwaysInsufficient) return insufficient(spec.resource.alwaysInsufficient);
  const tool = fields.method === 'tools/call' ? asRecord(fields.params)?.name : undefined;
  const needed = [...spec.resource.requiredScopes, ...(typeof tool === 'string' ? (spec.resource.toolScopes[tool] ?? []) : [])];
  const missing = [...new Set(needed.filter((s) => !granted.has(s)))];
  if (missing.length) return insufficient(missing.join(' '));
  state.authorizedCalls++;
  const after = spec.server.migrateAfterCalls;
  if (after !== undefined && state.authorizedCalls >= after) state.current = 2;
  return undefined;
}
