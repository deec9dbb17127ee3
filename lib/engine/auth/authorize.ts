import { z } from 'zod';
import { findClient } from './clients';
import { escapeHtml, htmlReply, isLoopbackUrl, oauthError, redirectReply, type AuthReply } from './http-util';
import type { AsIndex } from './places';
import { advertisedIssuer, type AuthContext, type KnownClient } from './state';

/**
 * The authorization endpoint: checks the client and its redirect URI (errors there are shown,
 * never redirected: RFC 6749 §4.1.2.1), then PKCE and the response type (errors go back to the
 * client by redirect), then consents at once or through a small Approve/Deny page. The
 * response carries `code`, `state` and `iss` as the scenario's `iss` knob says (RFC 9207).
 */

const QuerySchema = z.looseObject({
  client_id: z.string().min(1),
  redirect_uri: z.string().min(1),
  response_type: z.string().optional(),
  state: z.string().optional(),
  scope: z.string().optional(),
  resource: z.string().optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
});

const CODE_TTL_MS = 60_000;

/** The `iss` the authorization response carries, per the scenario's knob. */
function issFor(ctx: AuthContext, origin: string, as: AsIndex): string | undefined {
  const issuer = advertisedIssuer(ctx, origin, as);
  const mode = ctx.spec.server.issInRedirect;
  return mode === 'correct' ? issuer : mode === 'wrong' ? 'https://evil.example.com' : mode === 'normalized' ? `${issuer}/` : undefined;
}

/** Send the authorization response to the client's redirect URI. */
function respond(ctx: AuthContext, origin: string, as: AsIndex, redirectUri: string, fields: Record<string, string | undefined>): AuthReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...fields, iss: issFor(ctx, origin, as) })) if (v !== undefined) url.searchParams.set(k, v);
  return redirectReply(url.toString());
}

/**
 * Whether a requested redirect URI is one registered: character for character, except that a
 * loopback IP literal (http://127.0.0.1, http://[::1]) may name any port, since a native client
 * listens on whatever port the system gives it (OAuth 2.1 §2.3.1, RFC 8252 §7.3). `localhost`
 * by name gets no such exception. Anything else is refused with an error page, never redirected.
 */
function redirectRegistered(registered: readonly string[], asked: string): boolean {
  if (registered.includes(asked)) return true;
  const portless = (u: string): string | undefined => {
    try {
      const url = new URL(u);
      // A form the URL parser would rewrite (dot segments, case) is not "exact except the port".
      if (url.href !== u || url.protocol !== 'http:' || (url.hostname !== '127.0.0.1' && url.hostname !== '[::1]')) return undefined;
      url.port = '';
      return url.href;
    } catch {
      return undefined;
    }
  };
  const want = portless(asked);
  return want !== undefined && registered.some((r) => portless(r) === want);
}

/** A resource indicator must be an absolute URI without a fragment (RFC 8707 §2). */
function validResource(r: string): boolean {
  try {
    return !new URL(r).hash && !r.includes('#');
  } catch {
    return false;
  }
}

/** Issue a code for an approved request. */
function approve(ctx: AuthContext, origin: string, as: AsIndex, p: Record<string, string>): AuthReply {
  const code = ctx.random();
  ctx.state.codes.set(code, {
    clientId: p.client_id ?? '',
    redirectUri: p.redirect_uri ?? '',
    ...(p.code_challenge ? { challenge: p.code_challenge } : {}),
    scope: p.scope ?? '',
    ...(p.resource ? { resource: p.resource } : {}),
    as,
    expiresAt: ctx.now() + CODE_TTL_MS,
  });
  return respond(ctx, origin, as, p.redirect_uri ?? '', { code, state: p.state });
}

/** The consent page: who asks, for what, and where the answer goes (the redirect host must be shown). */
function consentPage(id: string, client: KnownClient, p: Record<string, string>): AuthReply {
  const redirect = new URL(p.redirect_uri ?? '');
  const scopes = (p.scope ?? '').split(' ').filter(Boolean);
  return htmlReply(
    200,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize ${escapeHtml(client.clientId)}</title></head><body style="font-family:sans-serif;max-width:36rem;margin:3rem auto">
<h1>Authorize access</h1>
<p><strong>${escapeHtml(client.clientId)}</strong> asks for access to <code>${escapeHtml(p.resource ?? 'this server')}</code>.</p>
<p>Scopes: ${scopes.length ? scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ') : '<em>none</em>'}</p>
<p>The answer goes to <strong>${escapeHtml(redirect.host)}</strong>${isLoopbackUrl(redirect.href) ? ' (a program on this computer)' : ''}.</p>
<form method="post" action="consent"><input type="hidden" name="request" value="${escapeHtml(id)}">
<button type="submit" name="decision" value="approve">Approve</button> <button type="submit" name="decision" value="deny">Deny</button></form>
</body></html>`,
    [redirect.origin],
  );
}

/** GET /authorize. */
export async function authorize(ctx: AuthContext, origin: string, as: AsIndex, query: Record<string, string>): Promise<AuthReply> {
  const parsed = QuerySchema.safeParse(query);
  if (!parsed.success) return oauthError(400, 'invalid_request', 'client_id and redirect_uri are required');
  const p = query;
  const client = await findClient(ctx, parsed.data.client_id, as);
  if (typeof client === 'string') return oauthError(400, 'invalid_client', client);
  const redirectOk = client.redirectUris ? redirectRegistered(client.redirectUris, parsed.data.redirect_uri) : isLoopbackUrl(parsed.data.redirect_uri);
  if (!redirectOk) return oauthError(400, 'invalid_request', 'redirect_uri is not registered for this client');
  const fail = (error: string, description: string) =>
    respond(ctx, origin, as, parsed.data.redirect_uri, { error, error_description: description, state: p.state });
  if (parsed.data.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (ctx.spec.server.requirePkce && (!parsed.data.code_challenge || parsed.data.code_challenge_method !== 'S256'))
    return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
  if (parsed.data.resource !== undefined && !validResource(parsed.data.resource))
    return fail('invalid_target', 'resource must be an absolute URI without a fragment');
  if (ctx.spec.server.consent === 'manual') {
    const id = ctx.random();
    ctx.state.consents.set(id, { params: p, client, as, origin });
    return consentPage(id, client, p);
  }
  return approve(ctx, origin, as, p);
}

/** POST /consent: the person's decision on the manual page. Single use. */
export function decide(ctx: AuthContext, fields: Record<string, string>): AuthReply {
  const pending = fields.request ? ctx.state.consents.get(fields.request) : undefined;
  if (!pending) return oauthError(400, 'invalid_request', 'this consent request is unknown or was already answered');
  ctx.state.consents.delete(fields.request ?? '');
  if (fields.decision !== 'approve')
    return respond(ctx, pending.origin, pending.as, pending.params.redirect_uri ?? '', {
      error: 'access_denied',
      error_description: 'The user denied access',
      state: pending.params.state,
    });
  return approve(ctx, pending.origin, pending.as, pending.params);
}
