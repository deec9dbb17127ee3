import { describe, expect, it } from 'vitest';
import { createAutoTransport, type TransportRoute } from '../../../lib/client/auto-transport';
import type { TransportEvent } from '../../../lib/client/transport';

const PAGE = 'http://127.0.0.1:4000';
const SERVER = 'http://127.0.0.1:5000/mcp';
const ANSWER = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } });

/** A browser fetch as seen from PAGE: a cross-origin server without CORS fails like a dead one. */
function browserFetch(server: { cors?: string; up: boolean }, calls: string[]) {
  return async (input: string, init: RequestInit): Promise<Response> => {
    calls.push(input);
    if (input === '/api/proxy') {
      const env = JSON.parse(String(init.body)) as { url: string };
      if (!server.up)
        return new Response(JSON.stringify({ error: `Failed to reach ${env.url}: connect ECONNREFUSED` }), {
          status: 502,
          headers: { 'x-loupe-proxy-error': 'unreachable' },
        });
      return new Response(ANSWER, { headers: { 'content-type': 'application/json', ...(server.cors ? { 'access-control-allow-origin': server.cors } : {}) } });
    }
    if (!server.up || (server.cors !== '*' && server.cors !== PAGE)) throw new TypeError('Failed to fetch');
    return new Response(ANSWER, { headers: { 'content-type': 'application/json' } });
  };
}

async function send(t: ReturnType<typeof createAutoTransport>): Promise<TransportEvent[]> {
  const out: TransportEvent[] = [];
  for await (const e of t.send({ jsonrpc: '2.0', id: 1, method: 'server/discover' })) out.push(e);
  return out;
}

function auto(server: { cors?: string; up: boolean }, url = SERVER) {
  const calls: string[] = [];
  const routes: TransportRoute[] = [];
  const t = createAutoTransport({ url, proxyEndpoint: '/api/proxy', pageOrigin: PAGE, fetch: browserFetch(server, calls), onRoute: (r) => routes.push(r) });
  return { t, calls, routes };
}

describe('transport auto', () => {
  it('goes through the proxy when the server sends no CORS headers, says why, and reports only the proxied attempt', async () => {
    const { t, calls, routes } = auto({ up: true });
    const events = await send(t);
    expect(routes).toEqual([{ via: 'proxy', reason: 'server sends no Access-Control-Allow-Origin' }]);
    expect(events.filter((e) => e.type === 'sent').map((e) => e.type === 'sent' && e.via)).toEqual(['proxy']);
    expect(events.some((e) => e.type === 'message' && e.raw === ANSWER)).toBe(true);
    await send(t);
    expect(calls).toEqual([SERVER, '/api/proxy', '/api/proxy']);
  });

  it('names the origin a server allows when it is not this page', async () => {
    const { t, routes } = auto({ up: true, cors: 'https://elsewhere.example' });
    await send(t);
    expect(routes[0]?.reason).toBe(`server allows origin https://elsewhere.example, not ${PAGE}`);
  });

  it('stays direct when CORS allows it, and for its own origin without probing', async () => {
    const open = auto({ up: true, cors: '*' });
    await send(open.t);
    await send(open.t);
    expect(open.routes).toEqual([{ via: 'direct', reason: 'server allows this origin (CORS)' }]);
    expect(open.calls).toEqual([SERVER, SERVER]);
    const own = auto({ up: true }, '/mcp');
    expect(own.routes).toEqual([{ via: 'direct', reason: 'same origin as Loupe' }]);
  });

  it('a server that is down is reported by the proxy, and no route is chosen', async () => {
    const { t, routes } = auto({ up: false });
    const events = await send(t);
    expect(routes).toEqual([]);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ cause: 'proxy', message: expect.stringContaining('ECONNREFUSED') });
  });
});
