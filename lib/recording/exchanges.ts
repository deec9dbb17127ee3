import type { Frame } from '../client/frames';
import { asRecord } from '../shared/records';

/**
 * A recording read as exchanges: the frames of one exchangeId regrouped into the request, the
 * response head, the answer (a JSON body or the SSE frames) and the close. Replay, HAR export
 * and scenario conversion all read recordings this way.
 */

export interface RecordedExchange {
  exchangeId: string;
  connectionId: string;
  /** The outgoing frame (`http-request`, or an outgoing `message` on message transports). */
  request: Frame;
  method?: string;
  rpcId?: string | number;
  /** The request's params (JSON-RPC), if any. */
  params?: Record<string, unknown>;
  head?: Frame;
  /** The JSON-RPC response to the request, when it came. */
  response?: Record<string, unknown>;
  /** The frame that carried the response. */
  responseFrame?: Frame;
  /** Every incoming frame of the exchange after the head, in order (bodies, SSE frames, comments, close, errors). */
  incoming: Frame[];
  /** Whether the answer was an SSE stream. */
  streamed: boolean;
  /** Messages other than the response that arrived (notifications, server requests). */
  messages: Record<string, unknown>[];
  startAt: number;
  endAt: number;
}

/** Whether a message is the response to the request with `id`. */
export function isResponseTo(message: Record<string, unknown> | undefined, id: unknown): boolean {
  return !!message && ('result' in message || 'error' in message) && (message.id === id || (id === undefined && message.id === null));
}

/** Group frames into exchanges, in the order their request was sent. Bridge frames are not exchanges. */
export function groupExchanges(frames: readonly Frame[]): RecordedExchange[] {
  const groups = new Map<string, Frame[]>();
  for (const f of frames) {
    if (f.kind === 'bridge') continue;
    const key = `${f.connectionId}\u0000${f.exchangeId}`;
    const g = groups.get(key);
    if (g) g.push(f);
    else groups.set(key, [f]);
  }
  const out: RecordedExchange[] = [];
  for (const group of groups.values()) {
    const request = group.find((f) => f.direction === 'out' && (f.kind === 'http-request' || f.kind === 'message'));
    if (!request) continue;
    const body = asRecord(request.body);
    const rpcId = typeof body?.id === 'string' || typeof body?.id === 'number' ? body.id : request.rpcId;
    const head = group.find((f) => f.kind === 'http-response');
    const incoming = group.filter((f) => f.direction === 'in' && f.kind !== 'http-response');
    let response: Record<string, unknown> | undefined;
    let responseFrame: Frame | undefined;
    const messages: Record<string, unknown>[] = [];
    for (const f of incoming) {
      if (f.kind !== 'message' && f.kind !== 'sse-frame') continue;
      const m = asRecord(f.body);
      if (!m) continue;
      if (!response && rpcId !== undefined && isResponseTo(m, rpcId)) {
        response = m;
        responseFrame = f;
      } else if (!response && rpcId !== undefined && f.kind === 'message' && m.id === null && 'error' in m) {
        // A transport-level refusal (400/403/413...) answers with id null.
        response = m;
        responseFrame = f;
      } else messages.push(m);
    }
    const method = typeof body?.method === 'string' ? body.method : request.method;
    out.push({
      exchangeId: request.exchangeId,
      connectionId: request.connectionId,
      request,
      ...(method ? { method } : {}),
      ...(rpcId !== undefined ? { rpcId } : {}),
      ...(asRecord(body?.params) ? { params: asRecord(body?.params) } : {}),
      ...(head ? { head } : {}),
      ...(response ? { response, responseFrame } : {}),
      incoming,
      streamed: group.some((f) => f.kind === 'sse-open'),
      messages,
      startAt: request.at,
      endAt: (group.at(-1) ?? request).at,
    });
  }
  return out.sort((a, b) => a.startAt - b.startAt);
}
