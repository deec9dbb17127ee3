import { parseJson } from '../shared/json';
import { readSse, StreamBudgetError } from './sse';
import { abortDetail, type TransportEvent } from './transport';

/**
 * Reading one HTTP answer for the Streamable HTTP transport: its JSON, its SSE events up to
 * the response, the wait between resumes, and the redirects the transport refuses.
 */

/**
 * A message from a server, parsed with the nesting cap of `parseJson`: JSON.parse takes 10,000
 * levels, but the frames, lints, recorder and views that JSON.stringify or walk the value would
 * overflow the stack later. Past the cap the text stays as it came (shown raw) with the reason.
 */
export function parseMessage(raw: string): { message?: unknown; parseError?: string } {
  const parsed = parseJson(raw);
  return parsed.ok ? { message: parsed.value } : { parseError: parsed.message };
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

/** Wait `ms`; false when the signal fired first. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

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
      const parsed = parseMessage(data);
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

/**
 * The text of a body that is not a stream (JSON), read chunk by chunk and counted: past
 * `maxBytes` the body is cancelled and a `StreamBudgetError` thrown, so an answer of any size
 * never becomes one string (`res.text()` would hold all of it before anything could refuse it).
 * The chunks are kept as bytes and decoded once the body is whole: an answer cut at its budget
 * is never decoded at all (decoding 16 MiB into strings that were then dropped cost the page
 * its work and a collection of them), and bytes wait outside the JS heap.
 */
export async function readBodyCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        const decoder = new TextDecoder();
        return chunks.map((c) => decoder.decode(c, { stream: true })).join('') + decoder.decode();
      }
      read += value.byteLength;
      if (read > maxBytes) throw new StreamBudgetError(maxBytes, read, 'answer');
      chunks.push(value);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
  }
}

/** The events of a JSON (not SSE) answer: its message, or the cut when it is over `budget`, then the close. */
export async function* readJsonAnswer(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
  budget: number,
): AsyncGenerator<TransportEvent> {
  let text: string;
  try {
    text = await readBodyCapped(body, budget);
  } catch (e) {
    if (e instanceof StreamBudgetError) {
      // As for a cut stream: an error frame on the exchange, and the reason on its close.
      const detail = `${e.message} (the page's limit; Loupe closed the connection)`;
      yield { type: 'error', message: detail, cause: 'protocol' };
      yield { type: 'close', cause: 'aborted', detail };
    } else if (signal?.aborted) yield { type: 'close', cause: 'aborted', detail: abortDetail(signal) };
    else yield { type: 'close', cause: 'dropped', detail: (e as Error).message };
    return;
  }
  if (text.length) yield { type: 'message', raw: text, ...parseMessage(text) };
  yield { type: 'close', cause: 'end' };
}

/** A redirect answer: `redirect: 'manual'` gives a browser an opaque one (status 0), Node the 3xx itself. */
export const isRedirect = (r: Response) => r.type === 'opaqueredirect' || (r.status >= 300 && r.status < 400);

/** What the timeline says about a refused redirect: where it pointed, when the runtime lets us see. */
export function refusedRedirect(r: Response): string {
  const to = r.headers.get('location');
  const what = r.status ? `HTTP ${r.status} redirecting to ${to ? `"${to}"` : 'an unnamed place'}` : 'a redirect (the browser hides where to)';
  return `Refused a redirect: the server answered ${what}; Loupe never follows a server's redirects`;
}

export const isEventStream = (r: Response) => (r.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
