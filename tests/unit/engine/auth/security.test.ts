import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../../lib/engine';
import { cimdUrlProblem } from '../../../../lib/engine/auth/cimd';
import type { AuthSpec } from '../../../../lib/scenario/auth-schema';
import { ScenarioSchema } from '../../../../lib/scenario/schema';
import { createFakeClock } from '../../../helpers/fake-clock';
import { ORIGIN, REDIRECT, authFetch, pkce, registerClient } from './scripted-client';

/**
 * The mock authorization server as an attack surface: the Client ID Metadata Document fetch
 * (the one request it makes on an outsider's word) is held short, and the authorize endpoint
 * never redirects anywhere but to a redirect URI registered for the client.
 */

type AuthInput = { server?: Partial<AuthSpec['server']> };
const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(auth: AuthInput): MockEngine {
  const scenario = ScenarioSchema.parse({
    id: 'guarded',
    server: { name: 'guarded', version: '1.0.0' },
    tools: [{ name: 'ping', result: { content: [{ type: 'text', text: 'pong' }] } }],
    auth,
  });
  const engine = createMockEngine({ scenario, clock: createFakeClock() });
  engines.push(engine);
  return engine;
}

const ISSUER = `${ORIGIN}/mcp/guarded/as`;

/** GET /authorize for `clientId` and `redirectUri`, never following a redirect. */
async function authorize(engine: MockEngine, clientId: string, redirectUri: string) {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state: 's',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  });
  const res = await authFetch(engine, `${ISSUER}/authorize?${q}`);
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), csp: res.headers.get('content-security-policy'), text };
}

describe('the Client ID Metadata Document fetch', () => {
  let server: http.Server;
  let base = '';
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      const doc = (extra: Record<string, unknown> = {}) =>
        JSON.stringify({ client_id: `${base}${req.url}`, client_name: 'c', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...extra });
      if (req.url === '/moved.json') {
        res.writeHead(302, { Location: `${base}/good.json` });
        return res.end();
      }
      if (req.url === '/huge.json') {
        // No Content-Length: the cap must hold while reading the stream.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(doc({ padding: 'x'.repeat(70 * 1024) }));
      }
      if (req.url === '/page.json') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end(doc());
      }
      if (req.url === '/hang.json') return; // never answers
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(doc());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  it('accepts a small JSON document and refuses, with the reason, one behind a redirect, too large or not JSON', async () => {
    const engine = setup({ server: { cimd: true } });
    expect((await authorize(engine, `${base}/good.json`, REDIRECT)).status).toBe(302);

    hits.length = 0;
    const moved = await authorize(engine, `${base}/moved.json`, REDIRECT);
    expect([moved.status, moved.location]).toEqual([400, null]);
    expect(JSON.parse(moved.text)).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('redirect') });
    // The redirect's target was never fetched.
    expect(hits).toEqual(['/moved.json']);

    const huge = await authorize(engine, `${base}/huge.json`, REDIRECT);
    expect([huge.status, JSON.parse(huge.text).error_description]).toEqual([400, 'the client metadata document is larger than 64 KiB']);
    const page = await authorize(engine, `${base}/page.json`, REDIRECT);
    expect([page.status, JSON.parse(page.text).error_description]).toEqual([400, 'the client metadata document must be application/json, not text/html']);
  });

  it('gives up on a document server that never answers', async () => {
    const engine = setup({ server: { cimd: true } });
    const hang = await authorize(engine, `${base}/hang.json`, REDIRECT);
    expect([hang.status, hang.location]).toEqual([400, null]);
    expect(JSON.parse(hang.text).error_description).toBe('fetching the client metadata document took longer than 5 s');
  }, 15_000);

  it('never fetches a URL outside https-with-a-path or loopback', async () => {
    for (const [url, why] of [
      ['http://example.com/client.json', 'must be https'],
      ['https://example.com/', 'must have a path'],
      ['https://user:pw@example.com/client.json', 'user name or password'],
      ['https://example.com/client.json#x', 'fragment'],
      ['https://10.1.2.3/client.json', 'private address'],
      ['https://169.254.169.254/latest/meta-data', 'private address'],
      ['https://[fd00::1]/client.json', 'private address'],
      ['file:///etc/passwd', 'must be https'],
    ] as const)
      expect(cimdUrlProblem(url), url).toContain(why);
    for (const ok of ['https://app.example.com/oauth/client.json', 'https://fd.example.com/c.json', 'http://127.0.0.1:8/c.json', 'http://localhost/c.json'])
      expect(cimdUrlProblem(ok), ok).toBeUndefined();
    const engine = setup({ server: { cimd: true } });
    const refused = await authorize(engine, 'https://169.254.169.254/latest/meta-data', REDIRECT);
    expect([refused.status, JSON.parse(refused.text).error]).toEqual([400, 'invalid_client']);
  });
});

describe('the authorize endpoint is not an open redirect', () => {
  it('answers an unregistered or altered redirect_uri with an error page, never a redirect; only a loopback IP port may differ', async () => {
    const engine = setup({ server: { clients: [{ clientId: 'listed', redirectUris: ['http://127.0.0.1:4000/cb'] }, { clientId: 'local-tool' }] } });
    const client = await registerClient(engine);
    expect((await authorize(engine, client.clientId, REDIRECT)).status).toBe(302);
    for (const [id, uri] of [
      [client.clientId, 'https://evil.example.com/callback'],
      [client.clientId, `${REDIRECT}?next=https://evil.example.com`],
      [client.clientId, `${REDIRECT}/`],
      [client.clientId, REDIRECT.replace('127.0.0.1', 'localhost')],
      [client.clientId, 'http://127.0.0.1:9999/other'],
      [client.clientId, 'http://127.0.0.1:9999/x/../callback'],
      [client.clientId, 'https://127.0.0.1:9999/callback'],
      ['listed', 'http://127.0.0.1:4000/cb2'],
      // A pre-registered local tool may use any loopback port (RFC 8252 §7.3), but nothing else.
      ['local-tool', 'https://evil.example.com/callback'],
      ['nobody', REDIRECT],
    ] as const) {
      const r = await authorize(engine, id, uri);
      expect([r.status, r.location], `${id} → ${uri}`).toEqual([400, null]);
      expect(JSON.parse(r.text).error).toMatch(/^invalid_(request|client)$/);
    }
    // A loopback IP redirect matches on any port (OAuth 2.1 §2.3.1, RFC 8252 §7.3): the client listens where it can.
    const moved = await authorize(engine, client.clientId, 'http://127.0.0.1:40123/callback');
    expect([moved.status, new URL(moved.location ?? '').origin]).toEqual([302, 'http://127.0.0.1:40123']);
    expect((await authorize(engine, 'local-tool', 'http://127.0.0.1:51234/callback')).status).toBe(302);
    expect((await authorize(engine, 'listed', 'http://127.0.0.1:4000/cb')).status).toBe(302);
  });

  it('refuses to register a redirect URI that is not https or loopback, or has a fragment', async () => {
    for (const uri of ['http://evil.example.com/cb', 'javascript:alert(1)', `${REDIRECT}#frag`]) {
      const reg = await registerClient(setup({}), 1, { redirect_uris: [uri] });
      expect(reg.status, uri).toBe(400);
    }
  });

  it('lets the consent page post to itself and be redirected to the client only', async () => {
    const engine = setup({ server: { consent: 'manual' } });
    const client = await registerClient(engine);
    const page = await authorize(engine, client.clientId, REDIRECT);
    expect(page.status).toBe(200);
    expect(page.csp).toContain("form-action 'self' http://127.0.0.1:9999;");
    expect(page.csp).toContain("frame-ancestors 'none'");
  });
});
