import { expect, it } from 'vitest';

/**
 * One behavioural contract for every way the engine is hosted. Each adapter provides
 * `send`, a raw HTTP exchange, so header-level behaviour (Host, content type, size) is
 * observed exactly as a client would see it.
 */

export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}
export type Send = (req: RawRequest) => Promise<RawResponse>;

const META = (caps: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': caps,
});

export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(name ? { 'Mcp-Name': name } : {}),
  };
}

export function rpcBody(id: number | string, method: string, params: Record<string, unknown> = {}, caps?: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...META(caps), ...((params._meta as object) ?? {}) } } });
}

/** Parse a JSON body or the `data:` lines of an SSE body into messages. */
export function messages(res: RawResponse): Record<string, unknown>[] {
  if (res.headers.get('content-type')?.includes('text/event-stream')) {
    return res.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
  }
  return res.text ? [JSON.parse(res.text)] : [];
}

/**
 * `forgeableHost: false` for hosts where the client cannot choose the Host header (fetch through
 * MSW always sends the URL's host), so the DNS-rebinding check cannot be exercised there.
 */
export function contractSuite(getSend: () => Send, opts: { mcpPath?: string; forgeableHost?: boolean } = {}) {
  const path = opts.mcpPath ?? '/mcp';
  const send = (r: RawRequest) => getSend()({ path, ...r });

  it('answers server/discover with caching hints and serverInfo', async () => {
    const res = await send({ method: 'POST', headers: modernHeaders('server/discover'), body: rpcBody(1, 'server/discover') });
    expect(res.status).toBe(200);
    const [msg] = messages(res) as [{ id: number; result: Record<string, unknown> }];
    expect(msg.id).toBe(1);
    expect(msg.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      ttlMs: 300000,
      cacheScope: 'public',
    });
    expect((msg.result._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'loupe-demo' });
  });

  it('refuses GET and DELETE with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await send({ method, headers: { Accept: 'application/json, text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('answers malformed JSON with -32700 and a non-JSON-RPC body with -32600', async () => {
    const bad = await send({ method: 'POST', headers: modernHeaders('tools/list'), body: '{"jsonrpc":"2.0",' });
    expect(bad.status).toBe(400);
    expect(messages(bad)[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const notRpc = await send({ method: 'POST', headers: modernHeaders('tools/list'), body: '{"hello":"world"}' });
    expect(notRpc.status).toBe(400);
    expect(messages(notRpc)[0]).toMatchObject({ error: { code: -32600 } });
  });

  it('answers a wrong content type with 415', async () => {
    const res = await send({ method: 'POST', headers: { ...modernHeaders('tools/list'), 'Content-Type': 'text/plain' }, body: rpcBody(2, 'tools/list') });
    expect(res.status).toBe(415);
  });

  it('answers an oversized body with 413', async () => {
    const big = rpcBody(3, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } });
    const res = await send({ method: 'POST', headers: modernHeaders('tools/call', 'echo'), body: big });
    expect(res.status).toBe(413);
  });

  it.skipIf(opts.forgeableHost === false)('refuses a non-loopback Host with 403', async () => {
    const res = await send({ method: 'POST', headers: { ...modernHeaders('server/discover'), Host: 'evil.example.com' }, body: rpcBody(4, 'server/discover') });
    expect(res.status).toBe(403);
  });

  it('answers an unknown tool with -32602 and an unknown method with 404/-32601', async () => {
    const tool = await send({ method: 'POST', headers: modernHeaders('tools/call', 'nope'), body: rpcBody(5, 'tools/call', { name: 'nope', arguments: {} }) });
    expect(messages(tool)[0]).toMatchObject({ id: 5, error: { code: -32602 } });
    const method = await send({ method: 'POST', headers: modernHeaders('tasks/list'), body: rpcBody(6, 'tasks/list') });
    expect(method.status).toBe(404);
    expect(messages(method)[0]).toMatchObject({ id: 6, error: { code: -32601 } });
  });

  it('rejects header/body disagreement with 400/-32020 and a bad version with 400/-32022', async () => {
    const mismatch = await send({ method: 'POST', headers: modernHeaders('prompts/list'), body: rpcBody(7, 'tools/list') });
    expect(mismatch.status).toBe(400);
    expect(messages(mismatch)[0]).toMatchObject({ id: 7, error: { code: -32020 } });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/list',
      params: { _meta: { ...META(), 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } },
    });
    const version = await send({ method: 'POST', headers: { ...modernHeaders('tools/list'), 'MCP-Protocol-Version': '1999-01-01' }, body });
    expect(version.status).toBe(400);
    expect(messages(version)[0]).toMatchObject({
      error: { code: -32022, data: { requested: '1999-01-01', supported: expect.arrayContaining(['2026-07-28']) } },
    });
  });

  it('lists tools sorted by name with caching hints', async () => {
    const res = await send({ method: 'POST', headers: modernHeaders('tools/list'), body: rpcBody(9, 'tools/list') });
    const result = (messages(res)[0] as { result: { tools: { name: string }[]; ttlMs: number; cacheScope: string } }).result;
    const names = result.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['charge', 'delete_note', 'generate_report', 'workspace_read']));
    expect(result).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
  });

  it('serves the 2025-11-25 initialize handshake to old clients', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 10,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    const res = await send({ method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body });
    expect(res.status).toBe(200);
    expect(messages(res)[0]).toMatchObject({ id: 10, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'loupe-demo' } } });
  });

  it('opens a listen stream whose first frame is the acknowledgement', async () => {
    const res = await send({
      method: 'POST',
      headers: modernHeaders('subscriptions/listen'),
      body: rpcBody('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      // the adapter closes the stream after the first frame
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const first = messages(res)[0];
    expect(first).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' }, notifications: { toolsListChanged: true } },
    });
  });
}
