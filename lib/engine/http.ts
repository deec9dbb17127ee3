import { ERROR, httpStatusForError, errorResponse, JsonRpcRequestSchema, JsonRpcNotificationSchema, type JsonRpcRequest } from '../protocol';
import { isAllowedHost, isAllowedOrigin } from './guards';
import { SSE_HEADERS, createSseChannel } from './sse';
import type { Outcome, RequestContext } from './context';

/**
 * The Streamable HTTP face of the engine: transport checks (Host, Origin, method, content type,
 * size, JSON, JSON-RPC shape), then dispatch. A request answers with JSON unless the handler
 * emits a notification or opens a stream first, in which case it answers with SSE.
 */

export interface HttpFrontOptions {
  maxBodyBytes: number;
  keepAliveMs: number;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (h: unknown) => void;
  /** Build the request context and run it. `ctx` lacks only what the HTTP layer adds. */
  run: (req: JsonRpcRequest, http: HttpRequestInfo, hooks: StreamHooks) => Promise<Outcome>;
  /** A notification POST (no id). */
  onNotification: (method: string, params: Record<string, unknown> | undefined, http: HttpRequestInfo) => void;
  /** Observe the finished exchange (journal). */
  onExchange?: (entry: ExchangeRecord) => void;
}

export interface HttpRequestInfo {
  headers: Headers;
  url: string;
  signal: AbortSignal;
}

export interface StreamHooks {
  notify: RequestContext['notify'];
  openStream: RequestContext['openStream'];
  signal: AbortSignal;
}

export interface ExchangeRecord {
  at: number;
  method?: string;
  id?: unknown;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  responseBody?: unknown;
  streamed: boolean;
  frames?: unknown[];
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: body === undefined ? extra : { ...JSON_HEADERS, ...extra } });
}

function headerRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => (out[k] = v));
  return out;
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** Read a body with a byte cap; returns undefined when the cap is exceeded. */
async function readCapped(req: Request, max: number): Promise<string | undefined> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) return undefined;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** Create the fetch handler. */
export function createHttpFront(opts: HttpFrontOptions): (req: Request) => Promise<Response> {
  return async function handle(req: Request): Promise<Response> {
    const headers = req.headers;
    // A Request built by fetch() in-process (MSW, unit tests) has no Host header; use the URL's.
    const host = headers.get('host') ?? safeHost(req.url);
    if (!opts.allowedHosts.includes('*') && !isAllowedHost(host, opts.allowedHosts)) {
      return json(403, errorResponse(null, { code: ERROR.invalidRequest, message: 'Forbidden: Host header is not a loopback name or an allowed host' }));
    }
    if (!opts.allowedOrigins.includes('*') && !isAllowedOrigin(headers.get('origin'), host, opts.allowedOrigins)) {
      return json(403, errorResponse(null, { code: ERROR.invalidRequest, message: 'Forbidden: Origin is not allowed' }));
    }
    if (req.method !== 'POST') {
      return json(405, errorResponse(null, { code: ERROR.invalidRequest, message: `Method Not Allowed: ${req.method}; this endpoint accepts POST only` }), { Allow: 'POST' });
    }
    const ctype = (headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (ctype !== 'application/json') {
      return json(415, errorResponse(null, { code: ERROR.invalidRequest, message: `Unsupported Media Type: Content-Type must be application/json, got "${ctype || 'none'}"` }));
    }
    const text = await readCapped(req, opts.maxBodyBytes).catch(() => undefined);
    if (text === undefined) {
      // The rest of the body is never read, so the connection cannot be reused.
      return json(413, errorResponse(null, { code: ERROR.invalidRequest, message: `Payload Too Large: the body exceeds ${opts.maxBodyBytes} bytes` }), { Connection: 'close' });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      return json(400, errorResponse(null, { code: ERROR.parseError, message: `Parse error: ${(e as Error).message}` }));
    }
    const info: HttpRequestInfo = { headers, url: req.url, signal: req.signal };
    const record = (status: number, responseBody: unknown, method?: string, id?: unknown, streamed = false, frames?: unknown[]) =>
      opts.onExchange?.({ at: Date.now(), method, id, requestHeaders: headerRecord(headers), requestBody: body, status, responseBody, streamed, frames });

    const asRequest = JsonRpcRequestSchema.safeParse(body);
    if (!asRequest.success) {
      const asNote = JsonRpcNotificationSchema.safeParse(body);
      if (asNote.success && !(body as Record<string, unknown>).hasOwnProperty('id')) {
        opts.onNotification(asNote.data.method, asNote.data.params, info);
        record(202, undefined, asNote.data.method);
        return new Response(null, { status: 202 });
      }
      const isResponse = !!body && typeof body === 'object' && ('result' in body || 'error' in body) && 'id' in body;
      if (isResponse) {
        record(202, undefined);
        return new Response(null, { status: 202 });
      }
      const rawId = body && typeof body === 'object' ? (body as Record<string, unknown>).id : undefined;
      const id = typeof rawId === 'string' || (typeof rawId === 'number' && Number.isInteger(rawId)) ? rawId : null;
      const why = Array.isArray(body) ? 'batches are not supported' : asRequest.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ');
      const err = errorResponse(id, { code: ERROR.invalidRequest, message: `Invalid Request: ${why}` });
      record(400, err);
      return json(400, err);
    }
    const rpc = asRequest.data;
    return serve(rpc, info, record);
  };

  async function serve(rpc: JsonRpcRequest, info: HttpRequestInfo, record: (s: number, b: unknown, m?: string, id?: unknown, streamed?: boolean, frames?: unknown[]) => void): Promise<Response> {
    const abort = new AbortController();
    const onAbort = () => abort.abort(info.signal.reason);
    if (info.signal.aborted) abort.abort();
    else info.signal.addEventListener('abort', onAbort, { once: true });

    const pending: { method: string; params: Record<string, unknown> }[] = [];
    const frames: unknown[] = [];
    let channel: ReturnType<typeof createSseChannel> | undefined;
    let resolveStream: ((r: Response) => void) | undefined;
    const streamStarted = new Promise<Response>((r) => (resolveStream = r));

    const startStream = () => {
      if (channel) return;
      channel = createSseChannel({
        keepAliveMs: opts.keepAliveMs,
        setTimer: opts.setTimer,
        clearTimer: opts.clearTimer,
        onClose: (reason) => {
          if (reason === 'client') abort.abort(new Error('client closed the stream'));
          info.signal.removeEventListener('abort', onAbort);
        },
      });
      for (const n of pending) channel.send({ jsonrpc: '2.0', method: n.method, params: n.params });
      resolveStream?.(new Response(channel.stream, { status: 200, headers: SSE_HEADERS }));
    };
    const hooks: StreamHooks = {
      signal: abort.signal,
      notify(method, params) {
        if (abort.signal.aborted) return;
        const message = { jsonrpc: '2.0', method, params };
        frames.push(message);
        // Intermediate task snapshots may be dropped for a slow reader; terminal ones never are.
        const droppable = method === 'notifications/tasks' && (params.status === 'working' || params.status === 'input_required');
        if (channel) channel.send(message, { droppable, key: droppable ? String(params.taskId) : undefined });
        else {
          pending.push({ method, params });
          startStream();
        }
      },
      openStream: startStream,
    };

    const work = opts.run(rpc, info, hooks).then(
      (outcome) => outcome,
      (e: unknown) => ({ error: { code: ERROR.internalError, message: `Internal error: ${(e as Error)?.message ?? String(e)}` } }) as Outcome,
    );
    const first = await Promise.race([work.then((o) => ({ kind: 'done' as const, o })), streamStarted.then((r) => ({ kind: 'stream' as const, r }))]);
    if (first.kind === 'done' && !channel) {
      info.signal.removeEventListener('abort', onAbort);
      const o = first.o;
      const message = 'error' in o ? errorResponse(rpc.id, o.error) : { jsonrpc: '2.0' as const, id: rpc.id, result: o.result };
      const status = 'error' in o ? (o.httpStatus ?? httpStatusForError(o.error.code)) : 200;
      record(status, message, rpc.method, rpc.id);
      return json(status, message);
    }
    const ch = channel!;
    void work.then((o) => {
      const message = 'error' in o ? errorResponse(rpc.id, o.error) : { jsonrpc: '2.0' as const, id: rpc.id, result: o.result };
      record(200, message, rpc.method, rpc.id, true, frames);
      if (abort.signal.aborted && ch.closed) return;
      ch.finish(message);
    });
    return first.kind === 'stream' ? first.r : streamStarted;
  }
}
