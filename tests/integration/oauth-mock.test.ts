import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { UnauthorizedError as V1UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeAndExchange, connectWithOAuth, MemoryOAuthProvider, registerClient } from '../helpers/oauth';
import { startCliMock, type Started } from '../helpers/processes';

/**
 * `mcp-loupe mock oauth` over real HTTP: the official SDK v2 client, with its own OAuth
 * implementation, discovers the authorization server, registers, authorizes with PKCE and calls
 * a tool, then steps up for write_note; the report card grades it. A raw-fetch client that skips
 * PKCE and `resource` gets the failing grades.
 */

type Grade = { id: string; status: string; evidence: number[] };

async function reportCard(mock: Started): Promise<Record<string, Grade>> {
  const res = await fetch(new URL('/api/scenarios/oauth/report-card', mock.url), { headers: { Authorization: `Bearer ${mock.token}` } });
  const card = (await res.json()) as { grades: Grade[] };
  return Object.fromEntries(card.grades.map((g) => [g.id, g]));
}

describe('mcp-loupe mock oauth', () => {
  let dataDir: string;
  let mock: Started;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-oauth-'));
    mock = await startCliMock(['oauth', '--data-dir', dataDir, '--store', 'memory']);
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets the SDK v2 client authorize, call a tool, step up, and grades it passing', async () => {
    const provider = new MemoryOAuthProvider('sdk-v2-test');
    const { client, transport } = await connectWithOAuth(new URL(mock.url), provider);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.content).toEqual([{ type: 'text', text: 'Authorized: your token carries notes:read.' }]);

    // write_note answers 403 insufficient_scope: the SDK re-authorizes with the union of scopes.
    const before = provider.authorizeUrls.length;
    const stepUp = await client.callTool({ name: 'write_note', arguments: { text: 'from the SDK' } }).catch(async (e: unknown) => {
      if (!(e instanceof UnauthorizedError)) throw e;
      await transport.finishAuth(provider.callback!.searchParams);
      return client.callTool({ name: 'write_note', arguments: { text: 'from the SDK' } });
    });
    expect(stepUp.content).toEqual([{ type: 'text', text: 'Saved: from the SDK' }]);
    const reauth = provider.authorizeUrls.at(-1)!;
    expect(provider.authorizeUrls.length).toBe(before + 1);
    expect(reauth.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['notes:read', 'notes:write']));
    await client.close();

    const g = await reportCard(mock);
    for (const id of [
      'authorization-server-metadata',
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
    ])
      expect(g[id], id).toMatchObject({ status: 'pass' });
  });

  it('serves a 2025-11-25 client (SDK 1.32.2 and its OAuth) through the same flow', async () => {
    expect((await fetch(new URL('/api/scenarios/oauth/reset', mock.url), { method: 'POST', headers: { Authorization: `Bearer ${mock.token}` } })).status).toBe(
      200,
    );
    const provider = new MemoryOAuthProvider('sdk-v1-test');
    const url = new URL(mock.url);
    const client = new V1Client({ name: 'sdk-v1-oauth', version: '1.0.0' });
    const first = new V1Transport(url, { authProvider: provider as never });
    await expect(client.connect(first)).rejects.toBeInstanceOf(V1UnauthorizedError);
    await first.finishAuth(provider.callback?.searchParams.get('code') ?? '');
    await client.connect(new V1Transport(url, { authProvider: provider as never }));
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.content).toEqual([{ type: 'text', text: 'Authorized: your token carries notes:read.' }]);
    await client.close();
    const g = await reportCard(mock);
    for (const id of ['pkce-s256-method-used', 'pkce-verifier-matches-challenge', 'resource-parameter-in-token'])
      expect(g[id], id).toMatchObject({ status: 'pass' });
  });

  it('grades a raw client without PKCE or resource as failing', async () => {
    // A fresh journal: only this client's exchanges are graded.
    expect((await fetch(new URL('/api/scenarios/oauth/reset', mock.url), { method: 'POST', headers: { Authorization: `Bearer ${mock.token}` } })).status).toBe(
      200,
    );
    const issuer = `${new URL(mock.url).origin}/mcp/oauth/as`;
    const client = await registerClient(fetch, issuer, { application_type: undefined });
    // The mock requires PKCE: the refusal comes back to the redirect URI, and without a code the token step fails.
    const refused = await authorizeAndExchange(fetch, client, mock.url, 'notes:read', { noPkce: true, noResource: true }).then(
      () => undefined,
      (e: { location?: URL; status?: number }) => e,
    );
    expect(refused?.location?.searchParams.get('error')).toBe('invalid_request');
    expect(refused?.status).toBe(400);
    const g = await reportCard(mock);
    for (const id of [
      'pkce-code-challenge-sent',
      'pkce-s256-method-used',
      'pkce-code-verifier-sent',
      'pkce-verifier-matches-challenge',
      'resource-parameter-in-authorization',
      'resource-parameter-in-token',
      'sep-837-application-type-present',
    ])
      expect(g[id], id).toMatchObject({ status: 'fail' });
  });
});
