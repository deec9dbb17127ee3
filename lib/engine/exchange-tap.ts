import type { SseChannel } from './sse';

/**
 * How the HTTP front reports each exchange as it happens (request, response, stream frames and
 * ending), so something else (the journal) can keep it. The front knows only this contract.
 */

/** How a streamed response ended. */
export type StreamEnd = 'complete' | 'client-closed' | 'dropped';

/** What the HTTP front knows when a request arrives. */
export interface ExchangeStart {
  method?: string;
  id?: unknown;
  /** A record made for this exchange: the tap may keep it rather than copy it. */
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  /** The body's JSON text, when the front has it: the tap may keep that and parse it when read. */
  requestText?: string;
  /** Nesting of `requestText` as its parse measured it (parseJson's `depth`), so the tap need not count it again. */
  requestDepth?: number;
  /** A message that came over stdio (or in memory): no HTTP headers or status. Absent over HTTP. */
  transport?: 'stdio';
}

/** Progress of one exchange, reported by the HTTP front (or the message face, over stdio). */
export interface ExchangeHandle {
  /**
   * A JSON (or empty) answer: completes the entry. `status` is undefined over stdio, which has
   * none. `text` is `body` as sent, when serialized already; `depth` its nesting, when known
   * (journal-lazy.ts counts it otherwise).
   */
  respond(status: number | undefined, body?: unknown, text?: string, depth?: number): void;
  /** The response turned into an SSE stream. */
  stream(status: number): void;
  frame(message: unknown): void;
  /** The stream closed; `final` is the final response when it was written. */
  close(end: StreamEnd, final?: unknown): void;
  annotate(fields: { principal?: string; fault?: string }): void;
}

/** Something that journals exchanges (the HTTP front and the message face call it). */
export interface ExchangeTap {
  open(start: ExchangeStart): ExchangeHandle;
}

/**
 * Journal what a stream really writes: wrap the channel that faces the wire, so injected faults
 * (duplicates, reordering, garbage) wrapped around it show up as the client saw them.
 */
export function tapChannel(channel: SseChannel, handle: ExchangeHandle | undefined): SseChannel {
  if (!handle) return channel;
  return {
    stream: channel.stream,
    ...(channel.attach ? { attach: channel.attach } : {}),
    send(message, o) {
      if (!channel.closed) handle.frame(message);
      channel.send(message, o);
    },
    sendRaw(text) {
      if (!channel.closed) handle.frame(text);
      channel.sendRaw(text);
    },
    finish: (message) => channel.finish(message),
    abort: () => channel.abort(),
    drop: () => channel.drop(),
    stall: () => channel.stall(),
    get closed() {
      return channel.closed;
    },
    get dropped() {
      return channel.dropped;
    },
  };
}
