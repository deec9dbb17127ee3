import type { MockEngine } from '../../../../lib/engine';
import { toHttpInput, toResponse } from '../../../../lib/engine/http-types';
import * as flow from '../../../helpers/oauth';
import { rpc, type RpcReply } from '../../../helpers/rpc';

/**
 * A scripted OAuth client for unit tests: every step of the flow is one call, so a test can
 * follow the spec or break a rule on purpose. It talks to the engine in process (the MCP face
 * and the auth side the router would send auth paths to); the steps themselves are
 * tests/helpers/oauth.ts, which the HTTP tests share.
 */

export const ORIGIN = 'http://127.0.0.1:3000';
export { pkce, REDIRECT } from '../../../helpers/oauth';

/** Send a request to the engine's auth side. */
export async function authFetch(engine: MockEngine, url: string, init: RequestInit = {}): Promise<Response> {
  if (!engine.handleAuth) throw new Error('this scenario has no auth block');
  return toResponse(await engine.handleAuth(toHttpInput(new Request(url, { redirect: 'manual', ...init }))));
}

/** An MCP request to /mcp/<id> with an optional bearer token. */
export function call(engine: MockEngine, method: string, params: Record<string, unknown>, token?: string): Promise<RpcReply> {
  return rpc(engine, method, params, { url: `${ORIGIN}/mcp/${engine.scenario.id}`, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** The parameters of a WWW-Authenticate Bearer challenge. */
export function challengeOf(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/(\w+)="([^"]*)"/g)) if (m[1]) out[m[1]] = m[2] ?? '';
  return out;
}

/** A client registered by DCR at the scenario's first (or, after a migration, second) authorization server. */
export function registerClient(engine: MockEngine, as = 1, body: Record<string, unknown> = {}) {
  const issuer = `${ORIGIN}/mcp/${engine.scenario.id}/as${as === 2 ? '2' : ''}`;
  return flow.registerClient((url, init) => authFetch(engine, url, init), issuer, body);
}

/** Authorize (auto consent) and exchange the code for the scenario's resource. */
export function authorizeAndExchange(
  engine: MockEngine,
  client: { issuer: string; clientId: string },
  scope: string | undefined,
  bad: flow.Misbehaviour = {},
): Promise<flow.Authorized> {
  return flow.authorizeAndExchange((url, init) => authFetch(engine, url, init), client, `${ORIGIN}/mcp/${engine.scenario.id}`, scope, bad);
}
