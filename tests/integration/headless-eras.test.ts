import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHeadlessSession, stubAnswerer } from '../../lib/client/headless';
import { ROOT } from '../helpers/processes';

/**
 * The headless client's era detection and its 2025-11-25 side, against real HTTP servers: a
 * server that answers every unknown method with an empty result must get `initialize` (only a
 * DiscoverResult or a modern error means 2026-07-28); a 2025-era --protocol-version is never
 * stamped on a modern probe; a 401 says authorization is required; and the official SDK 1.32.2
 * server's elicitation/create on a request's stream is answered from the stubs.
 */

interface Seen {
  method: string;
  version?: string;
  header?: string;
  session?: string;
}

/** A 2025-era server that answers `{}` to every method it does not know (as many do). */
function emptyResultServer(status = 200) {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const msg = JSON.parse(raw) as { id?: number; method: string; params?: { protocolVersion?: string; _meta?: Record<string, unknown> } };
    seen.push({
      method: msg.method,
      version: msg.params?.protocolVersion ?? (msg.params?._meta?.['io.modelcontextprotocol/protocolVersion'] as string | undefined),
      header: req.headers['mcp-protocol-version'] as string | undefined,
      session: req.headers['mcp-session-id'] as string | undefined,
    });
    if (status === 401) return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    if (msg.id === undefined) return void res.writeHead(202).end();
    const result =
      msg.method === 'initialize'
        ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'empty-answers', version: '1.0.0' } }
        : msg.method === 'tools/list'
          ? { tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }
          : {};
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sess-1' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
  });
  return { server, seen };
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('era detection against a server that answers {} to unknown methods', () => {
  it('takes {} to server/discover as legacy and initializes', async () => {
    const { server, seen } = emptyResultServer();
    servers.push(server);
    const warnings: string[] = [];
    const session = createHeadlessSession({ url: await listen(server), era: 'auto', onWarning: (w) => warnings.push(w) });
    const tools = await session.listTools();
    session.close();
    expect(tools.outcome.type).toBe('complete');
    expect(tools.tools.map((t) => t.name)).toEqual(['ping']);
    expect(session.era).toBe('legacy');
    expect(seen.map((s) => s.method)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    expect(seen[0]?.version).toBe('2026-07-28');
    expect(seen[3]).toMatchObject({ header: '2025-11-25', session: 'sess-1' });
    expect(warnings.join('\n')).toContain('not a DiscoverResult');
  });

  it('with --era auto and a 2025-11-25 version, never sends server/discover stamped 2025-11-25', async () => {
    const { server, seen } = emptyResultServer();
    servers.push(server);
    const session = createHeadlessSession({ url: await listen(server), era: 'auto', protocolVersion: '2025-11-25' });
    const tools = await session.listTools();
    session.close();
    expect(tools.outcome.type).toBe('complete');
    expect(seen.filter((s) => s.method === 'server/discover')).toEqual([]);
    expect(seen[0]).toMatchObject({ method: 'initialize', version: '2025-11-25' });
    expect(session.era).toBe('legacy');
  });

  it('a 401 during the probe says authorization is required and does not fall back', async () => {
    const { server, seen } = emptyResultServer(401);
    servers.push(server);
    const session = createHeadlessSession({ url: await listen(server), era: 'auto' });
    const out = await session.discover();
    session.close();
    expect(out.type).toBe('failure');
    expect(out.type === 'failure' && out.reason).toBe('auth');
    expect(out.type === 'failure' && out.message).toContain('authorization required');
    expect(seen.map((s) => s.method)).toEqual(['server/discover']);
  });
});

describe('the official SDK 1.32.2 server (2025-11-25) over Streamable HTTP', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [path.join(ROOT, 'tests/fixtures/servers/sdk1-elicit.mjs'), '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout?.on('data', (d) => {
        out += d;
        const m = /listening (\d+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
    });
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => {
    child?.kill();
  });

  it('answers elicitation/create on the call stream with the stub, schema defaults filled in', async () => {
    const stubs = { elicit: { confirm: true } };
    const session = createHeadlessSession({ url, era: 'auto', capabilities: { elicitation: { form: {} } }, onServerRequest: stubAnswerer(stubs) });
    const out = await session.callTool('confirm_delete', { id: 'n1' });
    session.close();
    expect(session.era).toBe('legacy');
    expect(out.type).toBe('complete');
    const text = out.type === 'complete' ? JSON.stringify(out.result.content) : '';
    expect(text).toContain('elicitation accept');
    expect(text).toContain('\\"confirm\\":true');
    expect(text).toContain('\\"reason\\":\\"tidy\\"');
  });

  it('without a stub the elicitation is cancelled, and the call still ends', async () => {
    const session = createHeadlessSession({ url, era: 'auto', capabilities: { elicitation: { form: {} } }, onServerRequest: stubAnswerer({}) });
    const out = await session.callTool('confirm_delete', { id: 'n2' });
    session.close();
    expect(out.type === 'complete' && JSON.stringify(out.result.content)).toContain('elicitation cancel');
  });
});
