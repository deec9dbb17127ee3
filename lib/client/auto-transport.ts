import { createHttpTransport } from './http-transport';
import type { Transport, TransportEvent, TransportRequestOptions } from './transport';

/**
 * Transport "auto": straight from the browser when the server allows it (CORS), else through
 * Loupe's proxy, and always with the reason, so the user never meets a bare "Failed to fetch".
 *
 * A same-origin URL goes direct without asking. Otherwise the first message goes direct; a
 * browser reports a CORS refusal exactly like a dead host (a TypeError, no status), so when
 * that attempt fails before any response the same message is sent through the proxy, and the
 * proxy's answer says which it was: it reached the server (then the server's CORS headers name
 * the reason) or it did not (then the server is down, and the proxy's error says so). The
 * failed direct attempt is not reported: with a preflighted POST (JSON, Mcp-* headers) the
 * browser stops at the preflight, so the request never reached the server.
 */

/** How an auto connection goes, and why. */
export interface TransportRoute {
  via: 'direct' | 'proxy';
  reason: string;
}

interface AutoTransportOptions {
  url: string;
  headers?: Record<string, string>;
  proxyEndpoint: string;
  /** The page's origin (location.origin); a URL on it never needs CORS. */
  pageOrigin: string;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Told once, when the route is chosen. */
  onRoute?: (route: TransportRoute) => void;
}

/** Why the browser refused what the proxy could read: the server's CORS answer, in words. */
function corsReason(headers: Record<string, string>, pageOrigin: string): string {
  const allow = headers['access-control-allow-origin'];
  if (!allow) return 'server sends no Access-Control-Allow-Origin';
  if (allow !== '*' && allow !== pageOrigin) return `server allows origin ${allow}, not ${pageOrigin}`;
  return 'the browser refused the CORS preflight (the server does not allow the MCP headers)';
}

/** Whether `url` resolves to the page's own origin. */
function sameOrigin(url: string, pageOrigin: string): boolean {
  try {
    return new URL(url, pageOrigin).origin === pageOrigin;
  } catch {
    return false;
  }
}

/** Create the auto transport. */
export function createAutoTransport(options: AutoTransportOptions): Transport {
  const absolute = new URL(options.url, options.pageOrigin).toString();
  const direct = createHttpTransport({ url: options.url, headers: options.headers, fetch: options.fetch });
  const proxy = createHttpTransport({ url: absolute, headers: options.headers, proxy: { endpoint: options.proxyEndpoint }, fetch: options.fetch });
  let chosen: Transport | undefined;
  const choose = (t: Transport, route: TransportRoute) => {
    chosen = t;
    options.onRoute?.(route);
  };
  if (sameOrigin(options.url, options.pageOrigin)) choose(direct, { via: 'direct', reason: 'same origin as Loupe' });

  /** The first message: direct, and on a failure before any answer, through the proxy with the verdict. */
  async function* first(message: unknown, req: TransportRequestOptions): AsyncGenerator<TransportEvent> {
    const held: TransportEvent[] = [];
    const it = direct.send(message, req)[Symbol.asyncIterator]();
    for (;;) {
      const step = await it.next();
      if (step.done) break;
      const event = step.value;
      if (event.type === 'sent') {
        held.push(event);
        continue;
      }
      if (event.type === 'error' && event.cause === 'network') break;
      // An answer (or an abort): the browser may read this server. Direct from now on.
      if (!chosen) choose(direct, { via: 'direct', reason: 'server allows this origin (CORS)' });
      yield* held;
      yield event;
      for (let s = await it.next(); !s.done; s = await it.next()) yield s.value;
      return;
    }
    await it.return?.(undefined);
    let decided = false;
    for await (const event of proxy.send(message, req)) {
      if (!decided && event.type === 'response') {
        decided = true;
        if (!chosen) choose(proxy, { via: 'proxy', reason: corsReason(event.headers, options.pageOrigin) });
      }
      yield event;
    }
    // Neither way reached it: the next attempt tries direct again (the server may come up with CORS).
  }

  return {
    kind: 'http',
    target: options.url,
    send(message, req = {}) {
      return chosen ? chosen.send(message, req) : first(message, req);
    },
    openStream(req = {}) {
      const open = (chosen ?? direct).openStream;
      return open
        ? open(req)
        : (async function* none(): AsyncGenerator<TransportEvent> {
            yield { type: 'close', cause: 'end', detail: 'no standalone stream through the proxy' };
          })();
    },
    close: async () => {
      await Promise.all([direct.close?.(), proxy.close?.()]);
    },
  };
}
