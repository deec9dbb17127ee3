import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ANSWER_BYTE_BUDGET } from '../protocol/loupe-api';

/** Reading a `text/event-stream` body into events and comments with eventsource-parser. */

/** An event carries the `retry` (ms) the server set since the previous event, when it set one. */
type SseItem = { type: 'event'; event: EventSourceMessage; retry?: number } | { type: 'comment'; text: string };

/** Largest partial line or event buffered before the stream is treated as broken. */
const MAX_SSE_BUFFER = 8 * 1024 * 1024;

/**
 * What one answer (an SSE stream, a JSON body) may carry before the page cuts it: the one rule of
 * `ANSWER_BYTE_BUDGET` (lib/protocol/loupe-api.ts). Generous for real streams (progress, logs, a
 * long listen); 2025-11-25 resumptions count afresh.
 */
export const STREAM_BYTE_BUDGET = ANSWER_BYTE_BUDGET;

/** Thrown when an answer has carried more bytes than its budget; the body is cancelled. */
export class StreamBudgetError extends Error {
  constructor(
    readonly budgetBytes: number,
    readonly readBytes: number,
    what: 'stream' | 'answer' = 'stream',
  ) {
    super(`${what === 'stream' ? 'stream' : 'JSON answer'} cut after ${mib(readBytes)}: over the budget of ${mib(budgetBytes)} per ${what}`);
    this.name = 'StreamBudgetError';
  }
}

/** Bytes as MiB for messages ("16.0 MiB"). */
export const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * Yield the events and comments of an SSE body as they arrive. Throws when the body fails
 * mid-way (a dropped connection), an event exceeds the buffer cap, or the body has carried more
 * than `maxBytes` in all (`StreamBudgetError`: a stream that never ends must not grow the page
 * without bound). Stopping the iteration cancels the body.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, maxBufferSize = MAX_SSE_BUFFER, maxBytes = Infinity): AsyncGenerator<SseItem> {
  const queue: SseItem[] = [];
  let failure: Error | undefined;
  let retry: number | undefined;
  const parser = createParser({
    maxBufferSize,
    onEvent: (event) => {
      queue.push({ type: 'event', event, ...(retry !== undefined ? { retry } : {}) });
      retry = undefined;
    },
    onRetry: (ms) => {
      retry = ms;
    },
    onComment: (text) => queue.push({ type: 'comment', text }),
    onError: (e) => {
      // Unknown fields and bad retry values are ignorable; an oversized buffer is not.
      if (e.type === 'max-buffer-size-exceeded') failure = new Error(`SSE event larger than ${maxBufferSize} characters`);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let finished = false;
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      read += value?.byteLength ?? 0;
      // Checked before parsing: the events of the chunk that crossed the budget are not kept either.
      if (read > maxBytes) throw new StreamBudgetError(maxBytes, read);
      if (done) {
        parser.feed(decoder.decode());
        parser.reset({ consume: true });
      } else parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length) yield queue.shift()!;
      if (failure) throw failure;
      if (done) {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
}

/** Parse SSE text completely (tests, recordings): the data of each event and each comment. */
export function parseSseText(text: string): SseItem[] {
  const out: SseItem[] = [];
  const parser = createParser({ onEvent: (event) => out.push({ type: 'event', event }), onComment: (t) => out.push({ type: 'comment', text: t }) });
  parser.feed(text);
  parser.reset({ consume: true });
  return out;
}
