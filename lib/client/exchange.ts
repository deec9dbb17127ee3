import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol';
import type { Clock } from '../shared/clock';
import type { Transport, TransportRequestOptions } from './transport';
import { isRecord } from '../shared/records';

/**
 * One request over a transport, with deadlines: an idle timeout that progress notifications
 * for this request reset, and an absolute maximum that nothing extends (a server that keeps
 * sending progress cannot hold a request open forever). Returns what happened as data.
 */

interface ExchangeOptions {
  signal?: AbortSignal;
  conversationId?: string;
  /** Idle timeout in ms, reset by matching progress; 0 = none. */
  timeoutMs: number;
  /** Absolute deadline in ms from the start; 0 = none. */
  maxTimeoutMs: number;
  /** progressToken sent with the request (progress for other tokens does not count). */
  progressToken?: string | number;
  /** Notifications on this request's stream, in order. */
  onNotification?: (n: JsonRpcNotification) => void;
  /** Requests the server sends on this request's stream (2025-11-25 elicitation, sampling, roots). */
  onServerRequest?: (r: JsonRpcRequest) => void;
  /** Resume the stream with Last-Event-ID when it ends early (2025-11-25 HTTP). */
  resumable?: boolean;
}

/** How one request went: the HTTP answer, the JSON-RPC response if any, or why it failed. */
export interface ExchangeResult {
  /** HTTP status, when the server answered at all. */
  status?: number;
  headers?: Record<string, string>;
  /** Whether the answer was an SSE stream. */
  stream: boolean;
  /** The JSON-RPC response to this request, if one arrived. */
  response?: JsonRpcResponse;
  /** A non-JSON or non-response body (error pages, legacy 400 texts). */
  rawBody?: string;
  /** Why that body did not parse (not JSON, or nested past the cap). */
  parseError?: string;
  /** How it ended when no response arrived. */
  failure?: { reason: 'timeout' | 'aborted' | 'network' | 'dropped' | 'proxy' | 'redirect'; message: string };
}

/** Send `message` (a request with `id`) and collect its answer. */
export async function runExchange(
  transport: Transport,
  clock: Clock,
  message: { id: RequestId },
  headers: Record<string, string>,
  o: ExchangeOptions,
): Promise<ExchangeResult> {
  const ac = new AbortController();
  let timedOut: string | undefined;
  const onAbort = () => ac.abort(o.signal?.reason);
  if (o.signal?.aborted) ac.abort(o.signal.reason);
  else o.signal?.addEventListener('abort', onAbort, { once: true });
  const expire = (why: string) => () => {
    timedOut = why;
    ac.abort(new Error(why));
  };
  let idle: unknown;
  const armIdle = () => {
    if (!o.timeoutMs) return;
    if (idle !== undefined) clock.clearTimeout(idle);
    idle = clock.setTimeout(expire(`timeout: no response within ${o.timeoutMs} ms`), o.timeoutMs);
  };
  const absolute = o.maxTimeoutMs ? clock.setTimeout(expire(`timeout: the request exceeded its maximum of ${o.maxTimeoutMs} ms`), o.maxTimeoutMs) : undefined;
  armIdle();

  const out: ExchangeResult = { stream: false };
  const req: TransportRequestOptions = {
    headers,
    signal: ac.signal,
    ...(o.conversationId ? { conversationId: o.conversationId } : {}),
    ...(o.resumable ? { resumable: true } : {}),
  };
  try {
    for await (const ev of transport.send(message, req)) {
      if (ev.type === 'response') {
        out.status = ev.status;
        out.headers = ev.headers;
        out.stream = ev.stream;
      } else if (ev.type === 'message') {
        const m = ev.message;
        if (!isRecord(m)) {
          if (!ev.sse) out.rawBody = ev.raw;
          if (!ev.sse && ev.parseError) out.parseError = ev.parseError;
          continue;
        }
        const isResponse = 'result' in m || 'error' in m;
        // A JSON error body whose id could not be read (parse errors) still answers us.
        if (isResponse && (m.id === message.id || (!ev.sse && m.id === null))) {
          out.response = m as unknown as JsonRpcResponse;
          continue;
        }
        if (typeof m.method === 'string' && !('id' in m)) {
          const n = m as unknown as JsonRpcNotification;
          if (
            n.method === 'notifications/progress' &&
            o.progressToken !== undefined &&
            (n.params as Record<string, unknown> | undefined)?.progressToken === o.progressToken
          )
            armIdle();
          o.onNotification?.(n);
        } else if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) {
          o.onServerRequest?.(m as unknown as JsonRpcRequest);
        } else if (!ev.sse) out.rawBody = ev.raw;
      } else if (ev.type === 'error') {
        out.failure = { reason: ev.cause === 'proxy' || ev.cause === 'redirect' ? ev.cause : 'network', message: ev.message };
      } else if (ev.type === 'close') {
        if (out.response) break;
        if (ev.cause === 'aborted') out.failure = { reason: timedOut ? 'timeout' : 'aborted', message: timedOut ?? ev.detail ?? 'cancelled by the client' };
        else if (ev.cause === 'dropped') out.failure ??= { reason: 'network', message: ev.detail ?? 'the connection failed' };
        else if (out.stream) out.failure ??= { reason: 'dropped', message: 'the server closed the stream without a response' };
      }
    }
  } finally {
    if (idle !== undefined) clock.clearTimeout(idle);
    if (absolute !== undefined) clock.clearTimeout(absolute);
    o.signal?.removeEventListener('abort', onAbort);
  }
  return out;
}
