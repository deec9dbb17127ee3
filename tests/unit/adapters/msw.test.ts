import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createMswHandlers } from '../../../lib/adapters/msw';
import { connectWithOAuth, MemoryOAuthProvider } from '../../helpers/oauth';

/**
 * `mcp-loupe/msw`: the engine behind MSW's `setupServer`, serving a strict independent client
 * (the official SDK v2 pinned to 2026-07-28) with no port and no process.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function serve(...args: Parameters<typeof createMswHandlers>) {
  const { handlers, engine } = createMswHandlers(...args);
  const server = setupServer(...handlers);
  server.listen({ onUnhandledFrame: 'error' });
  cleanups.push(
    () => server.close(),
    () => engine.close(),
  );
  return engine;
}

async function connect(url: string) {
  const client = new Client(
    { name: 'msw-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

describe('createMswHandlers', () => {
  it('serves the demo scenario to @modelcontextprotocol/client pinned to 2026-07-28', async () => {
    const engine = serve('demo');
    const client = await connect('http://localhost/mcp');
    expect(client.getServerVersion()).toMatchObject({ name: 'loupe-demo' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['charge', 'delete_note', 'echo', 'generate_report']));
    expect(await client.callTool({ name: 'echo', arguments: { text: 'through msw' } })).toMatchObject({ content: [{ type: 'text', text: 'through msw' }] });
    // MRTR through MSW: the SDK answers the confirmation and echoes requestState on its retry.
    const deleted = await client.callTool({ name: 'delete_note', arguments: { noteId: 'note-4' } });
    expect(deleted.structuredContent).toMatchObject({ deleted: true, noteId: 'note-4' });

    // The engine journaled every request, and grades the SDK on what it did.
    const methods = engine.journal.entries().map((e) => e.method);
    expect(methods).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    const card = engine.reportCard();
    expect(card.grades.find((g) => g.id === 'request-state-echo')).toMatchObject({ status: 'pass' });
    expect(card.grades.filter((g) => g.status === 'fail')).toEqual([]);
  });

  it('accepts the host of a custom URL and serves a scenario object', async () => {
    serve(
      {
        id: 'custom',
        server: { name: 'custom-mock', version: '2.0.0' },
        tools: [{ name: 'ping', inputSchema: { type: 'object' }, result: { content: [{ type: 'text', text: 'pong' }] } }],
      },
      { url: 'https://mcp.example.test/api/mcp' },
    );
    const client = await connect('https://mcp.example.test/api/mcp');
    expect(client.getServerVersion()).toMatchObject({ name: 'custom-mock', version: '2.0.0' });
    expect(await client.callTool({ name: 'ping', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'pong' }] });
  });

  it('answers non-POST with 405, and checks Origin only when allowedOrigins is given', async () => {
    serve('demo');
    expect((await fetch('http://localhost/mcp')).status).toBe(405);
    const discover = (origin: string) =>
      fetch('http://localhost/mcp', {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
        }),
      });
    // In a page, MSW only sees that page's own requests: any Origin is fine by default.
    expect((await discover('https://app.example.test')).status).toBe(200);
    for (const c of cleanups.splice(0).reverse()) c();
    serve('demo', { allowedOrigins: ['https://app.example.test'] });
    expect((await discover('https://app.example.test')).status).toBe(200);
    expect((await discover('https://evil.example.test')).status).toBe(403);
  });

  it('rejects a URL that is not absolute', () => {
    expect(() => createMswHandlers('demo', { url: '/mcp' })).toThrow(/Failed to create MSW handlers/);
    expect(() => createMswHandlers('nope')).toThrow(/no built-in scenario "nope"/);
  });
});

describe('createMswHandlers with an auth: block', () => {
  it('serves the protected resource, its metadata, the authorization server and the token endpoint as the real mock does', async () => {
    const engine = serve('oauth');
    // The discovery documents, as the real mock lays them out for an endpoint at /mcp.
    const prm = await (await fetch('http://localhost/.well-known/oauth-protected-resource/mcp')).json();
    expect(prm).toMatchObject({ resource: 'http://localhost/mcp', authorization_servers: ['http://localhost/mcp/oauth/as'] });
    const meta = await (await fetch('http://localhost/.well-known/oauth-authorization-server/mcp/oauth/as')).json();
    expect(meta).toMatchObject({ issuer: 'http://localhost/mcp/oauth/as', token_endpoint: 'http://localhost/mcp/oauth/as/token' });
    expect((await fetch('http://localhost/.well-known/oauth-protected-resource')).status).toBe(404);
    // Another document of the origin is not the mock's to answer: MSW calls it unhandled.
    await expect(fetch('http://localhost/.well-known/security.txt')).rejects.toThrow();

    // The SDK v2 client runs its own OAuth against it: 401, discovery, DCR, PKCE, token, then the call.
    const provider = new MemoryOAuthProvider('msw-oauth');
    const { client } = await connectWithOAuth(new URL('http://localhost/mcp'), provider, 'msw-oauth');
    expect(provider.callback?.searchParams.get('iss')).toBe('http://localhost/mcp/oauth/as');
    cleanups.push(() => client.close());
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'Authorized: your token carries notes:read.' }],
    });

    const methods = engine.journal.entries().map((e) => e.method);
    expect(methods).toEqual(expect.arrayContaining(['oauth:prm', 'oauth:as-metadata', 'oauth:register', 'oauth:authorize', 'oauth:token']));
    const grades = Object.fromEntries(engine.reportCard().grades.map((g) => [g.id, g.status]));
    for (const id of ['authorization-server-metadata', 'pkce-s256-method-used', 'pkce-verifier-matches-challenge', 'resource-parameter-in-token'])
      expect(grades[id], id).toBe('pass');
  });

  it('says so when the endpoint is where the discovery documents cannot describe it', () => {
    expect(() => createMswHandlers('oauth', { url: 'https://api.example.test/v1/mcp' })).toThrow(/has an auth: block.*\/mcp or \/mcp\/oauth/);
    createMswHandlers('oauth', { url: 'https://api.example.test/mcp/oauth' }).engine.close();
  });
});
