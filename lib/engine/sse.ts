import { BoundedSseBuffer } from './sse-buffer';

/**
 * Server-sent events for per-request streams and listen streams: framing, the channel the
 * engine writes to, and delivery to a web stream reader or a host's sink, with keep-alives
 * while idle. Back-pressure is the buffer's (sse-buffer.ts).
 */

/** Serialize a JSON-RPC message as an SSE `message` event. */
function sseMessage(message: unknown, id?: string): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** Headers of every SSE response. */
export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * Where a host writes a stream itself (node:http) instead of reading `stream`: a web stream
 * costs a promise and a read per event, which a fan-out to 1,000 listeners pays 1,000 times.
 */
export interface SseSink {
  /** Write a chunk; false when the sink wants to wait for `onDrain`. */
  write(chunk: Uint8Array): boolean;
  end(): void;
  /** Cut the connection abruptly (a dropped stream), after what was written has gone out. */
  destroy(): void;
  onDrain(listener: () => void): void;
  /** The client went away (or the response ended). */
  onClose(listener: () => void): void;
}

/** A writable SSE channel backed by a ReadableStream that pulls from a bounded buffer. */
export interface SseChannel {
  readonly stream: ReadableStream<Uint8Array>;
  /** Deliver to `sink` instead of `stream` (call once, before reading `stream`, or never). */
  attach?(sink: SseSink): void;
  /** `id` names the event, so a client can resume after it (Last-Event-ID). */
  send(message: unknown, opts?: { droppable?: boolean; key?: string; id?: string }): void;
  /** Raw text (garbage frames, comments) for fault injection. */
  sendRaw(text: string): void;
  /** Send the final response and close once it is written. */
  finish(message?: unknown): void;
  /** Close without a final response (abrupt drop). */
  abort(): void;
  /** Fault injection: write what is queued, then cut the stream abruptly (no final response). */
  drop(): void;
  /** Fault injection: write what is queued, then go silent (no keep-alives, no response) while staying open. */
  stall(): void;
  readonly closed: boolean;
  readonly dropped: number;
}

interface SseChannelOptions {
  capacity?: number;
  keepAliveMs?: number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (h: unknown) => void;
  /** Called once when the reader goes away or the stream ends. */
  onClose?: (reason: 'client' | 'finished' | 'aborted') => void;
}

/** Create an SSE channel; keep-alive comments are sent while it is idle. */
export function createSseChannel(opts: SseChannelOptions): SseChannel {
  const buffer = new BoundedSseBuffer(opts.capacity ?? 64);
  const enc = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let waiting = false;
  let closed = false;
  let finishing = false;
  let stalled = false;
  let dropping = false;
  let keepAlive: unknown;
  let sink: SseSink | undefined;
  /** How the stream ended before a sink was attached (the sink is then ended the same way). */
  let ended: 'end' | 'error' | undefined;

  const endStream = () => {
    ended ??= 'end';
    if (sink) return sink.end();
    try {
      controller.close();
    } catch {
      /* already closed by the reader */
    }
  };
  const errorStream = () => {
    ended ??= 'error';
    if (sink) return sink.destroy();
    try {
      controller.error(new Error('stream dropped'));
    } catch {
      /* already closed */
    }
  };
  /** Hand one frame to the reader or the sink; says whether another may follow at once. */
  const deliver = (text: string): boolean => {
    if (sink) return sink.write(enc.encode(text));
    controller.enqueue(enc.encode(text));
    return false;
  };

  const close = (reason: 'client' | 'finished' | 'aborted') => {
    if (closed) return;
    closed = true;
    if (keepAlive !== undefined) opts.clearTimer(keepAlive);
    opts.onClose?.(reason);
  };
  const scheduleKeepAlive = () => {
    if (!opts.keepAliveMs || closed || stalled) return;
    if (keepAlive !== undefined) opts.clearTimer(keepAlive);
    keepAlive = opts.setTimer(() => {
      keepAlive = undefined;
      if (closed || stalled || dropping) return;
      buffer.push({ text: ': keep-alive\n\n', droppable: true, key: 'keep-alive' });
      flush();
      scheduleKeepAlive();
    }, opts.keepAliveMs);
  };
  const cut = () => {
    errorStream();
    close('aborted');
  };
  // A drop ends the body without the final response. It closes rather than errors the stream:
  // an error makes a host (Next) discard frames it has not written out yet, and the client must
  // still see every frame sent before the cut.
  const cutSoon = () => {
    endStream();
    close('aborted');
  };
  // A reader takes one frame per pull; a sink takes frames until it asks to wait for a drain.
  const flush = () => {
    while (!closed && waiting) {
      const frame = buffer.shift();
      if (!frame) {
        if (dropping) cutSoon();
        return;
      }
      try {
        waiting = deliver(frame.text);
      } catch {
        close('client');
        return;
      }
      if (finishing && buffer.size === 0) {
        endStream();
        close('finished');
        return;
      }
    }
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        scheduleKeepAlive();
      },
      pull() {
        waiting = true;
        flush();
      },
      cancel() {
        close('client');
      },
    },
    { highWaterMark: 0 },
  );

  return {
    stream,
    attach(s) {
      sink = s;
      if (ended || closed) return ended === 'error' ? s.destroy() : s.end();
      s.onDrain(() => {
        waiting = true;
        flush();
      });
      s.onClose(() => close('client'));
      waiting = true;
      flush();
    },
    send(message, o) {
      if (closed || finishing || stalled || dropping) return;
      buffer.push({ text: sseMessage(message, o?.id), droppable: !!o?.droppable, key: o?.key });
      flush();
    },
    sendRaw(text) {
      if (closed || finishing || stalled || dropping) return;
      buffer.push({ text, droppable: false });
      flush();
    },
    finish(message) {
      if (closed || finishing || stalled || dropping) return;
      finishing = true;
      if (message !== undefined) buffer.pushFinal({ text: sseMessage(message), droppable: false });
      if (buffer.size === 0) {
        endStream();
        close('finished');
      } else flush();
    },
    abort() {
      if (!closed) cut();
    },
    drop() {
      if (closed || dropping) return;
      dropping = true;
      if (keepAlive !== undefined) opts.clearTimer(keepAlive);
      keepAlive = undefined;
      // Cut when nothing is queued and the reader waits; otherwise on its next pull.
      if (buffer.size === 0 && waiting) cutSoon();
    },
    stall() {
      stalled = true;
      if (keepAlive !== undefined) opts.clearTimer(keepAlive);
      keepAlive = undefined;
    },
    get closed() {
      return closed;
    },
    get dropped() {
      return buffer.dropped;
    },
  };
}
