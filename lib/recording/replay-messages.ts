import type { Frame } from '../client/frames';
import type { RecordedExchange } from './exchanges';
import type { Recording } from './schema';

/**
 * Exchanges recorded off a message transport (stdio) answered over HTTP. On stdio there is no
 * HTTP head: the tap records none, and the stdio transports of the CLI and of the inspector
 * report a placeholder one (no headers, 200 or 202) so their timeline rows look alike. Replaying
 * that head as recorded gave HTTP clients an empty 200, or a 202 with an SSE body and no content
 * type. Here the answer is built as a Streamable HTTP server would send it: the response alone
 * as `application/json`, or, when notifications or server requests came before it, all of them
 * in order as `text/event-stream`; a notification gets 202 and no body.
 */

/** Whether the exchange was carried as stdio messages, so its head (if any) is not an HTTP answer to replay. */
export function carriedAsMessages(recording: Pick<Recording, 'connection'>, x: RecordedExchange): boolean {
  if (recording.connection.transport === 'stdio') return true;
  // A real HTTP answer always has headers (at least a content type or length); a stdio
  // transport's placeholder head has none. Inspector recordings of stdio sessions made before
  // their header said `stdio` are recognised this way.
  return !x.head || Object.keys(x.head.headers ?? {}).length === 0;
}

/** The JSON-RPC messages the server sent for the exchange, in order, up to and including its response. */
export function answerMessages(x: RecordedExchange): Frame[] {
  const out: Frame[] = [];
  for (const f of x.incoming) {
    if ((f.kind !== 'message' && f.kind !== 'sse-frame') || f.body === undefined) continue;
    out.push(f);
    if (f === x.responseFrame) break;
  }
  return out;
}

/** The HTTP answer of a message-carried exchange; `texts` are the messages' JSON, rewritten for this request. */
export function messagesResponse(texts: readonly string[]): Response {
  if (texts.length === 1) return new Response(texts[0], { status: 200, headers: { 'Content-Type': 'application/json' } });
  const body = texts
    .map(
      (t) =>
        `event: message\n${t
          .split('\n')
          .map((l) => `data: ${l}\n`)
          .join('')}\n`,
    )
    .join('');
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
}
