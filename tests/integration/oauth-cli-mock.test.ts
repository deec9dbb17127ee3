import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWithUser } from '../helpers/oauth';
import { startCliMock, type Started } from '../helpers/processes';

/**
 * The headless `mcp-loupe` client against `mcp-loupe mock oauth`, both real processes: the
 * client registers with a Client ID Metadata Document, authorizes through its loopback listener
 * (the mock consents at once), steps up for write_note, and the mock's report card grades it
 * passing with evidence. `--store-tokens` keeps the tokens in a 0600 file that the next run
 * reuses without a new authorization, and refreshes when they have expired.
 */

type Grade = { id: string; status: string; evidence: number[] };
type Entry = { method: string; requestBody?: { oauth?: { params?: Record<string, unknown> } } };

let mock: Started;
let docs: http.Server;
let docUrl = '';
let dir = '';

async function control<T>(route: string): Promise<T> {
  const res = await fetch(new URL(`/api/scenarios/oauth/${route}`, mock.url), { headers: { Authorization: `Bearer ${mock.token}` } });
  return (await res.json()) as T;
}
const grades = async () => (await control<{ grades: Grade[] }>('report-card')).grades;
const journal = async () => (await control<{ entries: Entry[] }>('journal')).entries;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-oauth-cli-mock-'));
  // The client's metadata document; a loopback redirect URI matches on any port (RFC 8252 §7.3).
  docs = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(
      JSON.stringify({
        client_id: docUrl,
        client_name: 'mcp-loupe headless',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
  docUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}/client.json`;
  mock = await startCliMock(['oauth', '--store', 'memory', '--data-dir', dir]);
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  await new Promise<void>((r) => (docs ? docs.close(() => r()) : r()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('mcp-loupe (headless) against mcp-loupe mock oauth', () => {
  const store = () => path.join(dir, 'tokens.json');

  it('completes the flow with CIMD, steps up, and the report card grades every auth check it exercised passing', async () => {
    const r = await cliWithUser([
      'call',
      'write_note',
      'text=from the CLI',
      '--url',
      mock.url,
      '--auth',
      '--client-metadata-url',
      docUrl,
      '--store-tokens',
      store(),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('Saved: from the CLI');
    // The first authorization for the challenged scope, the second for the union after the 403.
    expect(r.opened).toHaveLength(2);
    const [first, second] = r.opened.map((u) => new URL(u));
    expect(first?.searchParams.get('client_id')).toBe(docUrl);
    expect(first?.searchParams.get('scope')).toBe('notes:read offline_access');
    expect(second?.searchParams.get('scope')?.split(' ').sort()).toEqual(['notes:read', 'notes:write', 'offline_access']);

    const card = await grades();
    expect(card.filter((g) => g.status === 'fail')).toEqual([]);
    const byId = Object.fromEntries(card.map((g) => [g.id, g]));
    for (const id of [
      'authorization-server-metadata',
      'authorization-server-metadata-wrong-path',
      'prm-priority-order',
      'cimd-client-id-used',
      'token-endpoint-auth-method',
      'pkce-code-challenge-sent',
      'pkce-s256-method-used',
      'pkce-code-verifier-sent',
      'pkce-verifier-matches-challenge',
      'resource-parameter-in-authorization',
      'resource-parameter-in-token',
      'resource-parameter-consistency',
      'scope-from-www-authenticate',
      'scope-step-up-escalation',
      'sep-2350-scope-union-on-reauth',
      'sep-2468-client-compare-iss-supported',
    ]) {
      expect(byId[id], id).toMatchObject({ status: 'pass' });
      expect(byId[id]?.evidence.length, `${id} evidence`).toBeGreaterThan(0);
    }
  });

  it('--store-tokens keeps the tokens in a 0600 file, never printed, and the next runs reuse them, refreshing when expired', async () => {
    const file = store();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ version: 1, server: mock.url, client: { clientId: docUrl, via: 'cimd' } });
    const { accessToken, refreshToken } = saved.tokens as { accessToken: string; refreshToken: string };
    expect(refreshToken).toMatch(/.{16,}/);
    // No temporary file is left beside it.
    expect(fs.readdirSync(dir).filter((f) => f.includes('tokens'))).toEqual(['tokens.json']);

    const authorizations = async () => (await journal()).filter((e) => e.method === 'oauth:authorize').length;
    const before = await authorizations();
    const again = await cliWithUser(['call', 'whoami', '--url', mock.url, '--auth', '--store-tokens', file, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.opened).toEqual([]);
    expect(again.stdout).toContain('Authorized: your token carries notes:read.');
    expect(await authorizations()).toBe(before);
    for (const out of [again.stdout, again.stderr]) {
      expect(out).not.toContain(accessToken);
      expect(out).not.toContain(refreshToken);
    }

    // Time passes: the stored access token has expired. The next run refreshes (rotating the refresh token) instead of asking the person.
    fs.writeFileSync(file, JSON.stringify({ ...saved, tokens: { ...saved.tokens, expiresAt: 1 } }), { mode: 0o600 });
    const later = await cliWithUser(['call', 'whoami', '--url', mock.url, '--auth', '--store-tokens', file, '--json']);
    expect(later.code, later.stderr).toBe(0);
    expect(later.opened).toEqual([]);
    expect(await authorizations()).toBe(before);
    const refreshes = (await journal()).filter((e) => e.method === 'oauth:token' && e.requestBody?.oauth?.params?.grant_type === 'refresh_token');
    expect(refreshes).toHaveLength(1);
    const next = JSON.parse(fs.readFileSync(file, 'utf8')).tokens as { accessToken: string; refreshToken: string; expiresAt: number };
    expect(next.refreshToken).not.toBe(refreshToken);
    expect(next.accessToken).not.toBe(accessToken);
    expect(next.expiresAt).toBeGreaterThan(Date.now());
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    for (const out of [later.stdout, later.stderr]) {
      expect(out).not.toContain(next.accessToken);
      expect(out).not.toContain(next.refreshToken);
    }
  });
});
