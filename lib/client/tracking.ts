import { rpcFields, taskIdOfMessage, utf8Bytes, type CloseReason, type Frame, type FrameKind, type FrameSink } from './frames';
import type { Transport, TransportEvent, TransportRequestOptions } from './transport';

/**
 * A Transport decorator that reports every frame of every exchange to a sink, with timings,
 * and passes the events through unchanged. The timeline store, the recorder and the CLI's
 * `--record` all listen here; nothing else in the client produces frames.
 */

interface TrackingOptions {
  /** Receives each frame as it happens; must not throw (errors are swallowed). */
  sink: FrameSink;
  /** Names the connection in every frame (default: a random id). */
  connectionId?: string;
  /** Wall clock in ms (default Date.now); injected so recordings and tests are exact. */
  now?: () => number;
}

/** A tracked transport also exposes the connection id its frames carry. */
export interface TrackedTransport extends Transport {
  readonly connectionId: string;
  /**
   * Report a frame that did not come through `send` (an MCP Apps bridge message, a note from
   * the UI) in the same sequence; `seq`, `connectionId` and `at` are filled in.
   */
  record(frame: Omit<Frame, 'seq' | 'connectionId' | 'at' | 'bytes'> & { at?: number; bytes?: number }): void;
}

let connections = 0;

/** Wrap a transport so every exchange is reported frame by frame. */
export function createTrackingTransport(inner: Transport, options: TrackingOptions): TrackedTransport {
  const connectionId = options.connectionId ?? `c${Date.now().toString(36)}${(connections++).toString(36)}`;
  const now = options.now ?? (() => Date.now());
  let seq = 0;
  let exchanges = 0;
  // 2025-11-25: the server's own requests (elicitation/create...) by id, so the client's answer,
  // sent as its own exchange with no method of its own, is labelled with the method it answers.
  const serverAsked = new Map<string | number, string>();
  // Streams still open, so that closing the connection reports their end at once: a recording
  // written right after close (the CLI's --record) still holds each stream's sse-close.
  const streams = new Map<string, () => void>();

  const emit = (frame: Omit<Frame, 'seq' | 'connectionId'>) => {
    try {
      options.sink({ seq: seq++, connectionId, ...frame });
    } catch {
      /* a broken sink must not break the connection */
    }
  };

  /**
   * Report one exchange's events as frames and pass them on. `message` is what was posted; a
   * GET stream (`openStream`) posts nothing, so its request frame is reported here, bodiless, as
   * the tap reports one.
   */
  async function* track(message: unknown, req: TransportRequestOptions, events: AsyncIterable<TransportEvent>, get?: boolean): AsyncGenerator<TransportEvent> {
    const exchangeId = `${connectionId}:${++exchanges}`;
    const { method: own, id: rpcId } = rpcFields(message);
    const answered = own === undefined && rpcId !== undefined ? serverAsked.get(rpcId) : undefined;
    if (answered !== undefined && rpcId !== undefined) serverAsked.delete(rpcId);
    const reqMethod = own ?? answered;
    const common = {
      exchangeId,
      ...(req.conversationId ? { conversationId: req.conversationId } : {}),
      ...(rpcId !== undefined ? { rpcId } : {}),
    };
    const started = now();
    let streamStart: number | undefined;
    let responded = false;
    let closed = false;
    let errored = false;

    const frame = (kind: FrameKind, direction: 'in' | 'out', extra: Partial<Frame>) => {
      const body = extra.body;
      const own = rpcFields(body);
      const taskId = taskIdOfMessage(body) ?? (kind === 'http-request' ? undefined : taskIdOfMessage(message));
      emit({
        at: now(),
        direction,
        kind,
        ...common,
        ...((own.method ?? reqMethod) ? { method: own.method ?? reqMethod } : {}),
        ...(taskId ? { taskId } : {}),
        bytes: utf8Bytes(extra.raw),
        ...extra,
      });
    };

    const close = (reason: CloseReason, detail?: string) => {
      if (closed) return;
      closed = true;
      streams.delete(exchangeId);
      if (streamStart === undefined) return;
      frame('sse-close', 'in', { streamId: exchangeId, closeReason: reason, durationMs: now() - streamStart, ...(detail ? { errorText: detail } : {}) });
    };

    if (get) frame('http-request', 'out', { headers: lower({ ...(req.headers ?? {}), Accept: 'text/event-stream' }) });
    try {
      for await (const ev of events) {
        switch (ev.type) {
          case 'sent':
            frame('http-request', 'out', { headers: lower(ev.headers), body: ev.message, raw: ev.raw });
            break;
          case 'response':
            frame('http-response', 'in', { httpStatus: ev.status, headers: ev.headers, durationMs: now() - started });
            if (ev.stream) {
              streamStart = now();
              frame('sse-open', 'in', { streamId: exchangeId });
              streams.set(exchangeId, () => close('client-closed', 'the connection was closed'));
            }
            break;
          case 'message': {
            const isResponse =
              !!ev.message && typeof ev.message === 'object' && rpcFields(ev.message).id === rpcId && ('result' in ev.message || 'error' in ev.message);
            if (isResponse) responded = true;
            const asked = rpcFields(ev.message);
            if (!isResponse && asked.method && asked.id !== undefined) serverAsked.set(asked.id, asked.method);
            const parsed = ev.message !== undefined ? { body: ev.message } : {};
            if (ev.sse)
              frame('sse-frame', 'in', { streamId: exchangeId, raw: ev.raw, ...parsed, ...(ev.parseError ? { errorText: `not JSON: ${ev.parseError}` } : {}) });
            else frame('message', 'in', { raw: ev.raw, ...parsed, ...(ev.parseError ? { errorText: `not JSON: ${ev.parseError}` } : {}) });
            break;
          }
          case 'comment':
            frame('sse-comment', 'in', { streamId: exchangeId, raw: ev.text });
            break;
          case 'error':
            errored = true;
            frame('error', 'in', { errorText: ev.message });
            break;
          case 'close':
            if (ev.cause === 'aborted') close('client-closed', ev.detail);
            else if (ev.cause === 'dropped') {
              if (streamStart === undefined && !errored) frame('error', 'in', { errorText: ev.detail ?? 'the connection failed' });
              close('network-error', ev.detail);
            } else close(responded ? 'complete' : 'server-closed', ev.detail);
            break;
        }
        yield ev;
      }
    } finally {
      // The consumer stopped reading before the end: it closed the stream itself.
      if (!closed) close('client-closed', 'closed by the client');
    }
  }

  // stdio: a line that answers nothing is its own exchange, one frame flagged invalid (as the tap shows one).
  inner.onStray?.((line) =>
    emit({
      at: now(),
      direction: 'in',
      kind: 'message',
      exchangeId: `${connectionId}:${++exchanges}`,
      raw: line.raw,
      ...(line.message !== undefined ? { body: line.message } : {}),
      bytes: utf8Bytes(line.raw),
      errorText: line.problem,
    }),
  );
  const open = inner.openStream?.bind(inner);
  return {
    kind: inner.kind,
    target: inner.target,
    connectionId,
    send: (message, req = {}) => track(message, req, inner.send(message, req)),
    // 2025-11-25: the session's GET stream is an exchange like any other (timeline, recordings).
    ...(open ? { openStream: (req: TransportRequestOptions = {}) => track(undefined, req, open(req), true) } : {}),
    ...(inner.onStray ? { onStray: inner.onStray.bind(inner) } : {}),
    close: async () => {
      for (const end of [...streams.values()]) end();
      await inner.close?.();
    },
    record: (f) => emit({ ...f, at: f.at ?? now(), bytes: f.bytes ?? utf8Bytes(f.raw) }),
  };
}

function lower(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
