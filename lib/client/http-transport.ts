import { ApiErrorSchema, PROXY_ERROR_HEADER, type ProxyEnvelope } from '../protocol/loupe-api';
import { headerRecord } from './frames';
import { readSse } from './sse';
import { abortDetail, type Transport, type TransportEvent, type TransportKind, type TransportRequestOptions } from './transport';

/**
 * Streamable HTTP, with fetch: one POST per message, a JSON or SSE answer. Direct (Node, or a
 * browser when the server allows CORS) or through Loupe's token-gated proxy, which posts a
 * JSON envelope `{ url, method, headers, body }` to `/api/proxy` and streams the upstream
 * answer back unchanged (status, headers minus hop-by-hop ones, body).
 */

interface HttpTransportOptions {
  /** The MCP endpoint. */
  url: string;
  /** Extra headers on every request (Authorization, custom ones). They win over builder headers. */
  headers?: Record<string, string>;
  /** Send through Loupe's proxy instead of directly. */
  proxy?: { endpoint: string; token?: string };
  /** The fetch to use (defaults to globalThis.fetch); an in-memory transport passes its own. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Reported as `sent.via` (memory transports reuse this one). */
  kind?: TransportKind;
}

function idOf(message: unknown): unknown {
  return message && typeof message === 'object' ? (message as { id?: unknown }).id : undefined;
}

function parse(raw: string): { message?: unknown; parseError?: string } {
  try {
    return { message: JSON.parse(raw) };
  } catch (e) {
    return { parseError: (e as Error).message };
  }
}

/** Whether a parsed message is the response to the request with `id`. */
function answers(message: unknown, id: unknown): boolean {
  if (id === undefined || !message || typeof message !== 'object') return false;
  const m = message as Record<string, unknown>;
  return m.id === id && ('result' in m || 'error' in m);
}

/** Create a Streamable HTTP transport. */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const via: TransportKind = options.kind ?? (options.proxy ? 'proxy' : 'http');
  // close() aborts every fetch in flight and refuses later sends, so nothing reaches the server after it.
  const closer = new AbortController();

  async function* send(message: unknown, req: TransportRequestOptions = {}): AsyncGenerator<TransportEvent> {
    if (closer.signal.aborted) {
      yield { type: 'close', cause: 'aborted', detail: 'the connection was closed' };
      return;
    }
    const headers = { ...(req.headers ?? {}), ...(options.headers ?? {}) };
    const raw = JSON.stringify(message);
    yield { type: 'sent', url: options.url, headers, raw, message, via };
    const signal = req.signal ? AbortSignal.any([req.signal, closer.signal]) : closer.signal;
    let response: Response;
    try {
      if (options.proxy) {
        const envelope = JSON.stringify({ url: options.url, method: 'POST', headers, body: raw } satisfies ProxyEnvelope);
        const proxyHeaders: Record<string, string> = { 'Content-Type': 'application/json' };
        if (options.proxy.token) proxyHeaders.Authorization = `Bearer ${options.proxy.token}`;
        response = await doFetch(options.proxy.endpoint, {
          method: 'POST',
          headers: proxyHeaders,
          body: envelope,
          signal,
          credentials: 'same-origin',
          cache: 'no-store',
        });
      } else {
        response = await doFetch(options.url, { method: 'POST', headers, body: raw, signal, cache: 'no-store', redirect: 'manual' });
      }
    } catch (e) {
      if (signal?.aborted) {
        yield { type: 'close', cause: 'aborted', detail: abortDetail(signal) };
        return;
      }
      yield { type: 'error', message: `Failed to reach ${options.url}: ${(e as Error).message}`, cause: 'network' };
      yield { type: 'close', cause: 'dropped' };
      return;
    }
    const proxyError = response.headers.get(PROXY_ERROR_HEADER);
    if (proxyError) {
      const text = await response.text().catch(() => '');
      const detail = ApiErrorSchema.safeParse(parse(text).message).data?.error ?? text;
      yield { type: 'error', message: `Proxy refused the request (${proxyError}): ${detail}`, cause: 'proxy' };
      yield { type: 'close', cause: 'end' };
      return;
    }
    const stream = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    yield { type: 'response', status: response.status, headers: headerRecord(response.headers), stream };
    const requestId = idOf(message);
    if (!stream || !response.body) {
      let text: string;
      try {
        text = await response.text();
      } catch (e) {
        if (signal?.aborted) yield { type: 'close', cause: 'aborted', detail: abortDetail(signal) };
        else yield { type: 'close', cause: 'dropped', detail: (e as Error).message };
        return;
      }
      if (text.length) yield { type: 'message', raw: text, ...parse(text) };
      yield { type: 'close', cause: 'end' };
      return;
    }
    try {
      for await (const item of readSse(response.body)) {
        if (item.type === 'comment') {
          yield { type: 'comment', text: item.text };
          continue;
        }
        const { data, event, id } = item.event;
        const parsed = parse(data);
        yield { type: 'message', raw: data, ...parsed, sse: { ...(event ? { event } : {}), ...(id ? { id } : {}) } };
        // The response ends the request's stream; nothing more may come for it.
        if (answers(parsed.message, requestId)) {
          yield { type: 'close', cause: 'end', detail: 'response received' };
          return;
        }
      }
      yield { type: 'close', cause: 'end' };
    } catch (e) {
      if (signal?.aborted) yield { type: 'close', cause: 'aborted', detail: abortDetail(signal) };
      else yield { type: 'close', cause: 'dropped', detail: (e as Error).message };
    }
  }

  return {
    kind: via,
    target: options.url,
    send,
    close: async () => closer.abort(new Error('the connection was closed')),
  };
}
