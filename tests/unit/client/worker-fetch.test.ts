import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../../lib/client/http-transport';
import type { TransportEvent } from '../../../lib/client/transport';
import { workerMain } from '../../../lib/client/fetch-worker-program';
import { createWorkerFetch } from '../../../lib/client/worker-fetch';

/**
 * The page's fetch on a worker (lib/client/worker-fetch.ts), against a real HTTP server. The
 * worker's program runs on a MessageChannel in this process (Node has no Worker global), so the
 * messages, the chunk transfers, the pulls and the cancels are the real ones; only the thread is not.
 */

/** The worker program on one end of a channel; the other end stands for the `Worker`. */
function channelWorker(): Worker {
  const { port1, port2 } = new MessageChannel();
  const g = globalThis as { self?: unknown };
  const before = g.self;
  g.self = {
    set onmessage(f: (e: MessageEvent) => void) {
      port2.on('message', (data) => f({ data } as MessageEvent));
    },
    postMessage: (m: unknown, transfer?: ArrayBuffer[]) => port2.postMessage(m, transfer),
  };
  workerMain();
  g.self = before;
  const page = {
    postMessage: (m: unknown) => port1.postMessage(m),
    set onmessage(f: (e: MessageEvent) => void) {
      port1.on('message', (data) => f({ data } as MessageEvent));
    },
    close: () => {
      port1.close();
      port2.close();
    },
  };
  return page as unknown as Worker;
}

const MiB = 1024 * 1024;

describe('fetch on a worker', () => {
  let server: http.Server;
  let base: string;
  /** Bytes the endless answer wrote before its client went away, and whether it did. */
  const endless = { written: 0, closed: false };
  const workers: Worker[] = [];
  const workerFetch = () => {
    const w = channelWorker();
    workers.push(w);
    return createWorkerFetch(w, () => Promise.reject(new Error('fallback used')));
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/big') {
        // 3 MiB of JSON in 64 KiB writes (chunked: no Content-Length to read ahead from).
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Seen-Method': req.method ?? '' });
        const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(3 * MiB) }] } });
        for (let i = 0; i < text.length; i += 64 * 1024) res.write(text.slice(i, i + 64 * 1024));
        return void res.end();
      }
      if (req.url === '/endless') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.on('close', () => {
          endless.closed = true;
        });
        const chunk = Buffer.alloc(256 * 1024, 'y');
        const more = () => {
          while (!endless.closed && res.write(chunk)) endless.written += chunk.length;
        };
        res.on('drain', more);
        return void more();
      }
      if (req.url === '/echo') {
        let body = '';
        req.on('data', (c) => (body += c));
        return void req.on('end', () =>
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ got: body, type: req.headers['content-type'] })),
        );
      }
      if (req.url === '/moved') return void res.writeHead(307, { Location: 'http://127.0.0.1:1/elsewhere' }).end();
      if (req.url === '/empty') return void res.writeHead(204).end();
      // Answers nothing until the client gives up.
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const w of workers) (w as unknown as { close(): void }).close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('gives the body, status and headers as fetch would, also when the worker got ahead of the page', async () => {
    const res = await workerFetch()(`${base}/big`, { method: 'POST', headers: { Accept: 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen-method')).toBe('POST');
    // Let the worker read ahead (its window), so what the page reads comes from the backlog, then the end.
    await new Promise((r) => setTimeout(r, 200));
    const parsed = (await res.json()) as { result: { content: { text: string }[] } };
    expect(parsed.result.content[0]?.text.length).toBe(3 * MiB);
  });

  it('sends the request body and headers', async () => {
    const res = await workerFetch()(`${base}/echo`, { method: 'POST', headers: new Headers({ 'Content-Type': 'application/json' }), body: '{"a":1}' });
    expect(await res.json()).toEqual({ got: '{"a":1}', type: 'application/json' });
  });

  it('sends a form (an OAuth token request) as its text with the form content type, as fetch would', async () => {
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'a b&c' });
    const res = await workerFetch()(`${base}/echo`, { method: 'POST', body: form });
    expect(await res.json()).toEqual({ got: 'grant_type=authorization_code&code=a+b%26c', type: 'application/x-www-form-urlencoded;charset=UTF-8' });
  });

  it('through the transport: an answer over the budget is cut and said, and the server sees its answer cancelled', async () => {
    const t = createHttpTransport({ url: `${base}/endless`, fetch: workerFetch(), streamByteBudget: 2 * MiB });
    const events: TransportEvent[] = [];
    for await (const e of t.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'huge' } })) events.push(e);
    expect(events.at(-2)).toMatchObject({
      type: 'error',
      cause: 'protocol',
      message: expect.stringMatching(/^JSON answer cut after 2\.\d MiB: over the budget of 2\.0 MiB per answer/),
    });
    expect(events.at(-1)).toMatchObject({ type: 'close', cause: 'aborted' });
    await expect.poll(() => endless.closed).toBe(true);
    // The worker reads at most its window ahead of the page: the server got out the budget plus the window and the socket buffers, not all it could write.
    expect(endless.written).toBeLessThan(64 * MiB);
  });

  it('rejects as fetch does: AbortError when aborted, TypeError when nothing answers', async () => {
    const abort = new AbortController();
    const pending = workerFetch()(`${base}/silent`, { signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(workerFetch()('http://127.0.0.1:1/mcp', {})).rejects.toBeInstanceOf(TypeError);
  });

  it('fails what is in flight and falls back to plain fetch when the worker dies', async () => {
    const dead = { postMessage: () => {}, onmessage: null, onerror: null as ((e: unknown) => void) | null };
    const used: string[] = [];
    const f = createWorkerFetch(dead as unknown as Worker, async (input) => {
      used.push(input);
      return new Response('plain');
    });
    const pending = f(`${base}/silent`, {});
    dead.onerror?.({ message: 'boom' });
    await expect(pending).rejects.toThrow(/Loupe's fetch worker failed: boom/);
    expect(await (await f(`${base}/big`, {})).text()).toBe('plain');
    expect(used).toEqual([`${base}/big`]);
  });

  it('keeps a redirect as a redirect (manual) and a 204 without a body', async () => {
    const moved = await workerFetch()(`${base}/moved`, { redirect: 'manual' });
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toBe('http://127.0.0.1:1/elsewhere');
    const empty = await workerFetch()(`${base}/empty`, {});
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });
});
