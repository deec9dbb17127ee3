import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../../lib/engine';
import type { Grade } from '../../../../lib/engine/report-card';
import { getBuiltinScenario } from '../../../../lib/scenario/builtins';
import { ScenarioSchema, type ScenarioInput } from '../../../../lib/scenario/schema';
import { createFakeClock, type FakeClock } from '../../../helpers/fake-clock';
import { ORIGIN, authFetch, authorizeAndExchange, call, challengeOf, registerClient } from './scripted-client';

/** The built-in `oauth` scenario end to end in process: discovery, DCR, PKCE, tokens, step-up, refresh, and the grades. */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(input?: ScenarioInput): { engine: MockEngine; clock: FakeClock } {
  const clock = createFakeClock();
  const scenario = input ? ScenarioSchema.parse(input) : getBuiltinScenario('oauth')!;
  const engine = createMockEngine({ scenario, clock });
  engines.push(engine);
  return { engine, clock };
}

const gradesOf = (engine: MockEngine) => Object.fromEntries(engine.reportCard().grades.map((g) => [g.id, g])) as Record<string, Grade>;

describe('the oauth scenario, followed by a well-behaved client', () => {
  it('answers 401 with a challenge naming the metadata and scope, then serves the flow', async () => {
    const { engine } = setup();
    const first = await call(engine, 'tools/list', {});
    expect(first.status).toBe(401);
    const challenge = challengeOf(first.headers.get('www-authenticate'));
    expect(challenge).toEqual({ scope: 'notes:read', resource_metadata: `${ORIGIN}/.well-known/oauth-protected-resource/mcp/oauth` });
    expect(first.body.error.code).toBe(-32600);

    const prm = await (await authFetch(engine, challenge.resource_metadata ?? '')).json();
    expect(prm).toMatchObject({ resource: `${ORIGIN}/mcp/oauth`, authorization_servers: [`${ORIGIN}/mcp/oauth/as`], scopes_supported: ['notes:read'] });
    // RFC 8414 path insertion for an issuer with a path.
    const meta = await (await authFetch(engine, `${ORIGIN}/.well-known/oauth-authorization-server/mcp/oauth/as`)).json();
    expect(meta).toMatchObject({
      issuer: `${ORIGIN}/mcp/oauth/as`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      registration_endpoint: `${ORIGIN}/mcp/oauth/as/register`,
    });
    expect((await authFetch(engine, `${ORIGIN}/.well-known/openid-configuration/mcp/oauth/as`)).status).toBe(404);

    const client = await registerClient(engine);
    expect(client.status).toBe(201);
    const a = await authorizeAndExchange(engine, client, 'notes:read');
    expect(a.location.searchParams.get('iss')).toBe(`${ORIGIN}/mcp/oauth/as`);
    expect(a.location.searchParams.get('state')).toBe('st-1');
    expect(decodeJwt(a.accessToken)).toMatchObject({
      aud: `${ORIGIN}/mcp/oauth`,
      iss: `${ORIGIN}/mcp/oauth/as`,
      scope: 'notes:read',
      client_id: client.clientId,
    });

    const who = await call(engine, 'tools/call', { name: 'whoami', arguments: {} }, a.accessToken);
    expect(who.status).toBe(200);
    expect(who.body.result.content[0].text).toContain('Authorized');

    // Step-up: write_note needs notes:write; the 403 names only the missing scope.
    const denied = await call(engine, 'tools/call', { name: 'write_note', arguments: { text: 'hi' } }, a.accessToken);
    expect(denied.status).toBe(403);
    expect(challengeOf(denied.headers.get('www-authenticate'))).toMatchObject({ error: 'insufficient_scope', scope: 'notes:write' });
    const b = await authorizeAndExchange(engine, client, 'notes:read notes:write');
    const wrote = await call(engine, 'tools/call', { name: 'write_note', arguments: { text: 'hi' } }, b.accessToken);
    expect(wrote.status).toBe(200);
    expect(wrote.body.result.content[0].text).toBe('Saved: hi');

    // Refresh rotates: the new refresh token works, the old one never again.
    const refresh = (token: string) =>
      authFetch(engine, `${client.issuer}/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: client.clientId,
          resource: `${ORIGIN}/mcp/oauth`,
        }).toString(),
      });
    const r1 = await refresh(b.refreshToken ?? '');
    expect(r1.status).toBe(200);
    const refreshed = (await r1.json()) as { access_token: string; refresh_token: string };
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ scope: 'notes:read notes:write' });
    expect(await (await refresh(b.refreshToken ?? '')).json()).toMatchObject({ error: 'invalid_grant' });

    const g = gradesOf(engine);
    for (const id of [
      'authorization-server-metadata',
      'sep-837-application-type-present',
      'pkce-code-challenge-sent',
      'pkce-s256-method-used',
      'pkce-code-verifier-sent',
      'pkce-verifier-matches-challenge',
      'resource-parameter-in-authorization',
      'resource-parameter-in-token',
      'resource-parameter-valid-uri',
      'resource-parameter-consistency',
      'resource-parameter-matches-prm',
      'token-endpoint-auth-method',
      'scope-from-www-authenticate',
      'scope-step-up-escalation',
      'sep-2350-scope-union-on-reauth',
      'scope-retry-limit',
      'sep-2468-client-compare-iss-supported',
    ])
      expect(g[id], id).toMatchObject({ status: 'pass' });
    // DCR where CIMD is offered is what the conformance suite flags.
    expect(g['cimd-client-id-used']?.status).toBe('fail');
    expect(g['scope-step-up-escalation']?.evidence.length).toBeGreaterThan(0);

    // No secret that crossed the wire is in the journal.
    const journal = JSON.stringify(engine.journal.entries());
    for (const s of [...a.secrets, ...b.secrets, refreshed.access_token, refreshed.refresh_token]) expect(journal).not.toContain(s);
  });
});

describe('a client that breaks the rules', () => {
  it('without PKCE or resource gets the failing grades', async () => {
    const { engine } = setup({ ...getInput(), auth: { ...getInput().auth, server: { ...getInput().auth?.server, requirePkce: false } } });
    const client = await registerClient(engine);
    await authorizeAndExchange(engine, client, 'notes:read', { noPkce: true, noResource: true });
    const g = gradesOf(engine);
    for (const id of [
      'pkce-code-challenge-sent',
      'pkce-s256-method-used',
      'pkce-code-verifier-sent',
      'pkce-verifier-matches-challenge',
      'resource-parameter-in-authorization',
      'resource-parameter-in-token',
    ])
      expect(g[id], id).toMatchObject({ status: 'fail', evidence: expect.arrayContaining([expect.any(Number)]) });
  });

  it('is refused without PKCE by default, and a wrong verifier gets invalid_grant', async () => {
    const { engine } = setup();
    const client = await registerClient(engine);
    await expect(authorizeAndExchange(engine, client, 'notes:read', { noPkce: true })).rejects.toThrow(/authorize answered 302|token answered 400/);
    const q = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: 'http://127.0.0.1:9999/callback', state: 's' });
    const res = await authFetch(engine, `${client.issuer}/authorize?${q}`);
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');
    await expect(authorizeAndExchange(engine, client, 'notes:read', { wrongVerifier: true })).rejects.toMatchObject({ json: { error: 'invalid_grant' } });
    expect(gradesOf(engine)['pkce-verifier-matches-challenge']?.status).toBe('fail');
  });

  it('that keeps re-authorizing on 403 fails scope-retry-limit', async () => {
    const input = getInput();
    const { engine } = setup({ ...input, auth: { ...input.auth, resource: { ...input.auth?.resource, alwaysInsufficient: 'notes:admin' } } });
    const client = await registerClient(engine);
    for (let i = 0; i < 4; i++) {
      const a = await authorizeAndExchange(engine, client, 'notes:read notes:admin');
      expect((await call(engine, 'tools/list', {}, a.accessToken)).status).toBe(403);
    }
    expect(gradesOf(engine)['scope-retry-limit']).toMatchObject({ status: 'fail' });
  });
});

function getInput(): ScenarioInput {
  return structuredClone(getBuiltinScenario('oauth')!) as ScenarioInput;
}
