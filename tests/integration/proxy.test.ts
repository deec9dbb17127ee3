import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../lib/client/http-transport';
import { createTrackingTransport } from '../../lib/client/tracking';
import { createClientSession } from '../../lib/client/session';
import type { Frame } from '../../lib/client/frames';
import { startCliMock, startApp, type Started } from '../helpers/processes';

/**
 * POST /api/proxy on a real `mcp-loupe mock` and on the app server `npm start` runs:
 * token-gated, http(s) only, never Loupe's own /api, hop-by-hop headers stripped both ways,
 * bytes relayed as they came, SSE streamed back so a session works through it.
 */

const SERVERS = [
  { name: 'mcp-loupe mock', start: (dir: string) => startCliMock(['demo', '--data-dir', dir]) },
  { name: 'the npm start app server', start: (dir: string) => startApp(dir) },
];
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

describe.each(SERVERS)('/api/proxy on $name', ({ start }) => {
  let dataDir: string;
  let mock: Started;
  let base: string;
  let upstream: http.Server;
  let upstreamUrl: string;
  let lastUpstreamHeaders: http.IncomingHttpHeaders = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-proxy-'));
    mock = await start(dataDir);
    base = new URL(mock.url).origin;
    upstream = http.createServer((req, res) => {
      lastUpstreamHeaders = req.headers;
      req.resume();
      if (req.url === '/bytes') {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(BYTES);
        return;
      }
      req.on('end', () => {
        res.writeHead(200, {
          'Content-Type': 'application/json',
          Connection: 'X-Upstream-Private',
          'X-Upstream-Private': 'secret',
          'Keep-Alive': 'timeout=77, max=3',
          'Set-Cookie': 'upstream=1; Path=/',
          'X-Kept': 'yes',
        });
        res.end(JSON.stringify({ path: req.url }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await mock?.stop();
    await new Promise<void>((r) => (upstream ? upstream.close(() => r()) : r()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (envelope: unknown, token: string | null = mock.token!, extra: Record<string, string> = {}) =>
    fetch(`${base}/api/proxy`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...extra },
      body: typeof envelope === 'string' ? envelope : JSON.stringify(envelope),
    });

  const listTools = (url: string) => ({
    url,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });

  it('needs the launch token', async () => {
    const none = await post(listTools(mock.url), null);
    expect(none.status).toBe(401);
    const wrong = await post(listTools(mock.url), 'not-the-token');
    expect(wrong.status).toBe(401);
    const ok = await post(listTools(mock.url));
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((t) => t.name)).toContain('generate_report');
  });

  it('relays a binary body byte for byte', async () => {
    const r = await post({ url: `${upstreamUrl}/bytes`, method: 'POST', headers: {}, body: '' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await r.arrayBuffer()).equals(BYTES)).toBe(true);
  });

  it('only speaks http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x', 'data:text/plain,hi', 'javascript:alert(1)']) {
      const r = await post({ url, method: 'POST', headers: {}, body: '{}' });
      expect(r.status, url).toBe(400);
      expect(r.headers.get('x-loupe-proxy-error')).toBe('scheme');
    }
    const bad = await post('{not json');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-loupe-proxy-error')).toBe('envelope');
  });

  it("refuses Loupe's own control routes under every spelling, but forwards /api of other servers", async () => {
    const port = new URL(base).port;
    for (const url of [
      `${base}/api/scenarios`,
      `http://localhost:${port}/api/scenarios/demo/tasks`,
      `http://127.0.0.1:${port}//api/proxy`,
      `http://127.0.0.1:${port}/%61pi/scenarios`,
      `http://127.0.0.1:${port}/API`,
      `http://[::1]:${port}/api/x`,
      `http://127.0.0.1:${port}/mcp/../api/scenarios`,
    ]) {
      const r = await post({ url, method: 'GET', headers: {} });
      expect(r.status, url).toBe(403);
      expect(r.headers.get('x-loupe-proxy-error'), url).toBe('self');
    }
    const other = await post({ url: `${upstreamUrl}/api/things`, method: 'GET', headers: {} });
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual({ path: '/api/things' });
  });

  it('strips hop-by-hop headers both ways and never relays Set-Cookie', async () => {
    const r = await post({
      url: `${upstreamUrl}/echo`,
      method: 'POST',
      headers: {
        Connection: 'X-Drop-Me',
        'X-Drop-Me': 'dropped',
        'Keep-Alive': 'timeout=1',
        TE: 'trailers',
        Upgrade: 'h2c',
        'Proxy-Authorization': 'Basic c2VjcmV0',
        'Transfer-Encoding': 'chunked',
        Authorization: 'Bearer upstream-token',
        'X-Keep': 'kept',
        'Mcp-Param-Region': 'eu',
      },
      body: '{}',
    });
    expect(r.status).toBe(200);
    expect(lastUpstreamHeaders).toMatchObject({ authorization: 'Bearer upstream-token', 'x-keep': 'kept', 'mcp-param-region': 'eu' });
    for (const h of ['x-drop-me', 'keep-alive', 'te', 'upgrade', 'proxy-authorization', 'transfer-encoding'])
      expect(lastUpstreamHeaders, h).not.toHaveProperty([h]);
    expect(String(lastUpstreamHeaders.connection ?? '')).not.toMatch(/x-drop-me/i);
    expect(r.headers.get('x-kept')).toBe('yes');
    for (const h of ['x-upstream-private', 'set-cookie']) expect(r.headers.get(h), h).toBeNull();
    // Loupe's own server may add its Keep-Alive; the upstream's never passes through.
    expect(r.headers.get('keep-alive') ?? '').not.toContain('timeout=77');
  });

  it('caps the envelope size', async () => {
    const r = await post({ url: `${upstreamUrl}/big`, method: 'POST', headers: {}, body: 'x'.repeat(1024 * 1024 + 10) });
    expect(r.status).toBe(413);
    expect(r.headers.get('x-loupe-proxy-error')).toBe('too-large');
  });

  it('carries a whole task session, SSE listen stream included, through the proxy transport', async () => {
    const frames: Frame[] = [];
    const transport = createTrackingTransport(createHttpTransport({ url: mock.url, proxy: { endpoint: `${base}/api/proxy`, token: mock.token } }), {
      sink: (f) => frames.push(f),
    });
    const session = createClientSession({ transport, era: 'auto', capabilities: { elicitation: { form: {} } } });
    const created = await session.callTool('generate_report', { size: 'small' }, { task: true });
    expect(created.type).toBe('task');
    const task = (created as { task: { taskId: string; status: 'working'; createdAt: string; lastUpdatedAt: string; ttlMs: number } }).task;
    const f = session.followTask(task, {
      listen: true,
      answer: async () => ({ approve_outline: { action: 'accept', content: { approved: true } } }),
      waitMs: 30_000,
    });
    const end = await f.done;
    expect(end).toMatchObject({ kind: 'terminal', task: { status: 'completed' } });
    expect(transport.kind).toBe('proxy');
    // The listen's acknowledgement and task snapshots arrived as SSE frames through the proxy.
    expect(frames.some((x) => x.kind === 'sse-frame' && x.method === 'notifications/subscriptions/acknowledged')).toBe(true);
    expect(frames.some((x) => x.kind === 'sse-frame' && x.method === 'notifications/tasks' && x.taskId === task.taskId)).toBe(true);
    expect(frames.find((x) => x.kind === 'http-request')!.headers).toMatchObject({ 'mcp-method': 'server/discover' });
  });
});
