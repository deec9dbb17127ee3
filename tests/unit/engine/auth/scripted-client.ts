import { createHash, randomBytes } from 'node:crypto';
import type { MockEngine } from '../../../../lib/engine';
import { toHttpInput, toResponse } from '../../../../lib/engine/http-types';
import { rpc, type RpcReply } from '../../../helpers/rpc';

/**
 * A scripted OAuth client for unit tests: every step of the flow is one call, so a test can
 * follow the spec or break a rule on purpose. It talks to the engine in process (the MCP face
 * and the auth side the router would send auth paths to).
 */

export const ORIGIN = 'http://127.0.0.1:3000';

/** Send a request to the engine's auth side. */
export async function authFetch(engine: MockEngine, url: string, init: RequestInit = {}): Promise<Response> {
  if (!engine.handleAuth) throw new Error('this scenario has no auth block');
  return toResponse(await engine.handleAuth(toHttpInput(new Request(url, { redirect: 'manual', ...init }))));
}

/** An MCP request to /mcp/<id> with an optional bearer token. */
export function call(engine: MockEngine, method: string, params: Record<string, unknown>, token?: string): Promise<RpcReply> {
  return rpc(engine, method, params, { url: `${ORIGIN}/mcp/${engine.scenario.id}`, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A PKCE pair. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: b64url(createHash('sha256').update(verifier).digest()) };
}

/** The parameters of a WWW-Authenticate Bearer challenge. */
export function challengeOf(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/(\w+)="([^"]*)"/g)) if (m[1]) out[m[1]] = m[2] ?? '';
  return out;
}

export const REDIRECT = 'http://127.0.0.1:9999/callback';

/** How the scripted client departs from the rules. */
export interface Misbehaviour {
  noPkce?: boolean;
  plainPkce?: boolean;
  noResource?: boolean;
  wrongVerifier?: boolean;
}

/** Everything one authorization yields. */
export interface Authorized {
  accessToken: string;
  refreshToken?: string;
  scope?: string;
  secrets: string[];
  location: URL;
}

/** A client registered by DCR that runs authorization code flows. */
export async function registerClient(engine: MockEngine, as = 1, body: Record<string, unknown> = {}) {
  const issuer = `${ORIGIN}/mcp/${engine.scenario.id}/as${as === 2 ? '2' : ''}`;
  const res = await authFetch(engine, `${issuer}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'scripted', application_type: 'native', token_endpoint_auth_method: 'none', ...body }),
  });
  const reg = (await res.json()) as { client_id: string; client_secret?: string };
  return { issuer, status: res.status, clientId: reg.client_id, clientSecret: reg.client_secret };
}

/** Authorize (auto consent) and exchange the code. */
export async function authorizeAndExchange(
  engine: MockEngine,
  client: { issuer: string; clientId: string },
  scope: string | undefined,
  bad: Misbehaviour = {},
): Promise<Authorized> {
  const resource = `${ORIGIN}/mcp/${engine.scenario.id}`;
  const { verifier, challenge } = pkce();
  const q = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 'st-1' });
  if (scope) q.set('scope', scope);
  if (!bad.noPkce) {
    q.set('code_challenge', bad.plainPkce ? verifier : challenge);
    q.set('code_challenge_method', bad.plainPkce ? 'plain' : 'S256');
  }
  if (!bad.noResource) q.set('resource', resource);
  const auth = await authFetch(engine, `${client.issuer}/authorize?${q}`);
  if (auth.status !== 302) throw new Error(`authorize answered ${auth.status}: ${await auth.text()}`);
  const location = new URL(auth.headers.get('location') ?? '');
  const code = location.searchParams.get('code') ?? '';
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId });
  const sentVerifier = bad.wrongVerifier ? pkce().verifier : verifier;
  if (!bad.noPkce) form.set('code_verifier', sentVerifier);
  if (!bad.noResource) form.set('resource', resource);
  const tok = await authFetch(engine, `${client.issuer}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const json = (await tok.json()) as { access_token?: string; refresh_token?: string; scope?: string; error?: string };
  if (!json.access_token) throw Object.assign(new Error(`token answered ${tok.status}: ${JSON.stringify(json)}`), { json, location });
  return {
    accessToken: json.access_token,
    ...(json.refresh_token ? { refreshToken: json.refresh_token } : {}),
    ...(json.scope ? { scope: json.scope } : {}),
    secrets: [code, sentVerifier, json.access_token, ...(json.refresh_token ? [json.refresh_token] : [])],
    location,
  };
}
