import { ERROR, errorResponse, JsonRpcNotificationSchema, JsonRpcRequestSchema } from '../protocol';
import { createLegacySession, type OutboundRequests } from './legacy-session';
import type { RequestPipeline } from './pipeline';

/**
 * The message face for stdio and in-memory transports: one parsed message at a time, answers
 * and notifications through `send`. `notifications/cancelled` aborts the request it names; a
 * cancelled request sends no answer (a listen stream still sends its final result). One face is
 * one connection (a stdio process): an `initialize` on it selects 2025-11-25 for the rest of the
 * connection, and the client's responses answer the requests the server sent it.
 */

/** Handle one message; resolves once its answer (if any) was sent. */
type MessageHandler = (message: unknown, send: (message: unknown) => void) => Promise<void>;

/** The message face over a request pipeline. */
export function createMessageFace(pipeline: RequestPipeline, outbound: OutboundRequests): MessageHandler {
  const inflight = new Map<string, AbortController>();
  const session = createLegacySession();

  return async function handleMessage(message, send) {
    const req = JsonRpcRequestSchema.safeParse(message);
    if (!req.success) {
      // A notification has no id at all; a message with one that is not a string or number is an
      // invalid request, answered as over HTTP (-32600, id null), not dropped unanswered.
      const note = message && typeof message === 'object' && 'id' in message ? undefined : JsonRpcNotificationSchema.safeParse(message);
      if (note?.success) {
        if (note.data.method === 'notifications/cancelled') {
          const target = (note.data.params as { requestId?: unknown } | undefined)?.requestId;
          inflight.get(JSON.stringify(target))?.abort(new Error('cancelled by notifications/cancelled'));
        }
        return;
      }
      if (message && typeof message === 'object' && ('result' in message || 'error' in message)) {
        // A response answers a request the server sent; one that answers nothing is dropped, as
        // stdio has no way to refuse it.
        outbound.answer(message as Record<string, unknown>);
        return;
      }
      send(errorResponse(null, { code: ERROR.invalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message' }));
      return;
    }
    const r = req.data;
    const ac = new AbortController();
    const key = JSON.stringify(r.id);
    inflight.set(key, ac);
    try {
      const outcome = await pipeline(r, {
        transport: 'stdio',
        signal: ac.signal,
        session,
        sendRequest: send,
        notify: (method, params) => {
          if (!ac.signal.aborted) send({ jsonrpc: '2.0', method, params });
        },
        openStream: () => {},
      });
      if (ac.signal.aborted && r.method !== 'subscriptions/listen') return;
      send('error' in outcome ? errorResponse(r.id, outcome.error) : { jsonrpc: '2.0', id: r.id, result: outcome.result });
    } finally {
      inflight.delete(key);
    }
  };
}
