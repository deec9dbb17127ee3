import { ERROR, errorResponse, JsonRpcNotificationSchema, JsonRpcRequestSchema } from '../protocol';
import type { ExchangeHandle, ExchangeTap } from './exchange-tap';
import { createLegacySession, type OutboundRequests } from './legacy-session';
import type { RequestPipeline } from './pipeline';

/**
 * The message face for stdio and in-memory transports: one parsed message at a time, answers
 * and notifications through `send`. `notifications/cancelled` aborts the request it names; a
 * cancelled request sends no answer, a listen included (cancellation: a server receiving it SHOULD
 * not respond; a listen's final result is for the server ending it, subscriptions' graceful
 * closure). One face is
 * one connection (a stdio process): an `initialize` on it selects 2025-11-25 for the rest of the
 * connection, and the client's responses answer the requests the server sent it.
 *
 * Every message from the client is journaled as over HTTP, so the report card grades stdio
 * clients too: a request's entry holds what the server sent while answering it (notifications,
 * its own requests) as frames and the answer as the response; entries are marked `stdio` and
 * carry no headers or status, so no grade reads an HTTP header into them.
 */

/** Handle one message; resolves once its answer (if any) was sent. */
type MessageHandler = (message: unknown, send: (message: unknown) => void) => Promise<void>;

/** Where the face journals what it served, and whose messages these are. */
interface MessageJournal {
  tap: ExchangeTap;
  principal: string;
}

/** The message face over a request pipeline. */
export function createMessageFace(pipeline: RequestPipeline, outbound: OutboundRequests, journal?: MessageJournal): MessageHandler {
  const inflight = new Map<string, AbortController>();
  const session = createLegacySession();
  const open = (message: unknown, method?: string, id?: unknown): ExchangeHandle | undefined => {
    const handle = journal?.tap.open({ method, id, requestHeaders: {}, requestBody: message, transport: 'stdio' });
    handle?.annotate({ principal: journal!.principal });
    return handle;
  };

  return async function handleMessage(message, send) {
    const req = JsonRpcRequestSchema.safeParse(message);
    if (!req.success) {
      // A notification has no id at all; a message with one that is not a string or number is an
      // invalid request, answered as over HTTP (-32600, id null), not dropped unanswered.
      const note = message && typeof message === 'object' && 'id' in message ? undefined : JsonRpcNotificationSchema.safeParse(message);
      if (note?.success) {
        open(message, note.data.method)?.respond(undefined);
        if (note.data.method === 'notifications/cancelled') {
          const target = (note.data.params as { requestId?: unknown } | undefined)?.requestId;
          inflight.get(JSON.stringify(target))?.abort(new Error('cancelled by notifications/cancelled'));
        }
        return;
      }
      if (message && typeof message === 'object' && ('result' in message || 'error' in message)) {
        // A response answers a request the server sent; one that answers nothing is dropped, as
        // stdio has no way to refuse it.
        open(message)?.respond(undefined);
        outbound.answer(message as Record<string, unknown>);
        return;
      }
      const refusal = errorResponse(null, { code: ERROR.invalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message' });
      open(message)?.respond(undefined, refusal);
      send(refusal);
      return;
    }
    const r = req.data;
    const ac = new AbortController();
    const key = JSON.stringify(r.id);
    const handle = open(message, r.method, r.id);
    // What the server sends while answering is journaled on this request's entry, as an SSE frame is over HTTP.
    const out = (m: unknown) => {
      handle?.frame(m);
      send(m);
    };
    inflight.set(key, ac);
    try {
      const outcome = await pipeline(r, {
        transport: 'stdio',
        signal: ac.signal,
        session,
        sendRequest: out,
        notify: (method, params) => {
          if (!ac.signal.aborted) out({ jsonrpc: '2.0', method, params });
        },
        openStream: () => {},
      });
      if (ac.signal.aborted) {
        handle?.close('client-closed');
        return;
      }
      const answer = 'error' in outcome ? errorResponse(r.id, outcome.error) : { jsonrpc: '2.0', id: r.id, result: outcome.result };
      handle?.respond(undefined, answer);
      send(answer);
    } finally {
      inflight.delete(key);
    }
  };
}
