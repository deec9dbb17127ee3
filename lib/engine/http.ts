import { ERROR, HEADER, errorResponse, JsonRpcNotificationSchema, type JsonRpcRequest } from '../protocol';
import { parseRequestEnvelope } from './envelope';
import { parseJson } from '../shared/json';
import { asRecord } from '../shared/records';
import { isAllowedHost, isAllowedOrigin } from './guards';
import type { RequestPipeline } from './pipeline';
import type { ExchangeHandle, ExchangeTap } from './exchange-tap';
import { dripResponse, faultReply } from './fault-stream';
import { json, serveRequest } from './http-exchange';
import type { FaultPlan, FaultRequest } from './faults';
import type { InstanceFaults } from './instance-faults';
import type { OutboundRequests } from './legacy-session';
import type { LegacySessions } from './legacy-http';
import { headerRecord, safeHost, toHttpInput, toResponse, type HttpInput, type HttpOutput } from './http-types';

/**
 * The Streamable HTTP face of the engine: transport checks (Host, Origin, method, content type,
 * size, JSON, JSON-RPC shape) and faults, then the request pipeline (http-exchange.ts: JSON,
 * or SSE once the handler emits a notification or opens a stream). A notification POSTed by the client is accepted and dropped (202); a response only
 * when it answers a request the server sent (2025-11-25 sessions, legacy-http.ts), else 400.
 */

interface HttpFrontOptions {
  maxBodyBytes: number;
  keepAliveMs: number;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (h: unknown) => void;
  /** Where each JSON-RPC request goes once the transport checks pass. */
  pipeline: RequestPipeline;
  /** Journal every exchange from the moment its body is read (request, response, stream frames). */
  tap?: ExchangeTap;
  /** The scenario's faults: which fire on a request (each call counts it; a fleet's counters answer later). */
  faults?: { plan(request: FaultRequest): FaultPlan | undefined | Promise<FaultPlan | undefined> };
  /** This instance's fault windows (instance-down, instance-skew); absent when the scenario has none. */
  instance?: InstanceFaults;
  /** 2025-11-25 sessions; without them every legacy request is stateless. */
  sessions?: LegacySessions;
  /** Server-to-client requests awaiting the client's answer (a POSTed response). */
  outbound?: OutboundRequests;
  /** The scenario's protected resource (auth/resource.ts): a refusal (401/403) stops the message before it is served. */
  authorize?: (req: HttpInput, body: Record<string, unknown>) => Promise<{ status: number; headers: Record<string, string>; body: unknown } | undefined>;
}

/** The web fetch face over the core. */
export function createHttpFront(opts: HttpFrontOptions): { fetch: (req: Request) => Promise<Response>; handle: (input: HttpInput) => Promise<HttpOutput> } {
  const handle = createHttpCore(opts);
  return { handle, fetch: async (req) => toResponse(await handle(toHttpInput(req))) };
}

/**
 * Create the transport-neutral handler. Not one async function: each await costs a promise and
 * a microtask, and a direct call waits only for its body (then for whatever its handler awaits).
 */
function createHttpCore(opts: HttpFrontOptions): (req: HttpInput) => Promise<HttpOutput> {
  // The last Host header that passed the check: a client sends the same one on every request.
  let passedHost: string | undefined;
  return (req) => {
    try {
      const out = transportChecks(req);
      return out instanceof Promise ? out : Promise.resolve(out);
    } catch (e) {
      return Promise.reject(e);
    }
  };

  function transportChecks(req: HttpInput): HttpOutput | Promise<HttpOutput> {
    const down = opts.instance?.downAnswer();
    if (down) return down;
    const headers = req.headers;
    // A Request built by fetch() in-process (MSW, unit tests) has no Host header; use the URL's.
    const host = headers.get('host') ?? safeHost(req.url);
    if (host !== passedHost && !opts.allowedHosts.includes('*')) {
      if (!isAllowedHost(host, opts.allowedHosts)) {
        return json(403, errorResponse(null, { code: ERROR.invalidRequest, message: 'Forbidden: Host header is not a loopback name or an allowed host' }));
      }
      passedHost = host ?? undefined;
    }
    if (!opts.allowedOrigins.includes('*') && !isAllowedOrigin(headers.get('origin'), host, opts.allowedOrigins)) {
      return json(403, errorResponse(null, { code: ERROR.invalidRequest, message: 'Forbidden: Origin is not allowed' }));
    }
    if (req.method !== 'POST') return notPost(req);
    const contentType = headers.get('content-type');
    // The exact header nearly every client sends needs no splitting.
    const ctype = contentType === 'application/json' ? contentType : (contentType ?? '').split(';')[0]?.trim().toLowerCase();
    if (ctype !== 'application/json') {
      return json(
        415,
        errorResponse(null, { code: ERROR.invalidRequest, message: `Unsupported Media Type: Content-Type must be application/json, got "${ctype || 'none'}"` }),
      );
    }
    return req.readBody(opts.maxBodyBytes).then((text) => withBody(req, text));
  }

  async function notPost(req: HttpInput): Promise<HttpOutput> {
    const refused = await opts.authorize?.(req, {});
    if (refused) return json(refused.status, refused.body, refused.headers);
    const forSession = opts.sessions?.handle(req);
    if (forSession) return forSession;
    return json(405, errorResponse(null, { code: ERROR.invalidRequest, message: `Method Not Allowed: ${req.method}; this endpoint accepts POST only` }), {
      Allow: 'POST',
    });
  }

  function withBody(req: HttpInput, text: string | undefined): HttpOutput | Promise<HttpOutput> {
    const headers = req.headers;
    if (text === undefined) {
      // The rest of the body is never read, so the connection cannot be reused.
      return json(413, errorResponse(null, { code: ERROR.invalidRequest, message: `Payload Too Large: the body exceeds ${opts.maxBodyBytes} bytes` }), {
        Connection: 'close',
      });
    }
    const parsed = parseJson(text);
    if (!parsed.ok) {
      const err = errorResponse(null, { code: ERROR.parseError, message: `Parse error: ${parsed.message}` });
      opts.tap?.open({ requestHeaders: headerRecord(headers), requestBody: text }).respond(400, err);
      return json(400, err);
    }
    const body = parsed.value;
    const fields = asRecord(body) ?? {};
    const tap = opts.tap?.open({
      method: typeof fields.method === 'string' ? fields.method : undefined,
      id: fields.id,
      requestHeaders: headerRecord(headers),
      requestBody: body,
      requestText: text,
      requestDepth: parsed.depth,
    });
    if (!opts.authorize) return withCaller(req, body, fields, tap);
    return opts.authorize(req, fields).then((denied) => {
      if (!denied) return withCaller(req, body, fields, tap);
      tap?.respond(denied.status, denied.body);
      return json(denied.status, denied.body, denied.headers);
    });
  }

  /** The message once its caller may send it: a notification, a response, or a request to serve. */
  function withCaller(req: HttpInput, body: unknown, fields: Record<string, unknown>, tap: ExchangeHandle | undefined): HttpOutput | Promise<HttpOutput> {
    const asRequest = parseRequestEnvelope(body);
    if (!asRequest.success) {
      const headers = req.headers;
      const record = (status: number, responseBody: unknown) => tap?.respond(status, responseBody);
      const asNote = JsonRpcNotificationSchema.safeParse(body);
      if (asNote.success && !Object.hasOwn(body as Record<string, unknown>, 'id')) {
        // A notification naming a session this server does not hold gets 404 like a request
        // would (2025-11-25 transport): a misrouted `notifications/initialized` must not pass
        // silently and leave the client to find out at its next request.
        const sid = headers.get(HEADER.sessionId);
        if (sid && opts.sessions && !opts.sessions.get(sid)) {
          const err = errorResponse(null, { code: -32001, message: opts.sessions.missing });
          record(404, err);
          return json(404, err);
        }
        if (asNote.data.method === 'notifications/cancelled') opts.sessions?.cancel(headers.get(HEADER.sessionId), asNote.data.params?.requestId);
        record(202, undefined);
        return { status: 202, headers: {} };
      }
      const isResponse = !!body && typeof body === 'object' && ('result' in body || 'error' in body) && 'id' in body;
      if (isResponse) {
        // A response is accepted only as the answer to a request this server sent (2025-11-25);
        // a 2026-07-28 body is a request or a notification, never a response.
        if (opts.outbound?.answer(fields)) {
          record(202, undefined);
          return { status: 202, headers: {} };
        }
        const err = errorResponse(null, {
          code: ERROR.invalidRequest,
          message: `Invalid Request: this response answers no request the server is waiting on (id ${JSON.stringify(fields.id)})`,
        });
        record(400, err);
        return json(400, err);
      }
      const rawId = body && typeof body === 'object' ? (body as Record<string, unknown>).id : undefined;
      const id = typeof rawId === 'string' || (typeof rawId === 'number' && Number.isInteger(rawId)) ? rawId : null;
      const why = Array.isArray(body)
        ? 'batches are not supported'
        : asRequest.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ');
      const err = errorResponse(id, { code: ERROR.invalidRequest, message: `Invalid Request: ${why}` });
      record(400, err);
      return json(400, err);
    }
    const rpc = asRequest.data;
    const tool = rpc.method === 'tools/call' ? (rpc.params as { name?: unknown } | undefined)?.name : undefined;
    const planned = opts.faults?.plan({ method: rpc.method, tool: typeof tool === 'string' ? tool : undefined });
    if (planned instanceof Promise) return planned.then((plan) => (plan ? faulted(req, rpc, tap, plan) : serveRequest(opts, rpc, req, tap)));
    return planned ? faulted(req, rpc, tap, planned) : serveRequest(opts, rpc, req, tap);
  }

  /** Serve a request some scenario fault fired on. */
  async function faulted(req: HttpInput, rpc: JsonRpcRequest, tap: ExchangeHandle | undefined, plan: FaultPlan): Promise<HttpOutput> {
    tap?.annotate({ fault: plan.names.join(', ') });
    if (plan.instance) opts.instance?.open(plan.instance);
    const downNow = plan.instance && opts.instance?.downAnswer();
    if (downNow) {
      if (downNow.reset) tap?.close('dropped');
      else tap?.respond(downNow.status, downNow.body);
      return downNow;
    }
    if (plan.delayMs > 0) await new Promise<void>((resolve) => opts.setTimer(resolve, plan.delayMs));
    let response: HttpOutput;
    if (plan.reply) {
      const reply = faultReply(plan.reply, rpc.id);
      tap?.respond(reply.status, reply.body);
      response = reply.output;
    } else response = await serveRequest(opts, rpc, req, tap, plan);
    return plan.drip ? dripResponse(response, plan.drip, { setTimer: opts.setTimer }) : response;
  }
}
