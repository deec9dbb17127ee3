import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../lib/client/frames';
import { createTapObserver } from '../../lib/recording/tap-frames';
import { startHttpTap } from '../../lib/server/tap-http';

/**
 * The HTTP tap against a raw node:http upstream, to see the wire itself: bodies and odd
 * whitespace byte for byte both ways, status codes and end-to-end headers as-is, hop-by-hop ones
 * dropped, and an SSE stream delivered event by event (the upstream waits for the client to have
 * the first event before sending the second, so a buffering tap would hang here).
 */

let upstream: http.Server;
let upstreamUrl: string;
let tap: Awaited<ReturnType<typeof startHttpTap>>;
const frames: Frame[] = [];
const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let releaseSecond: () => void = () => {};

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/mcp' && req.method === 'POST' && req.headers['x-want'] === 'stream') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'X-Stream': 'yes' });
        res.write('data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n');
        releaseSecond = () => res.end('data: {"jsonrpc":"2.0","id":5,"result":{"content":[]}}\n\n');
        return;
      }
      if (req.method === 'DELETE') {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(418, { 'Content-Type': 'application/json', 'X-Custom': 'kept', 'Keep-Alive': 'timeout=99', 'Set-Cookie': 'a=b' });
      res.end('{ "jsonrpc" : "2.0",  "id":1, "result": {"odd":"spacing"} }');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  tap = await startHttpTap({
    upstream: new URL(upstreamUrl),
    host: '127.0.0.1',
    port: 0,
    observer: createTapObserver({ sink: (f) => frames.push(f), connectionId: 't' }),
  });
});
afterAll(async () => {
  await tap?.close();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
});

describe('HTTP tap on the wire', () => {
  it('relays the request and the response byte for byte, status and end-to-end headers as-is', async () => {
    const sent = '{"jsonrpc":"2.0",   "id":1,"method":"tools/list"}';
    const res = await fetch(tap.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer abc', 'X-Client': 'c1' },
      body: sent,
    });
    expect(res.status).toBe(418);
    expect(await res.text()).toBe('{ "jsonrpc" : "2.0",  "id":1, "result": {"odd":"spacing"} }');
    expect(res.headers.get('x-custom')).toBe('kept');
    expect(res.headers.get('set-cookie')).toBe('a=b');
    expect(res.headers.get('keep-alive')).not.toBe('timeout=99');
    const got = seen.at(-1)!;
    expect(got.body).toBe(sent);
    expect(got.headers).toMatchObject({ authorization: 'Bearer abc', 'x-client': 'c1', host: new URL(upstreamUrl).host });
    const mine = frames.filter((f) => f.exchangeId === 't:1');
    expect(mine.map((f) => f.kind)).toEqual(['http-request', 'http-response', 'message']);
    expect(mine[2]).toMatchObject({ raw: '{ "jsonrpc" : "2.0",  "id":1, "result": {"odd":"spacing"} }', body: { result: { odd: 'spacing' } } });
  });

  it('streams SSE events as they come, before the upstream has finished', async () => {
    const res = await fetch(tap.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Want': 'stream' },
      body: '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow"}}',
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value, { stream: true });
    expect(text).toBe('data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n');
    releaseSecond();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text.endsWith('data: {"jsonrpc":"2.0","id":5,"result":{"content":[]}}\n\n')).toBe(true);
    await expect
      .poll(() => {
        const exchange = frames.find((f) => f.kind === 'http-request' && f.method === 'tools/call')?.exchangeId;
        return frames.filter((f) => f.exchangeId === exchange).map((f) => f.kind);
      })
      .toEqual(['http-request', 'http-response', 'sse-open', 'sse-frame', 'sse-frame', 'sse-close']);
    expect(frames.find((f) => f.kind === 'sse-close' && f.method === 'tools/call')).toMatchObject({ closeReason: 'complete' });
  });

  it('relays DELETE and a 204, and refuses a non-loopback Host', async () => {
    const del = await fetch(tap.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': 's-1' } });
    expect(del.status).toBe(204);
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 's-1' } });
    const before = seen.length;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(tap.url, { method: 'POST', headers: { Host: 'evil.example', 'Content-Type': 'application/json' } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
    expect(seen.length).toBe(before);
  });
});
