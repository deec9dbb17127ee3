import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../../lib/engine';
import type { Grade } from '../../../../lib/engine/report-card';
import { ScenarioSchema } from '../../../../lib/scenario/schema';
import type { AuthSpec } from '../../../../lib/scenario/auth-schema';
import { createFakeClock, type FakeClock } from '../../../helpers/fake-clock';
import { rpc } from '../../../helpers/rpc';
import { ORIGIN, REDIRECT, authFetch, authorizeAndExchange, call, challengeOf, pkce, registerClient } from './scripted-client';

/** The auth block's knobs, each as a client would notice it, and the grades that follow. */

type AuthInput = { resource?: Partial<AuthSpec['resource']>; server?: Partial<AuthSpec['server']>; faults?: Partial<AuthSpec['faults']> };

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(auth: AuthInput): { engine: MockEngine; clock: FakeClock } {
  const clock = createFakeClock();
  const scenario = ScenarioSchema.parse({
    id: 'guarded',
    server: { name: 'guarded', version: '1.0.0' },
    tools: [{ name: 'ping', result: { content: [{ type: 'text', text: 'pong' }] } }],
    auth,
  });
  const engine = createMockEngine({ scenario, clock });
  engines.push(engine);
  return { engine, clock };
}

const gradesOf = (engine: MockEngine) => Object.fromEntries(engine.reportCard().grades.map((g) => [g.id, g])) as Record<string, Grade>;
const ISSUER = `${ORIGIN}/mcp/guarded/as`;
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('discovery knobs', () => {
  it('serves PRM at the root, a custom path or nowhere, and names it in the challenge only when asked', async () => {
    const root = setup({ resource: { metadata: 'root', inChallenge: false } }).engine;
    expect(challengeOf((await call(root, 'tools/list', {})).headers.get('www-authenticate'))).toEqual({});
    expect(await (await authFetch(root, `${ORIGIN}/.well-known/oauth-protected-resource`)).json()).toMatchObject({ resource: ORIGIN });
    expect((await authFetch(root, `${ORIGIN}/.well-known/oauth-protected-resource/mcp/guarded`)).status).toBe(404);

    const custom = setup({ resource: { metadata: 'custom' } }).engine;
    const url = challengeOf((await call(custom, 'tools/list', {})).headers.get('www-authenticate')).resource_metadata;
    expect(url).toBe(`${ORIGIN}/mcp/guarded/prm.json`);
    expect(await (await authFetch(custom, url ?? '')).json()).toMatchObject({ resource: `${ORIGIN}/mcp/guarded` });

    const nowhere = setup({ resource: { metadata: 'none' } }).engine;
    expect(challengeOf((await call(nowhere, 'tools/list', {})).headers.get('www-authenticate')).resource_metadata).toBeUndefined();
    expect((await authFetch(nowhere, `${ORIGIN}/.well-known/oauth-protected-resource/mcp/guarded`)).status).toBe(404);
  });

  it('serves OpenID discovery at both OpenID paths and not RFC 8414 when the kind is openid', async () => {
    const { engine } = setup({ server: { metadata: 'openid' } });
    expect((await authFetch(engine, `${ORIGIN}/.well-known/oauth-authorization-server/mcp/guarded/as`)).status).toBe(404);
    for (const path of [`/.well-known/openid-configuration/mcp/guarded/as`, `/mcp/guarded/as/.well-known/openid-configuration`]) {
      const doc = await (await authFetch(engine, `${ORIGIN}${path}`)).json();
      expect(doc).toMatchObject({ issuer: ISSUER, subject_types_supported: ['public'], jwks_uri: `${ISSUER}/jwks` });
    }
  });

  it('grades a client that uses metadata claiming a foreign issuer, and one that goes on despite a resource mismatch', async () => {
    const { engine } = setup({ server: { metadataIssuer: 'https://attacker.example.com' }, resource: { resource: 'https://evil.example.com/mcp' } });
    await authFetch(engine, `${ORIGIN}/.well-known/oauth-protected-resource/mcp/guarded`);
    expect(await (await authFetch(engine, `${ORIGIN}/.well-known/oauth-authorization-server/mcp/guarded/as`)).json()).toMatchObject({
      issuer: 'https://attacker.example.com',
    });
    expect(gradesOf(engine)['sep-2468-client-validate-metadata-issuer']?.status).toBe('pass');
    expect(gradesOf(engine)['resource-mismatch-rejected']?.status).toBe('pass');
    await authorizeAndExchange(engine, await registerClient(engine), undefined);
    expect(gradesOf(engine)['sep-2468-client-validate-metadata-issuer']?.status).toBe('fail');
    expect(gradesOf(engine)['resource-mismatch-rejected']?.status).toBe('fail');
  });
});

describe('iss in the authorization response', () => {
  it.each([
    ['wrong', 'true', 'https://evil.example.com', 'sep-2468-client-compare-iss-supported'],
    ['normalized', 'true', `${ISSUER}/`, 'sep-2468-client-no-normalization'],
    ['omit', 'true', null, 'sep-2468-client-reject-missing-iss'],
    ['wrong', 'omit', 'https://evil.example.com', 'sep-2468-client-compare-iss-unadvertised'],
  ] as const)('iss %s (advertised %s) is sent as %s and a client that uses the code fails %s', async (issInRedirect, issSupported, iss, id) => {
    const { engine } = setup({ server: { issInRedirect, issSupported } });
    const meta = await (await authFetch(engine, `${ORIGIN}/.well-known/oauth-authorization-server/mcp/guarded/as`)).json();
    expect('authorization_response_iss_parameter_supported' in meta).toBe(issSupported !== 'omit');
    const a = await authorizeAndExchange(engine, await registerClient(engine), undefined);
    expect(a.location.searchParams.get('iss')).toBe(iss);
    expect(gradesOf(engine)[id]).toMatchObject({ status: 'fail' });
  });

  it('a client that proceeds without iss where none is advertised passes', async () => {
    const { engine } = setup({ server: { issInRedirect: 'omit', issSupported: 'false' } });
    await authorizeAndExchange(engine, await registerClient(engine), undefined);
    expect(gradesOf(engine)['sep-2468-client-proceed-no-iss']).toMatchObject({ status: 'pass' });
  });
});

describe('clients and grants', () => {
  it('authenticates a pre-registered client with Basic (form-encoded) and refuses the wrong method', async () => {
    const { engine } = setup({
      server: { dcr: false, tokenEndpointAuthMethods: ['client_secret_basic'], clients: [{ clientId: 'pre-registered-client', clientSecret: 's3cret' }] },
    });
    const meta = await (await authFetch(engine, `${ORIGIN}/.well-known/oauth-authorization-server/mcp/guarded/as`)).json();
    expect(meta.registration_endpoint).toBeUndefined();
    const basic = `Basic ${Buffer.from('pre-registered-client:s3cret').toString('base64')}`;
    const cc = await authFetch(engine, `${ISSUER}/token`, {
      ...form({ grant_type: 'client_credentials' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic },
    });
    // client_credentials is not in the default grant types.
    expect(await cc.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const post = await authFetch(
      engine,
      `${ISSUER}/token`,
      form({ grant_type: 'authorization_code', client_id: 'pre-registered-client', client_secret: 's3cret', code: 'x' }),
    );
    expect(post.status).toBe(401);
    expect(gradesOf(engine)['token-endpoint-auth-method']?.status).toBe('fail');
  });

  it('issues client_credentials tokens to a confidential client, bound to the resource', async () => {
    const { engine } = setup({ server: { grantTypes: ['client_credentials'], clients: [{ clientId: 'machine', clientSecret: 'm-secret' }] } });
    const basic = `Basic ${Buffer.from('machine:m-secret').toString('base64')}`;
    const res = await authFetch(engine, `${ISSUER}/token`, {
      ...form({ grant_type: 'client_credentials', resource: `${ORIGIN}/mcp/guarded` }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic },
    });
    const tok = (await res.json()) as { access_token: string; refresh_token?: string };
    expect(tok.refresh_token).toBeUndefined();
    expect((await call(engine, 'tools/call', { name: 'ping', arguments: {} }, tok.access_token)).body.result.content[0].text).toBe('pong');
    expect(JSON.stringify(engine.journal.entries())).not.toContain(tok.access_token);
    expect(JSON.stringify(engine.journal.entries())).not.toContain('m-secret');
  });

  describe('Client ID Metadata Documents', () => {
    let server: http.Server;
    let docUrl = '';
    beforeAll(async () => {
      server = http.createServer((_req, res) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ client_id: docUrl, client_name: 'cimd client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      docUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('fetches a URL client_id, checks its redirect URIs, and grades CIMD used', async () => {
      const { engine } = setup({ server: { cimd: true } });
      const a = await authorizeAndExchange(engine, { issuer: ISSUER, clientId: docUrl }, undefined);
      expect(a.accessToken).toBeTruthy();
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: docUrl,
        redirect_uri: 'http://127.0.0.1:1/elsewhere',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      });
      expect((await authFetch(engine, `${ISSUER}/authorize?${q}`)).status).toBe(400);
      expect(gradesOf(engine)['cimd-client-id-used']?.status).toBe('pass');
    });
  });

  it('shows a consent page when consent is manual, and Deny sends access_denied', async () => {
    const { engine } = setup({ server: { consent: 'manual' } });
    const client = await registerClient(engine);
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      state: 's9',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const page = await authFetch(engine, `${ISSUER}/authorize?${q}`);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('127.0.0.1:9999');
    const request = /name="request" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const deny = await authFetch(engine, `${ISSUER}/consent`, form({ request, decision: 'deny' }));
    const back = new URL(deny.headers.get('location') ?? '');
    expect([back.searchParams.get('error'), back.searchParams.get('state')]).toEqual(['access_denied', 's9']);
    // Single use: the same consent cannot be approved afterwards.
    expect((await authFetch(engine, `${ISSUER}/consent`, form({ request, decision: 'approve' }))).status).toBe(400);
  });
});

describe('tokens and faults', () => {
  it('issues expired tokens under the fault, which the resource answers 401 invalid_token', async () => {
    const { engine } = setup({ faults: { expiredTokens: true } });
    const a = await authorizeAndExchange(engine, await registerClient(engine), undefined);
    const res = await call(engine, 'tools/list', {}, a.accessToken);
    expect(res.status).toBe(401);
    expect(challengeOf(res.headers.get('www-authenticate'))).toMatchObject({ error: 'invalid_token', error_description: 'the access token expired' });
  });

  it('expires tokens on the clock and answers invalid_grant to refresh under the fault', async () => {
    const { engine, clock } = setup({ server: { accessTokenTtlSeconds: 60 }, faults: { refreshInvalidGrant: true } });
    const client = await registerClient(engine);
    const a = await authorizeAndExchange(engine, client, undefined);
    expect((await call(engine, 'tools/list', {}, a.accessToken)).status).toBe(200);
    clock.advance(61_000);
    expect((await call(engine, 'tools/list', {}, a.accessToken)).status).toBe(401);
    const r = await authFetch(
      engine,
      `${ISSUER}/token`,
      form({ grant_type: 'refresh_token', refresh_token: a.refreshToken ?? '', client_id: client.clientId }),
    );
    expect(await r.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('holds token answers for the slow-endpoint delay on the injected clock', async () => {
    const { engine, clock } = setup({ faults: { tokenDelayMs: 5_000 } });
    const client = await registerClient(engine);
    let settled = false;
    const pending = authorizeAndExchange(engine, client, undefined).then((a) => {
      settled = true;
      return a;
    });
    for (let i = 0; i < 20 && !engine.journal.entries().some((e) => e.method === 'oauth:authorize'); i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    clock.advance(5_000);
    expect((await pending).accessToken).toBeTruthy();
  });

  it('rejects a token for another audience', async () => {
    const { engine } = setup({});
    const client = await registerClient(engine);
    const q = await authorizeAndExchange(engine, client, undefined, { noResource: true });
    // Without resource the token is for the scenario's endpoint; called through /mcp it is another audience.
    const res = await call(engine, 'tools/list', {}, q.accessToken);
    expect(res.status).toBe(200);
    const other = await rpc(engine, 'tools/list', {}, { url: `${ORIGIN}/mcp`, headers: { Authorization: `Bearer ${q.accessToken}` } });
    expect(other.status).toBe(401);
  });
});

describe('scopes', () => {
  it('grades the initial scope against scopes_supported and offline_access rules', async () => {
    const { engine } = setup({ resource: { scopesSupported: ['a', 'b'] }, server: { scopesSupported: ['a', 'b'] } });
    await authorizeAndExchange(engine, await registerClient(engine), 'a offline_access');
    const g = gradesOf(engine);
    expect(g['scope-from-scopes-supported']?.status).toBe('fail');
    expect(g['sep-2207-offline-access-not-requested']?.status).toBe('fail');
  });

  it('moves to a second authorization server after N calls; old tokens get 401 and old client ids are refused there', async () => {
    const { engine } = setup({ server: { migrateAfterCalls: 1 } });
    const c1 = await registerClient(engine);
    const a = await authorizeAndExchange(engine, c1, undefined);
    expect((await call(engine, 'tools/list', {}, a.accessToken)).status).toBe(200);
    expect((await call(engine, 'tools/list', {}, a.accessToken)).status).toBe(401);
    const prm = await (await authFetch(engine, `${ORIGIN}/.well-known/oauth-protected-resource/mcp/guarded`)).json();
    expect(prm.authorization_servers).toEqual([`${ORIGIN}/mcp/guarded/as2`]);
    await expect(authorizeAndExchange(engine, { issuer: `${ORIGIN}/mcp/guarded/as2`, clientId: c1.clientId }, undefined)).rejects.toThrow(
      /authorize answered 400/,
    );
    expect(gradesOf(engine)['sep-2352-no-cross-as-credential-reuse']?.status).toBe('fail');
    const c2 = await registerClient(engine, 2);
    const b = await authorizeAndExchange(engine, c2, undefined);
    expect((await call(engine, 'tools/list', {}, b.accessToken)).status).toBe(200);
    expect(gradesOf(engine)['sep-2352-reregister-on-as-change']?.status).toBe('pass');
  });
});

describe('the journal', () => {
  it('keeps bearer tokens of MCP requests only as hashes', async () => {
    const { engine } = setup({});
    const a = await authorizeAndExchange(engine, await registerClient(engine), undefined);
    await call(engine, 'tools/list', {}, a.accessToken);
    const mcp = engine.journal.entries().find((e) => e.method === 'tools/list');
    expect(mcp?.requestHeaders.authorization).toMatch(/^Bearer \[redacted [0-9a-f]{12}\]$/);
    expect(JSON.stringify(engine.journal.entries())).not.toContain(a.accessToken);
  });
});

describe('the auth endpoints', () => {
  it('refuse a Host that is not loopback or allowed, as the MCP endpoint does', async () => {
    const { engine } = setup({});
    const res = await authFetch(engine, `http://evil.example/.well-known/oauth-protected-resource/mcp/guarded`);
    expect(res.status).toBe(403);
    expect((await authFetch(engine, `${ORIGIN}/.well-known/oauth-protected-resource/mcp/guarded`)).status).toBe(200);
  });
});

describe('discovery and registration grades', () => {
  it('fail a client that looks for metadata at the root of an issuer with a path, or registers without refresh_token', async () => {
    const { engine } = setup({});
    expect((await authFetch(engine, `${ORIGIN}/.well-known/oauth-authorization-server`)).status).toBe(404);
    await authFetch(engine, `${ORIGIN}/.well-known/oauth-authorization-server/mcp/guarded/as`);
    await registerClient(engine);
    let g = gradesOf(engine);
    expect(g['authorization-server-metadata-wrong-path']?.status).toBe('fail');
    expect(g['sep-2207-client-metadata-grant-types']?.status).toBe('fail');

    const good = setup({}).engine;
    await authFetch(good, `${ORIGIN}/.well-known/oauth-authorization-server/mcp/guarded/as`);
    await registerClient(good, 1, { grant_types: ['authorization_code', 'refresh_token'] });
    g = gradesOf(good);
    expect(g['authorization-server-metadata-wrong-path']?.status).toBe('pass');
    expect(g['sep-2207-client-metadata-grant-types']?.status).toBe('pass');
  });
});

describe('the resource guards every method', () => {
  it('answers a GET or DELETE on the endpoint without a token 401, before the session rules', async () => {
    const { engine } = setup({});
    for (const method of ['GET', 'DELETE']) {
      const res = await engine.fetch(new Request(`${ORIGIN}/mcp/guarded`, { method, headers: { Host: '127.0.0.1', 'Mcp-Session-Id': 'some-session' } }));
      expect(res.status).toBe(401);
      expect(challengeOf(res.headers.get('www-authenticate')).resource_metadata).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp/guarded`);
    }
  });
});

describe('scope hierarchy', () => {
  it('lets a broad scope stand for the narrower ones it implies', async () => {
    const { engine } = setup({ resource: { toolScopes: { ping: ['notes:write'] }, scopeImplies: { 'notes:admin': ['notes:write'] } } });
    const client = await registerClient(engine);
    const narrow = await authorizeAndExchange(engine, client, 'notes:read');
    expect((await call(engine, 'tools/call', { name: 'ping', arguments: {} }, narrow.accessToken)).status).toBe(403);
    const broad = await authorizeAndExchange(engine, client, 'notes:admin');
    expect((await call(engine, 'tools/call', { name: 'ping', arguments: {} }, broad.accessToken)).status).toBe(200);
  });
});
