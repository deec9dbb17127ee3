import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../lib/scenario/schema';
import { startCliMock } from '../helpers/processes';
import { controlApi } from './http-target';
import { send } from './wire';

/**
 * The CLI mock's fast path, as a client sees it: a direct answer is one complete body with its
 * length (not chunked), the journal still keeps both sides of every exchange, and a client that
 * leaves a slow call still cancels it although the fast path makes its abort signal only on demand.
 */

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const SCENARIO: ScenarioInput = {
  id: 'hot',
  server: { name: 'hot', version: '1.0.0' },
  tools: [
    { name: 'greet', inputSchema: { type: 'object' }, result: text('Hello, {{args.name}}!') },
    // Far longer than the test: only a cancellation ends it in time.
    { name: 'slow', inputSchema: { type: 'object' }, delayMs: 600_000, result: text('too late') },
  ],
};

interface Entry {
  seq: number;
  method?: string;
  status?: number;
  requestBody?: { params?: { name?: string; arguments?: Record<string, unknown> } };
  responseBody?: { result?: unknown; error?: { message: string } };
}

let dir: string;
let mock: Awaited<ReturnType<typeof startCliMock>>;
let url: string;
const journal = async () => (await controlApi(mock.url.replace(/\/mcp.*$/, ''), mock.token!, '/api/scenarios/hot/journal', 'GET')).json.entries as Entry[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-hot-'));
  const file = path.join(dir, 'hot.yaml');
  fs.writeFileSync(file, stringify(SCENARIO));
  mock = await startCliMock([file, '--data-dir', path.join(dir, 'data')]);
  url = mock.url.replace(/\/mcp(\/.*)?$/, '/mcp/hot');
});

afterAll(async () => {
  await mock?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the CLI mock hot path', () => {
  it('answers a direct tools/call with one sized body and journals request and response', async () => {
    const r = await send(url, 'tools/call', { name: 'greet', arguments: { name: 'Ada' } });
    await r.drain();
    expect(r.status).toBe(200);
    expect(r.response.headers.get('transfer-encoding')).toBeNull();
    expect(Number(r.response.headers.get('content-length'))).toBe(Buffer.byteLength(r.text()));
    expect(JSON.parse(r.text())).toMatchObject({ id: r.id, result: text('Hello, Ada!') });
    const entry = (await journal()).find((e) => e.method === 'tools/call' && e.requestBody?.params?.name === 'greet');
    expect(entry).toMatchObject({ status: 200, requestBody: { params: { arguments: { name: 'Ada' } } }, responseBody: { result: text('Hello, Ada!') } });
  });

  it('answers 400 to a Host and target that make no URL and 403 to a foreign Host, also right after a good request, and serves odd but valid targets', async () => {
    const post = (target: string, hostHeader: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { port } = new URL(url);
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'greet',
            arguments: { name: 'Bo' },
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
          },
        });
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: target,
            method: 'POST',
            setHost: false,
            headers: {
              Host: hostHeader,
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              'MCP-Protocol-Version': '2026-07-28',
              'Mcp-Method': 'tools/call',
              'Mcp-Name': 'greet',
              'Content-Length': Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const good = `127.0.0.1:${new URL(url).port}`;
    expect((await post('/mcp/hot', good)).status).toBe(200);
    const bad = await post('/mcp/hot', 'a:b');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('do not form a URL');
    // Characters a plain path does not have, in a target that still makes a URL: served.
    const odd = await post("/mcp/hot?q='x'", good);
    expect(odd.status).toBe(200);
    expect(JSON.parse(odd.body)).toMatchObject({ result: text('Hello, Bo!') });
    expect((await post('/mcp/hot', good)).status).toBe(200);
    // The Host check remembers the last host that passed, and only that one.
    const foreign = await post('/mcp/hot', 'evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('Host header is not a loopback name');
    expect((await post('/mcp/hot', `localhost:${new URL(url).port}`)).status).toBe(200);
    expect((await post('/mcp/hot', `evil.example:${new URL(url).port}`)).status).toBe(403);
  });

  it('reads a body that arrives in pieces, and shrugs off one cut short', async () => {
    const { port } = new URL(url);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'pieces',
      method: 'tools/call',
      params: {
        name: 'greet',
        arguments: { name: 'Piece' },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    });
    const head = (length: number) =>
      `POST /mcp/hot HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: greet\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
    const tick = () => new Promise((r) => setTimeout(r, 20));
    // Three separate writes, each its own chunk on the server.
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (answer += c));
    const closed = new Promise((r) => socket.on('close', r));
    socket.write(head(Buffer.byteLength(body)));
    for (const part of [body.slice(0, 40), body.slice(40, 90), body.slice(90)]) {
      await tick();
      socket.write(part);
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ id: 'pieces', result: text('Hello, Piece!') });
    // A body that stops short of its declared length, then the client leaves.
    const cut = net.connect(Number(port), '127.0.0.1');
    cut.write(head(1000) + body.slice(0, 30));
    await tick();
    cut.destroy();
    await tick();
    const after = await send(url, 'tools/call', { name: 'greet', arguments: { name: 'After' } });
    await after.drain();
    expect(after.status).toBe(200);
    expect(JSON.parse(after.text())).toMatchObject({ result: text('Hello, After!') });
  });

  it('cancels a slow call when its client goes away', async () => {
    const ac = new AbortController();
    const request = fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'slow',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'slow-1',
        method: 'tools/call',
        params: {
          name: 'slow',
          arguments: {},
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
      signal: ac.signal,
    }).catch((e: unknown) => e);
    const slow = async () => (await journal()).find((e) => e.requestBody?.params?.name === 'slow');
    // The server has the request once the journal shows it, still unanswered.
    while (!(await slow())) await new Promise((r) => setTimeout(r, 50));
    expect((await slow())?.status).toBeUndefined();
    ac.abort();
    expect(await request).toBeInstanceOf(Error);
    // Without the disconnect reaching the tool, this entry stays open for ten minutes.
    while ((await slow())?.status === undefined) await new Promise((r) => setTimeout(r, 50));
    expect((await slow())?.responseBody?.error?.message).toBe('Request cancelled');
  });
});
