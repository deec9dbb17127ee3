import type { Implementation, RequestId } from '../protocol';
import type { Clock } from '../shared/clock';
import type { ConnectionOptions, RequestOptions } from './connection-types';
import { runExchange, type ExchangeResult } from './exchange';
import { buildRequest, legacyHeaders, withTasksExtension, type Era } from './request-builder';
import { respondToServer } from './server-requests';

/**
 * One attempt of one request on the wire, apart from the connection's state machine
 * (connection.ts decides era, version and retries; this only sends what it is told): builds
 * the message and headers, relays this request's progress to its caller, and answers the
 * server's own requests on a 2025-11-25 stream.
 */

/** What the connection knows at the moment of sending. */
interface SendContext {
  options: ConnectionOptions;
  clock: Clock;
  clientInfo: Implementation;
  warn: (text: string) => void;
  version: string;
  sessionId: string | undefined;
}

/** What one attempt yields: the exchange, the id it went out with, and whether it declared the tasks extension. */
interface SentRequest {
  ex: ExchangeResult;
  id: RequestId;
  declaredTasks: boolean;
}

/** Send one attempt of `method` with id `id` as `asEra`. */
export async function sendRequest(
  ctx: SendContext,
  id: number,
  method: string,
  params: Record<string, unknown> | undefined,
  o: RequestOptions,
  asEra: Era,
): Promise<SentRequest> {
  const { options, version, sessionId } = ctx;
  o.onId?.(id);
  const caps = options.capabilities ?? {};
  const declaredTasks = asEra === 'modern' && !!o.declareTasks;
  const progressToken = o.onProgress ? `p${id}` : undefined;
  const built = buildRequest({
    id,
    method,
    params,
    era: asEra,
    protocolVersion: version,
    capabilities: declaredTasks ? withTasksExtension(caps) : caps,
    clientInfo: ctx.clientInfo,
    logLevel: options.logLevel,
    progressToken,
    bindings: o.bindings,
    sessionId,
  });
  const ex = await runExchange(options.transport, ctx.clock, built.message, built.headers, {
    signal: o.signal,
    conversationId: o.conversationId,
    timeoutMs: o.timeoutMs ?? options.timeoutMs ?? 60_000,
    maxTimeoutMs: o.maxTimeoutMs ?? options.maxTimeoutMs ?? 600_000,
    progressToken,
    onNotification: (n) => {
      // Progress for another request's token is not this caller's.
      if (n.method === 'notifications/progress' && progressToken !== undefined && n.params?.progressToken === progressToken) {
        const p = n.params as { progress: number; total?: number; message?: string };
        o.onProgress?.({
          progress: p.progress,
          ...(p.total !== undefined ? { total: p.total } : {}),
          ...(p.message !== undefined ? { message: p.message } : {}),
        });
      }
      o.onNotification?.(n);
      options.onNotification?.(n);
    },
    // 2025-11-25 HTTP: the server's questions ride the request's stream, which may be resumed.
    resumable: asEra === 'legacy',
    onServerRequest: (r) => {
      if (asEra !== 'legacy')
        return ctx.warn(`the server sent a ${r.method} request on a 2026-07-28 stream (servers ask through input_required there); not answered`);
      void respondToServer(options.transport, r, options.onServerRequest, legacyHeaders(undefined, version, sessionId), ctx.warn);
    },
  });
  return { ex, id, declaredTasks };
}
