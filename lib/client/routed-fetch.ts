import { loupeFetch } from './api-key';
import { upstreamAnswer } from './proxy-answer';
import { pageFetch } from './worker-fetch';
import type { TransportRoute } from './auto-transport';
import type { ProxyEnvelope } from '../protocol/loupe-api';

/**
 * A fetch that goes direct when the browser may (same origin, or the server allows CORS) and
 * through Loupe's proxy when it may not, decided per origin on the first request, like the auto
 * transport. The OAuth flow needs it: its requests go to the MCP server and to authorization
 * servers that may each answer CORS differently, and the flow's fetch wrapper sits below the
 * transport, so the wrapper (not the transport) must pick the way. `mode` pins the way instead.
 * Its default fetch is the page's (`pageFetch`, on a worker in a browser): an OAuth connection's
 * MCP traffic is read off the main thread like any other, however big the answer.
 */

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

interface RoutedFetchOptions {
  mode: 'auto' | 'direct' | 'proxy';
  proxyEndpoint: string;
  pageOrigin: string;
  fetch?: Fetch;
  /** Told the way of each origin once it is known. */
  onRoute?: (origin: string, route: TransportRoute) => void;
}

function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  throw new Error('the proxy relays text bodies only');
}

/** Create the routed fetch. */
export function createRoutedFetch(o: RoutedFetchOptions): Fetch {
  const base: Fetch = o.fetch ?? pageFetch();
  const ways = new Map<string, 'direct' | 'proxy'>();

  const viaProxy: Fetch = async (input, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') throw new Error(`the proxy does not relay ${method}`);
    const body = bodyText(init.body);
    const envelope: ProxyEnvelope = { url: input, method, headers: Object.fromEntries(new Headers(init.headers)), ...(body !== undefined ? { body } : {}) };
    const res = await loupeFetch(
      o.proxyEndpoint,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(envelope),
        cache: 'no-store',
        ...(init.signal ? { signal: init.signal } : {}),
      },
      base,
    );
    return upstreamAnswer(res);
  };

  return async (input, init) => {
    const url = new URL(input, o.pageOrigin);
    const origin = url.origin;
    const way = o.mode === 'auto' ? (origin === o.pageOrigin ? 'direct' : ways.get(origin)) : o.mode;
    if (way === 'proxy') return viaProxy(url.toString(), init);
    if (way === 'direct') return base(url.toString(), init);
    try {
      const res = await base(url.toString(), init);
      ways.set(origin, 'direct');
      o.onRoute?.(origin, { via: 'direct', reason: 'server allows CORS' });
      return res;
    } catch (e) {
      // A CORS refusal and a dead host look the same here; the proxy tells them apart.
      if (init.signal?.aborted) throw e;
      ways.set(origin, 'proxy');
      o.onRoute?.(origin, { via: 'proxy', reason: 'the browser could not read the answer directly (CORS or unreachable)' });
      return viaProxy(url.toString(), init);
    }
  };
}
