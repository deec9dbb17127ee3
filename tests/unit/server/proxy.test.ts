import { describe, expect, it } from 'vitest';
import { createProxyHandler } from '../../../lib/server/proxy';
import { isOwnControlRoute } from '../../../lib/server/proxy-target';

/** The proxy handler's time caps, stream relay and self-detection, with an injected upstream fetch. */

const envelope = (url = 'http://upstream.test/mcp') =>
  new Request('http://127.0.0.1:3000/api/proxy', {
    method: 'POST',
    headers: { Host: '127.0.0.1:3000', 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
  });

/** An upstream fetch that never answers until its signal aborts; records that abort. */
function hanging() {
  const state = { aborted: false };
  const fetch = ((_: unknown, init: RequestInit) =>
    new Promise<Response>((_, reject) => {
      init.signal?.addEventListener('abort', () => {
        state.aborted = true;
        reject(new DOMException('aborted', 'AbortError'));
      });
    })) as unknown as typeof globalThis.fetch;
  return { fetch, state };
}

describe('createProxyHandler', () => {
  it('answers 504 when the upstream does not answer in time, and aborts the upstream request', async () => {
    const up = hanging();
    const res = await createProxyHandler({ timeoutMs: 50, fetch: up.fetch })(envelope());
    expect(res.status).toBe(504);
    expect(res.headers.get('x-loupe-proxy-error')).toBe('timeout');
    expect(up.state.aborted).toBe(true);
  });

  it('answers 502 for an unreachable upstream', async () => {
    const res = await createProxyHandler({
      fetch: (async () => {
        throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.1:9') });
      }) as unknown as typeof fetch,
    })(envelope());
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: expect.stringContaining('ECONNREFUSED') });
  });

  it('says so when the port is one fetch refuses (the server may be up), not just "bad port"', async () => {
    const res = await createProxyHandler({})(envelope('http://127.0.0.1:6000/mcp'));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      error: 'Failed to reach http://127.0.0.1:6000: port 6000 is one that fetch and browsers refuse to use; serve it on another port',
    });
  });

  it('relays an SSE stream as it arrives, ends it at maxStreamMs, and cancels the upstream when the client leaves', async () => {
    let cancelled = false;
    let aborted = false;
    const enc = new TextEncoder();
    const fetch = (async (_: unknown, init: RequestInit) => {
      init.signal?.addEventListener('abort', () => (aborted = true));
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(enc.encode(': open\n\n'));
        },
        cancel() {
          cancelled = true;
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream', Connection: 'keep-alive' } });
    }) as unknown as typeof globalThis.fetch;

    const res = await createProxyHandler({ fetch, maxStreamMs: 60_000 })(envelope());
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('connection')).toBeNull();
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': open\n\n');
    await reader.cancel();
    expect(cancelled).toBe(true);
    expect(aborted).toBe(true);

    const capped = await createProxyHandler({ fetch, maxStreamMs: 50 })(envelope());
    const r2 = capped.body!.getReader();
    await r2.read();
    await expect(r2.read()).rejects.toThrow();
  });

  it('recognises this server under loopback aliases and encodings, and nothing else', () => {
    const self = new URL('http://127.0.0.1:3000/');
    const own = [
      'http://localhost:3000/api',
      'http://127.0.0.1:3000/api/x',
      'http://0.0.0.0:3000/api/x',
      'http://[::1]:3000/API/x',
      'http://127.0.0.2:3000/%61pi/x',
      'http://127.0.0.1:3000//api',
      'https://127.0.0.1:3000/api/x',
    ];
    for (const u of own) expect(isOwnControlRoute(new URL(u), self), u).toBe(true);
    const other = ['http://127.0.0.1:3001/api/x', 'http://127.0.0.1:3000/mcp', 'http://127.0.0.1:3000/apis', 'http://example.com:3000/api/x'];
    for (const u of other) expect(isOwnControlRoute(new URL(u), self), u).toBe(false);
  });
});
