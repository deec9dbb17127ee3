import { errorResponse, httpStatusForError, type RequestId } from '../protocol';
import { shuffled, type DripFault, type ReplyFault, type StreamFault } from './faults';
import type { SseChannel } from './sse';
import type { HttpOutput } from './http-types';

/**
 * Applying faults to the wire: replies that stand in for the server, an SSE channel decorator
 * that stalls, drops, garbles, duplicates or reorders what the engine sends, and a body
 * transform that drips a response out in small chunks.
 */

/** A fault's stand-in answer: the HTTP response and what the journal records of it. */
interface FaultReply {
  output: HttpOutput;
  status: number;
  /** The body as the journal shows it (parsed JSON or text). */
  body: unknown;
}

const STATUS_TEXT: Record<number, string> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The response a reply fault sends instead of running the request. */
export function faultReply(fault: ReplyFault, id: RequestId): FaultReply {
  if (fault.kind === 'rpc-error') {
    const body = errorResponse(id, { code: fault.code, message: fault.message, ...(fault.data !== undefined ? { data: fault.data } : {}) });
    const status = fault.status ?? httpStatusForError(fault.code);
    return { status, body, output: { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } };
  }
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
  const isJson = typeof fault.body === 'object';
  const text: string = typeof fault.body === 'object' ? JSON.stringify(fault.body) : (fault.body ?? STATUS_TEXT[fault.status] ?? `HTTP ${fault.status}`);
  headers['Content-Type'] = isJson ? 'application/json' : 'text/plain; charset=utf-8';
  const empty = fault.status === 204 || fault.status === 205 || fault.status === 304;
  return { status: fault.status, body: fault.body ?? text, output: { status: fault.status, headers, body: empty ? undefined : text } };
}

/** An SSE `message` event whose data is not JSON. */
function garbageFrame(text?: string): string {
  const data = text ?? '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":';
  return `event: message\n${data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;
}

/**
 * Wrap a channel so the stream faults take effect. Events are the messages written before the
 * final response (notifications, listen acknowledgements); each duplicate counts as one.
 */
export function withStreamFaults(inner: SseChannel, faults: readonly StreamFault[], random: () => number): SseChannel {
  const garbage = faults.filter((f) => f.kind === 'garbage').map((f) => ({ ...f, sent: false }));
  const stall = faults.find((f) => f.kind === 'stall');
  const drop = faults.find((f) => f.kind === 'drop');
  const reorder = faults.find((f) => f.kind === 'out-of-order');
  const copies = faults.some((f) => f.kind === 'duplicate') ? 2 : 1;
  const held: { message: unknown; opts?: { droppable?: boolean; key?: string } }[] = [];
  let events = 0;
  let silent = false;

  const check = () => {
    for (const g of garbage) {
      if (!g.sent && events >= g.afterEvents) {
        g.sent = true;
        inner.sendRaw(garbageFrame(g.text));
      }
    }
    if (drop && events >= drop.afterEvents) {
      silent = true;
      inner.drop();
    } else if (stall && events >= stall.afterEvents) {
      silent = true;
      inner.stall();
    }
  };
  const write = (message: unknown, opts?: { droppable?: boolean; key?: string }) => {
    for (let i = 0; i < copies && !silent; i++) {
      // Copies must not supersede each other under back-pressure.
      inner.send(message, copies > 1 ? undefined : opts);
      events++;
      check();
    }
  };
  const release = () => {
    if (!reorder || held.length === 0) return;
    const batch = held.splice(0, held.length);
    for (const h of reorder.order === 'shuffle' ? shuffled(batch, random) : batch.reverse()) write(h.message, h.opts);
  };
  check();

  return {
    stream: inner.stream,
    send(message, opts) {
      if (silent || inner.closed) return;
      if (!reorder) return write(message, opts);
      held.push({ message, opts });
      if (reorder.window !== undefined && held.length >= reorder.window) release();
    },
    sendRaw(text) {
      if (!silent) inner.sendRaw(text);
    },
    finish(message) {
      release();
      if (!silent) inner.finish(message);
    },
    abort: () => inner.abort(),
    drop: () => inner.drop(),
    stall: () => inner.stall(),
    get closed() {
      return inner.closed;
    },
    get dropped() {
      return inner.dropped;
    },
  };
}

/** Marks a dripped response, so hosts stream its body instead of buffering it (value: `drip`). */
export const DRIP_HEADER = 'X-Loupe-Fault';

/** Timers for {@link dripResponse}. */
interface DripTimers {
  setTimer: (fn: () => void, ms: number) => unknown;
}

/** Re-emit a response body in chunks of `bytesPerChunk`, pausing `intervalMs` between them. */
export function dripResponse(output: HttpOutput, drip: DripFault, timers: DripTimers): HttpOutput {
  const source = output.stream ?? (output.body !== undefined ? new Response(output.body).body : null);
  if (!source) return output;
  const wait = () => new Promise<void>((resolve) => timers.setTimer(resolve, drip.intervalMs));
  let first = true;
  const slow = new TransformStream<Uint8Array, Uint8Array>(
    {
      async transform(chunk, controller) {
        for (let off = 0; off < chunk.byteLength; off += drip.bytesPerChunk) {
          if (!first) await wait();
          first = false;
          controller.enqueue(chunk.slice(off, off + drip.bytesPerChunk));
        }
      },
    },
    undefined,
    { highWaterMark: 0 },
  );
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(output.headers)) if (k.toLowerCase() !== 'content-length') headers[k] = v;
  headers[DRIP_HEADER] = 'drip';
  return { status: output.status, headers, stream: source.pipeThrough(slow) };
}
