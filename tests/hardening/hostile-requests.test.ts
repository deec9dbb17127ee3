import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepBody } from './fuzz/bodies';
import { sendRaw, type RawRequest } from './fuzz/raw-client';
import { startAppTarget, startMockTarget, type Target } from './fuzz/targets';

/**
 * The shapes the fuzz suite found, pinned: each once ended a server or answered 5xx, and each
 * now gets a specific 4xx (or a JSON-RPC error) while the process keeps serving.
 */

let mock: Target;
let app: Target;
beforeAll(async () => {
  // Both settle before any failure is thrown, so afterAll stops the one that did start.
  const started = await Promise.allSettled([startMockTarget().then((t) => (mock = t)), startAppTarget().then((t) => (app = t))]);
  for (const s of started) if (s.status === 'rejected') throw s.reason;
});
afterAll(async () => {
  await Promise.all([mock?.stop(), app?.stop()]);
});

const post = (port: number, body: string | Buffer, extra: [string, string][] = [], path = '/mcp'): RawRequest => ({
  method: 'POST',
  path,
  headers: [['Host', `127.0.0.1:${port}`], ['Content-Type', 'application/json'], ['Accept', 'application/json, text/event-stream'], ...extra],
  body: typeof body === 'string' ? Buffer.from(body) : body,
});

async function answer(t: Target, r: RawRequest) {
  const o = await sendRaw(t.port, r, 30_000);
  if (o.kind !== 'answered') throw new Error(`${o.kind}: ${'error' in o ? o.error : ''}`);
  const body = o.head.slice(o.head.indexOf('\r\n\r\n') + 4);
  return { status: o.status, head: o.head, body };
}

async function stillServes(t: Target) {
  const r = await fetch(`http://127.0.0.1:${t.port}/healthz`);
  expect(r.status).toBe(200);
  expect(t.exits()).toBe(0);
}

describe.each(['mock', 'app'] as const)('%s', (which) => {
  const target = () => (which === 'mock' ? mock : app);

  it('answers a method whose `length` has its own toString with Invalid Request, not 500', async () => {
    const t = target();
    const r = await answer(t, post(t.port, '{"jsonrpc":"2.0","id":"x","method":{"length":{"toString":{}}}}'));
    expect(r.status).toBe(400);
    expect(r.body).toContain('"code":-32600');
    await stillServes(t);
  });

  it('answers own keys named like Object methods, at every depth, as the protocol says', async () => {
    const t = target();
    const note = await answer(t, post(t.port, '{"jsonrpc":"2.0","method":"x","hasOwnProperty":1,"toString":{},"valueOf":[]}'));
    expect(note.status).toBe(202);
    const call = await answer(
      t,
      post(
        t.port,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          toString: 1,
          params: {
            name: 'echo',
            arguments: { text: { toString: {}, valueOf: {} } },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': { toString: 1, hasOwnProperty: 1 },
            },
          },
        }),
        [
          ['MCP-Protocol-Version', '2026-07-28'],
          ['Mcp-Method', 'tools/call'],
          ['Mcp-Name', 'echo'],
        ],
      ),
    );
    expect(call.status).toBeLessThan(500);
    expect(call.body).toMatch(/"code":-326\d\d|"isError":true/);
    await stillServes(t);
  });

  it('answers a method named like an Object property as unknown, not as a header mismatch', async () => {
    const t = target();
    for (const method of ['constructor', 'toString', '__proto__']) {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      const r = await answer(
        t,
        post(t.port, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { name: 'echo', _meta: meta } }), [
          ['MCP-Protocol-Version', '2026-07-28'],
          ['Mcp-Method', method],
          ['Mcp-Name', 'echo'],
        ]),
      );
      expect(r.body, method).toContain('"code":-32601');
    }
    await stillServes(t);
  });

  it('refuses a body nested 10,000 levels deep with a parse error', async () => {
    const t = target();
    const r = await answer(t, post(t.port, deepBody(10_000, '{"a":')));
    expect(r.status).toBe(400);
    expect(r.body).toContain('nested deeper than 512 levels');
    await stillServes(t);
  });

  it('answers a Host header that makes no URL with 400', async () => {
    const t = target();
    const r = await answer(t, { method: 'GET', path: '/mcp/replay/x', headers: [['Host', 'QD:BhaH.']] });
    expect(r.status).toBe(400);
    await stillServes(t);
  });

  it('answers CONNECT with 405 instead of dropping the connection', async () => {
    const t = target();
    const r = await answer(t, { method: 'CONNECT', path: '/mcp', headers: [['Host', `127.0.0.1:${t.port}`]] });
    expect(r.status).toBe(405);
    await stillServes(t);
  });
});

describe('app server pages', () => {
  it('refuses a Host whose port part is not a port (`127.0.0.1:<port>.evil.test`, `localhost:1@evil.test`), on a page as on the API', async () => {
    for (const host of [`127.0.0.1:${app.port}.evil.test`, 'localhost:1@evil.test', 'localhost:80:81']) {
      for (const path of ['/', '/sandbox/proxy.html?host=http://localhost:1', '/api/session', '/mcp']) {
        const r = await answer(app, { method: 'GET', path, headers: [['Host', host]] });
        expect([400, 403], `${host} ${path}: ${r.status}`).toContain(r.status);
      }
    }
    await stillServes(app);
  });

  it('answers TRACE on the sandbox page with 405; it used to end the process', async () => {
    const trace = await answer(app, { method: 'TRACE', path: '/sandbox/proxy.html', headers: [['Host', `127.0.0.1:${app.port}`]] });
    expect(trace.status).toBe(405);
    // node's parser knows no TRACK and refuses it before any handler.
    const track = await answer(app, { method: 'TRACK', path: '/sandbox/proxy.html', headers: [['Host', `127.0.0.1:${app.port}`]] });
    expect(track.status).toBe(400);
    await stillServes(app);
  });
});
