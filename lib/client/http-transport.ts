import { ApiErrorSchema, PROXY_ERROR_HEADER, type ProxyEnvelope } from '../protocol/loupe-api';
import { upstreamAnswer } from './proxy-answer';
import { headerRecord } from './frames';
import { loupeFetch } from './api-key';
import { mib, STREAM_BYTE_BUDGET } from './sse';
import { isEventStream, isRedirect, parseMessage, pause, readBodyCapped, readJsonAnswer, readStream, refusedRedirect, type ResumeState } from './http-response';
import { pageFetch } from './worker-fetch';
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
  /** The fetch to use (defaults to `pageFetch`: on a worker in a browser, globalThis.fetch elsewhere); an in-memory transport passes its own. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Reported as `sent.via` (memory transports reuse this one). */
  kind?: TransportKind;
  /**
   * Bytes one answer (an SSE stream or a JSON body) may carry before it is cut (default
   * STREAM_BYTE_BUDGET, the page's; `Infinity` for none, as the CLI).
   */
  streamByteBudget?: number;
}

/** Resumes in a row that bring no new event before the request is given up as dropped. */
const MAX_IDLE_RESUMES = 3;
/** Most of a proxy refusal's body read (its JSON error is a line). */
const PROXY_ERROR_BYTES = 64 * 1024;
/** The wait before resuming when the server set no `retry`. */
const DEFAULT_RETRY_MS = 1000;

function idOf(message: unknown): unknown {
  return message && typeof message === 'object' ? (message as { id?: unknown }).id : undefined;
}

/** Create a Streamable HTTP transport. */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  // In a page, bodies are read on a worker thread: a fast server's megabytes never hold the page's main thread.
  const doFetch = options.fetch ?? pageFetch();
  const budget = options.streamByteBudget ?? STREAM_BYTE_BUDGET;
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
      response = await exchange('POST', headers, raw, signal);
    } catch (e) {
      if (signal?.aborted) {
        yield { type: 'close', cause: 'aborted', detail: abortDetail(signal) };
        return;
      }
      yield { type: 'error', message: `Failed to reach ${options.url}: ${(e as Error).message}`, cause: 'network' };
      yield { type: 'close', cause: 'dropped' };
      return;
    }
    if (!options.proxy && isRedirect(response)) {
      yield { type: 'response', status: response.status, headers: headerRecord(response.headers), stream: false };
      yield { type: 'error', message: refusedRedirect(response), cause: 'redirect' };
      yield { type: 'close', cause: 'end' };
      return;
    }
    const proxyError = response.headers.get(PROXY_ERROR_HEADER);
    if (proxyError) {
      // Loupe's own refusal is short; a body claiming to be one is still read within a small cap.
      const text = await readBodyCapped(response.body, PROXY_ERROR_BYTES).catch(() => '');
      const detail = ApiErrorSchema.safeParse(parseMessage(text).message).data?.error ?? text;
      yield { type: 'error', message: `Proxy refused the request (${proxyError}): ${detail}`, cause: 'proxy' };
      yield { type: 'close', cause: 'end' };
      return;
    }
    const stream = isEventStream(response);
    yield { type: 'response', status: response.status, headers: headerRecord(response.headers), stream };
    const requestId = idOf(message);
    if (!stream || !response.body) {
      yield* readJsonAnswer(response.body, signal, budget);
      return;
    }
    yield* follow(response.body, requestId, headers, signal, !!req.resumable);
  }

  /** One HTTP request to the server: direct, or as an envelope through Loupe's proxy (which relays GET streams too). */
  async function exchange(method: 'POST' | 'GET', headers: Record<string, string>, body: string | undefined, signal: AbortSignal): Promise<Response> {
    if (!options.proxy) return doFetch(options.url, { method, headers, body, signal, cache: 'no-store', redirect: 'manual' });
    const envelope = JSON.stringify({ url: options.url, method, headers, ...(body !== undefined ? { body } : {}) } satisfies ProxyEnvelope);
    const proxyHeaders: Record<string, string> = { 'Content-Type': 'application/json' };
    if (options.proxy.token) proxyHeaders.Authorization = `Bearer ${options.proxy.token}`;
    // Loupe's API: the request key, and no redirect followed (the proxy never relays one).
    return upstreamAnswer(
      await loupeFetch(options.proxy.endpoint, { method: 'POST', headers: proxyHeaders, body: envelope, signal, cache: 'no-store' }, doFetch),
    );
  }

  /** A GET for an SSE stream (the 2025-11-25 standalone stream, or a resumption with Last-Event-ID). */
  function get(headers: Record<string, string>, signal: AbortSignal, lastEventId?: string): Promise<Response> {
    const h: Record<string, string> = {
      ...headers,
      ...(options.headers ?? {}),
      Accept: 'text/event-stream',
      ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
    };
    delete h['Content-Type'];
    return exchange('GET', h, undefined, signal);
  }

  /** Read a stream to its end; 2025-11-25: a stream that ends before its response is resumed with GET + Last-Event-ID. */
  async function* follow(
    body: ReadableStream<Uint8Array>,
    requestId: unknown,
    headers: Record<string, string>,
    signal: AbortSignal,
    resumable: boolean,
  ): AsyncGenerator<TransportEvent> {
    const resume: ResumeState = {};
    let ending = yield* readStream(body, requestId, signal, resume, budget);
    for (let idle = 0; resumable && (ending.cause === 'end' || ending.cause === 'dropped') && resume.lastEventId !== undefined && idle < MAX_IDLE_RESUMES; ) {
      if (!(await pause(resume.retryMs ?? DEFAULT_RETRY_MS, signal))) {
        ending = { cause: 'aborted', detail: abortDetail(signal) };
        break;
      }
      const seen = resume.lastEventId;
      let again: Response;
      try {
        again = await get(headers, signal, seen);
      } catch (e) {
        ending = signal?.aborted ? { cause: 'aborted', detail: abortDetail(signal) } : { cause: 'dropped', detail: (e as Error).message };
        break;
      }
      const isStream = isEventStream(again);
      yield { type: 'response', status: again.status, headers: headerRecord(again.headers), stream: isStream };
      if (!again.ok || !isStream || !again.body) {
        await again.body?.cancel().catch(() => {});
        ending = { cause: 'end', detail: `resuming with Last-Event-ID ${seen} got HTTP ${again.status}` };
        break;
      }
      ending = yield* readStream(again.body, requestId, signal, resume, budget);
      idle = resume.lastEventId === seen ? idle + 1 : 0;
    }
    if (ending.cause === 'answered') yield { type: 'close', cause: 'end', detail: 'response received' };
    else if (ending.cause === 'cut') {
      // Shown twice on purpose: an error frame on the exchange and the reason on the stream's close.
      yield { type: 'error', message: `SSE ${ending.detail ?? `stream cut after ${mib(budget)}`}`, cause: 'protocol' };
      yield { type: 'close', cause: 'aborted', detail: ending.detail };
    } else yield { type: 'close', cause: ending.cause, ...(ending.detail ? { detail: ending.detail } : {}) };
  }

  /** 2025-11-25: the standalone GET stream on which the server sends its own requests and notifications. */
  async function* openStream(req: TransportRequestOptions = {}): AsyncGenerator<TransportEvent> {
    const headers = req.headers ?? {};
    const signal = req.signal ? AbortSignal.any([req.signal, closer.signal]) : closer.signal;
    let response: Response;
    try {
      response = await get(headers, signal);
    } catch (e) {
      if (!signal.aborted) yield { type: 'error', message: `Failed to open the stream at ${options.url}: ${(e as Error).message}`, cause: 'network' };
      yield { type: 'close', cause: signal.aborted ? 'aborted' : 'dropped' };
      return;
    }
    const stream = isEventStream(response);
    yield { type: 'response', status: response.status, headers: headerRecord(response.headers), stream };
    if (!response.ok || !stream || !response.body) {
      await response.body?.cancel().catch(() => {});
      yield { type: 'close', cause: 'end' };
      return;
    }
    yield* follow(response.body, undefined, headers, signal, true);
  }

  return {
    kind: via,
    target: options.url,
    send,
    openStream,
    close: async () => closer.abort(new Error('the connection was closed')),
  };
}
