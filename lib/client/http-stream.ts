import { abortDetail, type TransportEvent } from './transport';
import { readSse, StreamBudgetError } from './sse';

/** Reading one SSE response body of a Streamable HTTP request into transport events. */

/** Parse a body or event as JSON; the error text when it is not. */
export function parse(raw: string): { message?: unknown; parseError?: string } {
  try {
    return { message: JSON.parse(raw) };
  } catch (e) {
    return { parseError: (e as Error).message };
  }
}

/** Whether a parsed message is the response to the request with `id`. */
function answers(message: unknown, id: unknown): boolean {
  if (id === undefined || !message || typeof message !== 'object') return false;
  const m = message as Record<string, unknown>;
  return m.id === id && ('result' in m || 'error' in m);
}

/** The last event id and `retry` a request's stream carried, for resuming it. */
export interface ResumeState {
  lastEventId?: string;
  retryMs?: number;
}

/** How one stream ended; `cut` = over the page's byte budget (sse.ts), closed by Loupe. */
type StreamEnding = { cause: 'answered' } | { cause: 'end' | 'dropped' | 'aborted' | 'cut'; detail?: string };

/** Yield one SSE body's events until it ends, fails or carries the response to `requestId`. */
export async function* readStream(
  body: ReadableStream<Uint8Array>,
  requestId: unknown,
  signal: AbortSignal | undefined,
  resume: ResumeState,
  budget: number,
): AsyncGenerator<TransportEvent, StreamEnding> {
  try {
    for await (const item of readSse(body, undefined, budget)) {
      if (item.type === 'comment') {
        yield { type: 'comment', text: item.text };
        continue;
      }
      const { data, event, id } = item.event;
      if (id) resume.lastEventId = id;
      if (item.retry !== undefined) resume.retryMs = item.retry;
      const parsed = parse(data);
      const sse = { ...(event ? { event } : {}), ...(id ? { id } : {}), ...(item.retry !== undefined ? { retry: item.retry } : {}) };
      yield { type: 'message', raw: data, ...parsed, sse };
      // The response ends the request's stream; nothing more may come for it.
      if (answers(parsed.message, requestId)) return { cause: 'answered' };
    }
    return { cause: 'end' };
  } catch (e) {
    if (e instanceof StreamBudgetError) return { cause: 'cut', detail: `${e.message} (the page's limit; Loupe closed the stream)` };
    if (signal?.aborted) return { cause: 'aborted', detail: abortDetail(signal) };
    return { cause: 'dropped', detail: (e as Error).message };
  }
}
