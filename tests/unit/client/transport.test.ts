import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../../lib/client/http-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import { FrameSchema, type Frame } from '../../../lib/client/frames';
import type { TransportEvent } from '../../../lib/client/transport';

/** The HTTP transport's JSON and SSE parsing, and the frames the tracking decorator reports. */

const enc = new TextEncoder();

/** A fetch answering with an SSE body made of `chunks` (strings or byte arrays); `fail` errors the body after them. */
function sseFetch(chunks: (string | Uint8Array)[], opts: { fail?: boolean; hang?: boolean; status?: number } = {}) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (i < chunks.length) {
          const x = chunks[i++];
          c.enqueue(typeof x === 'string' ? enc.encode(x) : x);
          return;
        }
        if (opts.fail) c.error(new Error('socket hang up'));
        else if (!opts.hang) c.close();
        else
          return new Promise<void>((resolve) =>
            init.signal?.addEventListener('abort', () => {
              c.error(new Error('aborted'));
              resolve();
            }),
          );
      },
    });
    return new Response(body, { status: opts.status ?? 200, headers: { 'Content-Type': 'text/event-stream' } });
  };
  return { fetch, seen };
}

async function collect(it: AsyncIterable<TransportEvent>): Promise<TransportEvent[]> {
  const out: TransportEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

const request = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x' } };

describe('HTTP transport: SSE', () => {
  it('parses events split across chunks, multi-line data, CRLF, comments and UTF-8 split mid-character', async () => {
    const snowman = enc.encode('"☃"');
    const { fetch } = sseFetch([
      ': keep-alive\n\n',
      'event: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/progress",',
      '"params":{"progressToken":"p","progress":1}}\r\n\r\n',
      'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":\ndata: ',
      snowman.slice(0, 2),
      snowman.slice(2),
      '}}\n\ndata: not json\n\n',
      'data: {"jsonrpc":"2.0","id":5,"result":{"content":[]}}\n\n',
    ]);
    const t = createHttpTransport({ url: 'http://x/mcp', fetch });
    const events = await collect(t.send(request, { headers: { 'Mcp-Method': 'tools/call' } }));
    expect(events.map((e) => e.type)).toEqual(['sent', 'response', 'comment', 'message', 'message', 'message', 'message', 'close']);
    const msgs = events.filter((e): e is Extract<TransportEvent, { type: 'message' }> => e.type === 'message');
    expect(msgs[0].message).toMatchObject({ method: 'notifications/progress' });
    expect(msgs[0].sse).toEqual({ event: 'message' });
    expect(msgs[1].message).toEqual({ jsonrpc: '2.0', method: 'notifications/message', params: { data: '☃' } });
    expect(msgs[2]).toMatchObject({ raw: 'not json', parseError: expect.any(String) });
    expect(msgs[2].message).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'close', cause: 'end', detail: 'response received' });
  });

  it('stops reading at the response even when the server keeps the stream open', async () => {
    const { fetch } = sseFetch(['data: {"jsonrpc":"2.0","id":5,"result":{}}\n\n'], { hang: true });
    const events = await collect(createHttpTransport({ url: 'http://x/mcp', fetch }).send(request));
    expect(events.at(-1)).toMatchObject({ type: 'close', cause: 'end' });
  });

  it('reports a stream that fails mid-way as dropped, and an abort as aborted', async () => {
    const dropped = await collect(createHttpTransport({ url: 'http://x/mcp', fetch: sseFetch([': hi\n\n'], { fail: true }).fetch }).send(request));
    expect(dropped.at(-1)).toMatchObject({ type: 'close', cause: 'dropped', detail: 'socket hang up' });

    const ac = new AbortController();
    const t = createHttpTransport({ url: 'http://x/mcp', fetch: sseFetch([': hi\n\n'], { hang: true }).fetch });
    const events: TransportEvent[] = [];
    for await (const e of t.send(request, { signal: ac.signal })) {
      events.push(e);
      if (e.type === 'comment') ac.abort(new Error('user pressed cancel'));
    }
    expect(events.at(-1)).toEqual({ type: 'close', cause: 'aborted', detail: 'user pressed cancel' });
  });

  it('answers JSON bodies, empty 202 bodies and network failures as events, never throwing', async () => {
    const json = async () => Response.json({ jsonrpc: '2.0', id: 5, result: { ok: true } }, { status: 200 });
    const a = await collect(createHttpTransport({ url: 'http://x/mcp', fetch: json }).send(request));
    expect(a.map((e) => e.type)).toEqual(['sent', 'response', 'message', 'close']);
    expect(a[2]).toMatchObject({ message: { result: { ok: true } } });
    expect((a[2] as { sse?: unknown }).sse).toBeUndefined();

    const b = await collect(
      createHttpTransport({ url: 'http://x/mcp', fetch: async () => new Response(null, { status: 202 }) }).send({
        jsonrpc: '2.0',
        method: 'notifications/initialized',
      }),
    );
    expect(b.map((e) => e.type)).toEqual(['sent', 'response', 'close']);

    const c = await collect(
      createHttpTransport({
        url: 'http://x/mcp',
        fetch: async () => {
          throw new TypeError('fetch failed');
        },
      }).send(request),
    );
    expect(c.map((e) => e.type)).toEqual(['sent', 'error', 'close']);
    expect(c[1]).toMatchObject({ cause: 'network', message: expect.stringContaining('fetch failed') });
  });

  it('in proxy mode posts the envelope and reports a proxy refusal as such', async () => {
    const seen: { url: string; body: unknown; headers: Headers }[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      seen.push({ url, body: JSON.parse(String(init.body)), headers: new Headers(init.headers) });
      return Response.json({ error: 'no' }, { status: 403, headers: { 'x-loupe-proxy-error': 'self' } });
    };
    const t = createHttpTransport({
      url: 'http://127.0.0.1:3000/api/scenarios',
      proxy: { endpoint: 'http://127.0.0.1:3000/api/proxy', token: 'tok' },
      headers: { Authorization: 'Bearer upstream' },
      fetch,
    });
    const events = await collect(t.send(request, { headers: { 'Mcp-Method': 'tools/call' } }));
    expect(seen[0].url).toBe('http://127.0.0.1:3000/api/proxy');
    expect(seen[0].headers.get('authorization')).toBe('Bearer tok');
    expect(seen[0].body).toEqual({
      url: 'http://127.0.0.1:3000/api/scenarios',
      method: 'POST',
      headers: { 'Mcp-Method': 'tools/call', Authorization: 'Bearer upstream' },
      body: JSON.stringify(request),
    });
    expect(events.map((e) => e.type)).toEqual(['sent', 'error', 'close']);
    expect(events[1]).toMatchObject({ cause: 'proxy', message: expect.stringContaining('(self): no') });
  });

  it('directly, refuses a redirect instead of following it: the target is never reached', async () => {
    const hits: string[] = [];
    const target = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const to = `http://127.0.0.1:${(target.address() as AddressInfo).port}/api/scenarios/demo/reset`;
    const server = http.createServer((_req, res) => res.writeHead(307, { Location: to }).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const events = await collect(createHttpTransport({ url }).send(request));
      expect(events.map((e) => e.type)).toEqual(['sent', 'response', 'error', 'close']);
      expect(events[2]).toMatchObject({
        cause: 'redirect',
        message: `Refused a redirect: the server answered HTTP 307 redirecting to "${to}"; Loupe never follows a server's redirects`,
      });
      expect(hits).toEqual([]);
    } finally {
      await new Promise((r) => server.close(r));
      await new Promise((r) => target.close(r));
    }
  });
});

describe('tracking decorator', () => {
  it('reports every frame of an SSE exchange in order, schema-valid, with timings and the close reason', async () => {
    let now = 1_000;
    const frames: Frame[] = [];
    const { fetch } = sseFetch([
      ': ka\n\n',
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}\n\n',
      'data: {"jsonrpc":"2.0","id":5,"result":{"resultType":"task","taskId":"T9"}}\n\n',
    ]);
    const t = createTrackingTransport(createHttpTransport({ url: 'http://x/mcp', fetch }), {
      sink: (f) => {
        frames.push(f);
        now += 10;
      },
      connectionId: 'c1',
      now: () => now,
    });
    await collect(t.send(request, { headers: { 'Mcp-Method': 'tools/call' }, conversationId: 'mrtr-1' }));
    for (const f of frames) expect(FrameSchema.safeParse(f).success).toBe(true);
    expect(frames.map((f) => f.kind)).toEqual(['http-request', 'http-response', 'sse-open', 'sse-comment', 'sse-frame', 'sse-frame', 'sse-close']);
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(new Set(frames.map((f) => f.exchangeId))).toEqual(new Set(['c1:1']));
    expect(frames.every((f) => f.conversationId === 'mrtr-1' && f.rpcId === 5 && f.connectionId === 'c1')).toBe(true);
    expect(frames[0]).toMatchObject({ direction: 'out', method: 'tools/call', headers: { 'mcp-method': 'tools/call' }, body: request });
    expect(frames[0].bytes).toBe(JSON.stringify(request).length);
    expect(frames[1]).toMatchObject({ direction: 'in', httpStatus: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(frames[3]).toMatchObject({ streamId: 'c1:1', raw: 'ka', bytes: 2 });
    expect(frames[4]).toMatchObject({ method: 'notifications/progress' });
    expect(frames[5]).toMatchObject({ method: 'tools/call', taskId: 'T9' });
    expect(frames[6]).toMatchObject({ closeReason: 'complete', durationMs: expect.any(Number) });
    expect(frames[6].durationMs).toBeGreaterThan(0);
  });

  it('marks a stream that ends without a response as server-closed, and a consumer that stops as client-closed', async () => {
    const frames: Frame[] = [];
    const t = createTrackingTransport(createHttpTransport({ url: 'http://x/mcp', fetch: sseFetch([': a\n\n']).fetch }), { sink: (f) => frames.push(f) });
    await collect(t.send(request));
    expect(frames.at(-1)).toMatchObject({ kind: 'sse-close', closeReason: 'server-closed' });

    frames.length = 0;
    const open = createTrackingTransport(createHttpTransport({ url: 'http://x/mcp', fetch: sseFetch([': a\n\n'], { hang: true }).fetch }), {
      sink: (f) => frames.push(f),
    });
    for await (const e of open.send(request)) if (e.type === 'comment') break;
    expect(frames.at(-1)).toMatchObject({ kind: 'sse-close', closeReason: 'client-closed' });

    frames.length = 0;
    const failing = createTrackingTransport(
      createHttpTransport({
        url: 'http://x/mcp',
        fetch: async () => {
          throw new TypeError('ECONNREFUSED');
        },
      }),
      { sink: (f) => frames.push(f) },
    );
    await collect(failing.send(request));
    expect(frames.map((f) => f.kind)).toEqual(['http-request', 'error']);
    expect(frames[1].errorText).toContain('ECONNREFUSED');
  });

  it('puts frames recorded outside send (app bridge messages) in the same sequence', async () => {
    const frames: Frame[] = [];
    const t = createTrackingTransport(createHttpTransport({ url: 'http://x/mcp', fetch: async () => Response.json({ jsonrpc: '2.0', id: 5, result: {} }) }), {
      sink: (f) => frames.push(f),
      connectionId: 'c9',
      now: () => 42,
    });
    await collect(t.send(request));
    t.record({
      direction: 'in',
      kind: 'bridge',
      exchangeId: 'app:1',
      method: 'ui/initialize',
      body: { method: 'ui/initialize' },
      raw: '{"method":"ui/initialize"}',
    });
    const last = frames.at(-1)!;
    expect(last).toMatchObject({ seq: frames.length - 1, connectionId: 'c9', at: 42, kind: 'bridge', bytes: 26 });
    expect(FrameSchema.safeParse(last).success).toBe(true);
  });

  it('keeps reporting when the sink throws', async () => {
    const t = createTrackingTransport(createHttpTransport({ url: 'http://x/mcp', fetch: async () => Response.json({ jsonrpc: '2.0', id: 5, result: {} }) }), {
      sink: () => {
        throw new Error('broken store');
      },
    });
    const events = await collect(t.send(request));
    expect(events.at(-1)).toMatchObject({ type: 'close', cause: 'end' });
  });
});
