import { createHttpTransport } from './http-transport';
import type { FetchTarget, Transport } from './transport';

/**
 * An in-process transport over anything with a web fetch face (a MockEngine, a mock router):
 * the same Streamable HTTP code path as the network transport, without a socket. Used by unit
 * tests and by the browser's MSW mode.
 */
export function createMemoryTransport(target: FetchTarget, options: { url?: string; headers?: Record<string, string> } = {}): Transport {
  return createHttpTransport({
    url: options.url ?? 'http://127.0.0.1/mcp',
    headers: options.headers,
    kind: 'memory',
    fetch: async (input, init) => bindToSignal(await target.fetch(new Request(input, init)), init.signal ?? undefined),
  });
}

/**
 * Real fetch errors a response body when its signal aborts (that is how closing a stream
 * cancels a request on Streamable HTTP); a Response handed over in memory does not, so do it.
 */
function bindToSignal(res: Response, signal: AbortSignal | undefined): Response {
  if (!signal || !res.body) return res;
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const onAbort = () => {
        controller.error(signal.reason ?? new Error('aborted'));
        void reader.cancel(signal.reason).catch(() => {});
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        controller.error(e);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
