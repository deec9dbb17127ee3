import { asRecord, isRecord } from '../shared/records';
import { parseMessage } from './http-response';
import { abortDetail, type StrayLine, type TransportEvent } from './transport';

/**
 * One stdout for many requests: the demultiplexer both stdio transports share (the browser's,
 * through Loupe's proxy, and the headless CLI's, spawning the child itself). Each stdout line is
 * routed to the request it answers by JSON-RPC id; progress by its token; a server request to
 * the oldest open request (whose exchange answers it, so it is answered once); any other
 * notification to every open request. A line that is not a JSON-RPC message, or a response
 * that matches no open request, is nobody's: it goes to the stray listeners (a frame flagged
 * invalid, a warning), never silently away. Such a line does not fail a waiting request: stdio
 * gives no way to know it was meant as that request's answer.
 */

interface Waiter {
  id: unknown;
  progressToken: unknown;
  push(ev: TransportEvent): void;
}

/** One request's view of the shared stdout. */
interface StdioRequest {
  /** Its response has been yielded (so giving up need not send notifications/cancelled). */
  readonly answered: boolean;
  /** Start receiving what stdout routes to it (before the line is written). */
  listen(): void;
  /** Stop receiving. */
  leave(): void;
  /** What arrives for it, until its response, a close event or the abort. */
  events(signal: AbortSignal | undefined): AsyncGenerator<TransportEvent>;
}

const answers = (m: unknown, id: unknown) => isRecord(m) && m.id === id && ('result' in m || 'error' in m);

/** `sse` marks the events as carried by an SSE frame (the proxy's stream). */
export function createStdioDemux(options: { sse?: boolean } = {}) {
  const waiting = new Set<Waiter>();
  const strays = new Set<(line: StrayLine) => void>();

  /** Tell the stray listeners about a line nobody can take. */
  function stray(line: StrayLine): void {
    for (const l of strays) {
      try {
        l(line);
      } catch {
        /* a broken listener must not stop the routing */
      }
    }
  }

  /** Route one stdout line. */
  function route(raw: string): void {
    if (!raw.trim()) return;
    const parsed = parseMessage(raw);
    const m = parsed.message;
    const ev: TransportEvent = { type: 'message', raw, ...parsed, ...(options.sse ? { sse: {} } : {}) };
    if (!isRecord(m)) {
      stray({ raw, ...(m !== undefined ? { message: m } : {}), problem: parsed.parseError ? `not JSON: ${parsed.parseError}` : 'not a JSON-RPC message' });
      return;
    }
    if (('result' in m || 'error' in m) && m.id !== undefined && m.id !== null) {
      const mine = [...waiting].filter((w) => w.id === m.id);
      for (const w of mine) w.push(ev);
      if (!mine.length) stray({ raw, message: m, problem: `a response with id ${JSON.stringify(m.id)}, which matches no request in flight` });
      return;
    }
    if (isRecord(m) && typeof m.method === 'string' && m.id !== undefined) {
      waiting.values().next().value?.push(ev);
      return;
    }
    const token = isRecord(m) && m.method === 'notifications/progress' ? asRecord(m.params)?.progressToken : undefined;
    for (const w of waiting) if (token === undefined || w.progressToken === token) w.push(ev);
  }

  /** Tell every open request something (the stream ended, the session closed). */
  function broadcast(ev: TransportEvent): void {
    for (const w of waiting) w.push(ev);
  }

  /** A request about to be written: `message` is the JSON-RPC request. */
  function request(message: unknown): StdioRequest {
    const id = isRecord(message) ? message.id : undefined;
    const queue: TransportEvent[] = [];
    let wake: (() => void) | undefined;
    let answered = false;
    const me: Waiter = {
      id,
      progressToken: asRecord(asRecord(asRecord(message)?.params)?._meta)?.progressToken,
      push(ev) {
        queue.push(ev);
        wake?.();
      },
    };
    return {
      get answered() {
        return answered;
      },
      listen: () => void waiting.add(me),
      leave: () => void waiting.delete(me),
      async *events(signal) {
        const onAbort = () => wake?.();
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          for (;;) {
            while (queue.length) {
              const ev = queue.shift()!;
              yield ev;
              if (ev.type === 'close') return;
              if (ev.type === 'message' && answers(ev.message, id)) {
                answered = true;
                yield { type: 'close', cause: 'end', detail: 'response received' };
                return;
              }
            }
            if (signal?.aborted) {
              yield { type: 'close', cause: 'aborted', detail: abortDetail(signal) };
              return;
            }
            await new Promise<void>((r) => (wake = r));
            wake = undefined;
          }
        } finally {
          waiting.delete(me);
          signal?.removeEventListener('abort', onAbort);
        }
      },
    };
  }

  return { route, broadcast, request, stray, onStray: (l: (line: StrayLine) => void) => void strays.add(l) };
}
