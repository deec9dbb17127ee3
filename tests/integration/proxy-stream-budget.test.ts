import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../lib/client/http-transport';
import { PROXY_ANSWER_BYTES } from '../../lib/protocol/loupe-api';
import type { TransportEvent } from '../../lib/client/transport';
import { startCliMock, type Started } from '../helpers/processes';

/**
 * An upstream whose SSE answer never ends is cut by the proxy at its byte budget (one rule for
 * any answer, PROXY_ANSWER_BYTES: 32 MiB, twice the page's own, the same as for a JSON body): the inspector's
 * transport sees the events up to the cut, then an SSE comment saying where and why, then a
 * dropped stream; the upstream's connection is closed.
 */

const BUDGET = PROXY_ANSWER_BYTES;
let mock: Started;
let dataDir: string;
let upstream: http.Server;
let upstreamUrl: string;
let upstreamClosed: Promise<void>;
// Endless: one 60 KB notification after another, as fast as the reader takes them.
const event = Buffer.from(
  `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(60_000) } })}\n\n`,
);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-stream-budget-'));
  mock = await startCliMock(['demo', '--data-dir', dataDir]);
  let closed: () => void = () => {};
  upstreamClosed = new Promise((r) => (closed = r));
  upstream = http.createServer((req, res) => {
    req.resume();
    if (req.url?.endsWith('/json')) {
      // A JSON answer one byte over the same budget.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(Buffer.alloc(BUDGET + 1, 0x20));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.on('close', closed);
    const pump = () => {
      while (!res.destroyed && res.write(event));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
});
afterAll(async () => {
  await mock?.stop();
  upstream?.closeAllConnections();
  await new Promise<void>((r) => (upstream ? upstream.close(() => r()) : r()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('an endless stream through the proxy', () => {
  it('is cut at the byte budget, with the cut shown as the last frame and the stream dropped', { timeout: 120_000 }, async () => {
    // The page's own budget (16 MiB) would cut first; this test is about the proxy's.
    const transport = createHttpTransport({
      url: upstreamUrl,
      proxy: { endpoint: new URL('/api/proxy', mock.url).href, token: mock.token },
      streamByteBudget: 2 * BUDGET,
    });
    let messages = 0;
    let relayedChars = 0;
    let last: TransportEvent | undefined;
    const tail: TransportEvent[] = [];
    for await (const ev of transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })) {
      if (ev.type === 'message') {
        messages++;
        relayedChars += ev.raw.length;
      }
      if (ev.type !== 'message') tail.push(ev);
      last = ev;
    }
    const comment = tail.find((e) => e.type === 'comment');
    expect(comment).toEqual({
      type: 'comment',
      text: `loupe-proxy: stream cut after ${BUDGET} bytes: it exceeded the proxy's budget of ${BUDGET} bytes per stream`,
    });
    expect(last).toMatchObject({ type: 'close', cause: 'dropped' });
    // Every whole event before the cut arrived parsed; the one the cut split was never dispatched.
    expect(messages).toBe(Math.floor(BUDGET / event.byteLength));
    expect(relayedChars).toBeLessThanOrEqual(BUDGET);
    await upstreamClosed;
  });

  it('refuses a JSON answer over the same budget, saying how many bytes it allows', { timeout: 60_000 }, async () => {
    const transport = createHttpTransport({ url: `${upstreamUrl}/json`, proxy: { endpoint: new URL('/api/proxy', mock.url).href, token: mock.token } });
    const events: TransportEvent[] = [];
    for await (const ev of transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })) events.push(ev);
    expect(events.find((e) => e.type === 'error')).toEqual({
      type: 'error',
      cause: 'proxy',
      message: `Proxy refused the request (too-large): The upstream body exceeds ${BUDGET} bytes or failed`,
    });
  });
});
