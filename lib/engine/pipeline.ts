import { ERROR, HEADER, LEGACY_VERSIONS, META, type JsonRpcRequest } from '../protocol';
import { asRecord } from '../shared/records';
import type { EngineCore, Outcome, RequestContext } from './context';
import { createModernDispatch } from './dispatch';
import type { HeaderBag } from './http-types';
import { createLegacyDispatch } from './legacy';
import type { ListenHub } from './listen';
import { principalOf } from './principal';
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
}

/** Answer one request. Never rejects: a handler that throws answers -32603. */
export type RequestPipeline = (req: JsonRpcRequest, origin: RequestOrigin) => Promise<Outcome>;

/** Era of a request: legacy when it carries a legacy version header or is a handshake without modern `_meta`. */
function eraOf(req: JsonRpcRequest, headers?: HeaderBag): RequestContext['era'] {
  const hv = headers?.get(HEADER.protocolVersion)?.trim();
  if (hv && (LEGACY_VERSIONS as readonly string[]).includes(hv)) return 'legacy';
  const meta = asRecord(req.params?._meta);
  if (req.method === 'initialize' && !(meta && META.protocolVersion in meta) && !hv) return 'legacy';
  return 'modern';
}

/** Compose the eras' dispatch over the engine core. */
export function createRequestPipeline(core: EngineCore, tasks: TaskManager, hub: ListenHub): RequestPipeline {
  const modern = createModernDispatch(core, tasks, hub);
  const legacy = createLegacyDispatch(core, tasks);
  const scenarioId = core.scenario.id;

  /** HTTP callers are told apart by their bearer token; a stdio peer is the one local user. */
  const principal = (origin: RequestOrigin) =>
    origin.transport === 'http' ? principalOf(scenarioId, origin.headers?.get('authorization') ?? null) : `${scenarioId}:${origin.transport}`;

  async function answer(req: JsonRpcRequest, origin: RequestOrigin): Promise<Outcome> {
    const who = await principal(origin);
    const era = eraOf(req, origin.headers);
    if (era === 'legacy' && !core.scenario.settings.legacy) {
      return { error: { code: ERROR.methodNotFound, message: `Method not found: ${req.method}` }, httpStatus: 404 };
    }
    const ctx: RequestContext = {
      transport: origin.transport,
      era,
      id: req.id,
      method: req.method,
      params: req.params ?? {},
      caps: {},
      principal: who,
      signal: origin.signal,
      notify: origin.notify,
      openStream: origin.openStream,
      headers: origin.headers,
    };
    return era === 'legacy' ? legacy(ctx) : modern(ctx);
  }

  return (req, origin) =>
    answer(req, origin).catch((e: unknown) => ({ error: { code: ERROR.internalError, message: `Internal error: ${(e as Error)?.message ?? String(e)}` } }));
}
