import { ERROR, HEADER, META, type JsonRpcRequest } from '../protocol';
import { asRecord } from '../shared/records';
import { fail, type EngineCore, type Outcome, type RequestContext } from './context';
import { createModernDispatch } from './dispatch';
import type { HeaderBag } from './http-types';
import { createLegacyDispatch } from './legacy';
import type { ListenHub } from './listen';
import { eraOf, legacyHeaderMismatch } from './era';
import { versionsOf } from './served-versions';
import type { LegacySession, OutboundRequests } from './legacy-session';
import type { TaskManager } from './tasks';

/**
 * The request pipeline every transport feeds: one parsed JSON-RPC request in, one outcome out.
 * It settles who is calling, picks the protocol era and runs that era's dispatch. Transports
 * (the HTTP front, the message face) own framing and streams; nothing here calls back into them
 * except through the hooks a request carries.
 */

/** What a transport hands over with each request. */
export interface RequestOrigin {
  transport: RequestContext['transport'];
  /** HTTP request headers; their presence turns on the header checks of 2026-07-28. */
  headers?: HeaderBag;
  signal: AbortSignal;
  notify: RequestContext['notify'];
  openStream: RequestContext['openStream'];
  /** The 2025-11-25 session this request belongs to (stdio: the process's; HTTP: its Mcp-Session-Id). */
  session?: LegacySession;
  /** Put a server-to-client request on this request's channel; absent where none can carry one. */
  sendRequest?: (message: unknown) => void;
}

/**
 * Answer one request: the outcome itself when nothing had to wait, else a promise of it. Never
 * throws nor rejects: a handler that throws answers -32603.
 */
export type RequestPipeline = (req: JsonRpcRequest, origin: RequestOrigin) => Outcome | Promise<Outcome>;

/** A session's `logging/setLevel` applies to every request that does not name its own level. */
function withSessionLogLevel(params: Record<string, unknown>, session: LegacySession | undefined): Record<string, unknown> {
  const level = session?.logLevel;
  const meta = asRecord(params._meta) ?? {};
  if (!level || META.logLevel in meta) return params;
  return { ...params, _meta: { ...meta, [META.logLevel]: level } };
}

/** The capabilities of a request that declares none (never changed: the modern dispatch replaces it). */
const EMPTY_CAPS: RequestContext['caps'] = Object.freeze({});

/** Compose the eras' dispatch over the engine core. */
export function createRequestPipeline(core: EngineCore, tasks: TaskManager, hub: ListenHub, outbound: OutboundRequests): RequestPipeline {
  const modern = createModernDispatch(core, tasks, hub);
  const legacy = createLegacyDispatch(core, tasks);
  const scenarioId = core.scenario.id;

  /**
   * HTTP callers are told apart by their bearer token; a stdio peer is the one local user. A
   * caller without a token, the common case, is known at once: nothing to wait for.
   */
  const principal = (origin: RequestOrigin): string | Promise<string> => {
    if (origin.transport !== 'http') return `${scenarioId}:${origin.transport}`;
    const authorization = origin.headers?.get('authorization');
    return authorization ? core.principalOf(authorization) : core.anonymous;
  };

  /** Answer as `who`; synchronous as far as the era's dispatch is. */
  function answerAs(req: JsonRpcRequest, origin: RequestOrigin, who: string): Outcome | Promise<Outcome> {
    const servesLegacy = core.scenario.settings.legacy;
    const era = eraOf(req, { headers: origin.headers, inSession: !!origin.session?.initialized, servesLegacy });
    if (typeof era !== 'string') return era;
    if (era === 'legacy' && !servesLegacy) {
      // A modern-only server names the versions it speaks, so a 2025-11-25 client learns why (spec: dual-era rules).
      const asked = req.params?.protocolVersion ?? origin.headers?.get(HEADER.protocolVersion);
      return {
        ...fail(ERROR.unsupportedProtocolVersion, 'Unsupported protocol version: this server does not speak 2025-11-25', {
          supported: versionsOf(core.scenario).served,
          ...(typeof asked === 'string' ? { requested: asked } : {}),
        }),
        httpStatus: 400,
      };
    }
    const session = era === 'legacy' ? origin.session : undefined;
    // A session is its opener's: another caller naming its id learns nothing, as for an unknown id.
    if (session?.principal !== undefined && session.principal !== who) return { error: { code: -32001, message: 'Session not found' }, httpStatus: 404 };
    const mismatch = era === 'legacy' ? legacyHeaderMismatch(req, origin.headers) : undefined;
    if (mismatch) return mismatch;
    // Bound here, in the rare request that may ask the client something.
    const send = era === 'legacy' && origin.sendRequest ? origin.sendRequest.bind(origin) : undefined;
    const ctx = new PipelineContext(origin, era, req, era === 'legacy' ? withSessionLogLevel(req.params ?? {}, session) : (req.params ?? {}), who);
    // Set only when there is one (no spread of a throwaway object on every request).
    if (session) {
      ctx.session = session;
      ctx.caps = session.caps;
    }
    if (era === 'legacy' && send) ctx.ask = (method: string, params: Record<string, unknown>) => outbound.ask(method, params, send, origin.signal);
    if (era === 'modern') return modern(ctx);
    return legacy(ctx).then((o) =>
      // In a session, 2025-11-25 carries JSON-RPC errors with HTTP 200: a 404 would read as "session expired".
      'error' in o && o.httpStatus === undefined && session?.initialized ? { ...o, httpStatus: 200 } : o,
    );
  }

  const internalError = (e: unknown): Outcome => ({ error: { code: ERROR.internalError, message: `Internal error: ${(e as Error)?.message ?? String(e)}` } });

  // Each await costs a promise and a microtask: a request that needs none (an anonymous caller,
  // a direct answer) is answered synchronously.
  return (req, origin) => {
    try {
      const who = principal(origin);
      const o = typeof who === 'string' ? answerAs(req, origin, who) : who.then((w) => answerAs(req, origin, w));
      return o instanceof Promise ? o.catch(internalError) : o;
    } catch (e) {
      return internalError(e);
    }
  };
}

/**
 * The context a handler sees. A class: its `signal` getter, `notify` and `openStream` live on
 * the prototype, where an object literal made closures per request. The origin makes its controller only when a
 * handler reads the signal.
 */
class PipelineContext implements RequestContext {
  readonly transport: RequestContext['transport'];
  readonly id: RequestContext['id'];
  readonly method: string;
  caps: RequestContext['caps'] = EMPTY_CAPS;
  readonly headers: RequestContext['headers'];
  session?: LegacySession;
  ask?: RequestContext['ask'];

  constructor(
    private readonly origin: RequestOrigin,
    readonly era: RequestContext['era'],
    req: JsonRpcRequest,
    readonly params: Record<string, unknown>,
    readonly principal: string,
  ) {
    this.transport = origin.transport;
    this.id = req.id;
    this.method = req.method;
    this.headers = origin.headers;
  }

  get signal(): AbortSignal {
    return this.origin.signal;
  }

  // Called on the origin, which may be a class instance whose methods need their `this`.
  notify(method: string, params: Record<string, unknown>): void {
    this.origin.notify(method, params);
  }

  openStream(): void {
    this.origin.openStream();
  }
}
