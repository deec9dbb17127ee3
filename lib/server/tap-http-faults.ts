import type http from 'node:http';
import type { ReplyFault, StreamFault } from '../engine/faults';
import type { TapFaultMark } from '../recording/tap-frames';
import { asRecord } from '../shared/records';

/**
 * What the HTTP tap does when a fault fires: answer in the server's place (an HTTP status with
 * Retry-After, a JSON-RPC error), or damage the SSE stream it relays (cut it, stall it, slip a
 * frame that is not JSON in, send notifications twice). The damaged bytes are what the client
 * gets and what the observer sees.
 */

/** The local answer of a reply fault: status, headers and body, as the client will get them. */
export function faultReply(reply: ReplyFault, rpcId: unknown): { status: number; headers: Record<string, string>; body: string } {
  if (reply.kind === 'rpc-error') {
    const error = { code: reply.code, message: reply.message, ...(reply.data !== undefined ? { data: reply.data } : {}) };
    const body = JSON.stringify({ jsonrpc: '2.0', id: rpcId ?? null, error });
    return { status: reply.status ?? 200, headers: { 'content-type': 'application/json' }, body };
  }
  const headers: Record<string, string> = {};
  if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
  let body: string;
  if (typeof reply.body === 'object') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(reply.body);
  } else {
    headers['content-type'] = 'text/plain; charset=utf-8';
    body = reply.body ?? `${reply.status} (fault injected by mcp-loupe tap)`;
  }
  return { status: reply.status, headers, body };
}

/** Write a local answer. */
export function writeReply(res: http.ServerResponse, reply: { status: number; headers: Record<string, string>; body: string }): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-length': Buffer.byteLength(reply.body) }).end(reply.body);
}

function isNotification(event: string): boolean {
  const data = event
    .split(/\r?\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!data) return false;
  try {
    const m = asRecord(JSON.parse(data));
    return typeof m?.method === 'string' && !('id' in m);
  } catch {
    return false;
  }
}

const hasData = (event: string) => /(^|\n)data:/.test(event);

/** What the relay does with the stream's text: write it on, cut the connection, or hold. */
interface StreamDamage {
  /** Text from the upstream; returns the text to relay. */
  write(text: string): string;
  /** Whether the stream is cut (the relay destroys the connection) or stalled (it relays nothing more, not even the end). */
  readonly state: 'flowing' | 'cut' | 'stalled';
}

const GARBAGE = '{"jsonrpc":"2.0","id":';

/** Damage an SSE stream, event by event, as the faults say. */
export function createStreamDamage(faults: readonly StreamFault[]): StreamDamage {
  let pending = '';
  let events = 0;
  let state: StreamDamage['state'] = 'flowing';
  const drop = faults.find((f) => f.kind === 'drop');
  const stall = faults.find((f) => f.kind === 'stall');
  const garbage = faults.find((f) => f.kind === 'garbage');
  const duplicate = faults.some((f) => f.kind === 'duplicate');
  let garbageSent = false;

  /** Before the next event: the faults whose count of events has been reached. */
  const before = (): string => {
    if (drop && events >= drop.afterEvents) state = 'cut';
    else if (stall && events >= stall.afterEvents) state = 'stalled';
    if (state !== 'flowing') return '';
    if (garbage && !garbageSent && events >= garbage.afterEvents) {
      garbageSent = true;
      return `data: ${garbage.text ?? GARBAGE}\n\n`;
    }
    return '';
  };

  return {
    get state() {
      return state;
    },
    write(text) {
      if (state !== 'flowing') return '';
      pending += text;
      let out = '';
      for (;;) {
        const end = /\r?\n\r?\n/.exec(pending);
        if (!end) break;
        const event = pending.slice(0, end.index + end[0].length);
        pending = pending.slice(end.index + end[0].length);
        if (!hasData(event)) {
          out += event;
          continue;
        }
        out += before();
        if (state !== 'flowing') return out;
        out += duplicate && isNotification(event) ? event + event : event;
        events += 1;
      }
      return out;
    },
  };
}

/** Fault kinds that damage an SSE answer; on any other answer they do nothing. */
const STREAM_KINDS = new Set(['drop', 'stall', 'garbage', 'duplicate', 'out-of-order', 'drip']);

/**
 * Mark a request's faults on the timeline: the others at once, the stream faults only once the
 * answer shows whether they could apply (the returned function; a note says why one did not),
 * so no mark claims damage that was never done.
 */
export function markFaults(marks: readonly TapFaultMark[], emit: (marks: TapFaultMark[]) => void): (note?: string) => void {
  const now = marks.filter((m) => !STREAM_KINDS.has(m.kind));
  let later = marks.filter((m) => STREAM_KINDS.has(m.kind));
  if (now.length) emit(now);
  return (note) => {
    if (later.length) emit(note ? later.map((m) => ({ ...m, note })) : later);
    later = [];
  };
}
