import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Transport, TransportEvent, TransportRequestOptions } from '../client/transport';
import { asRecord, isRecord } from '../shared/records';

/**
 * A stdio server spawned directly by the headless client (`mcp-loupe call … -- node server.js`):
 * one JSON-RPC message per stdin line, stdout lines routed to the request they answer by id
 * (progress by its token; a server request to the oldest open request, whose exchange answers
 * it; other notifications to every open request). Giving up on a request sends
 * `notifications/cancelled`, the stdio form of cancellation. The child's stderr is passed
 * through. Node only (the browser reaches stdio through Loupe's proxy).
 */

interface Waiting {
  id: unknown;
  progressToken: unknown;
  push(ev: TransportEvent): void;
}

function parse(raw: string): { message?: unknown; parseError?: string } {
  try {
    return { message: JSON.parse(raw) };
  } catch (e) {
    return { parseError: (e as Error).message };
  }
}

/** Create a transport that spawns `command args` (no shell) on first use. */
export function createStdioTransport(command: string, args: string[]): Transport {
  const target = [command, ...args].join(' ');
  const waiting = new Set<Waiting>();
  let child: ChildProcess | undefined;
  let ended: string | undefined;

  function route(raw: string) {
    if (!raw.trim()) return;
    const parsed = parse(raw);
    const m = parsed.message;
    const ev: TransportEvent = { type: 'message', raw, ...parsed };
    if (isRecord(m) && ('result' in m || 'error' in m)) {
      for (const w of waiting) if (w.id === m.id) w.push(ev);
      return;
    }
    if (isRecord(m) && typeof m.method === 'string' && m.id !== undefined) {
      // Exactly one exchange answers a server request.
      waiting.values().next().value?.push(ev);
      return;
    }
    const token = isRecord(m) && m.method === 'notifications/progress' ? asRecord(m.params)?.progressToken : undefined;
    for (const w of waiting) if (token === undefined || w.progressToken === token) w.push(ev);
  }

  function start(): ChildProcess {
    if (child) return child;
    const c = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    child = c;
    createInterface({ input: c.stdout! }).on('line', route);
    const end = (why: string) => {
      ended ??= why;
      for (const w of waiting) w.push({ type: 'close', cause: 'dropped', detail: ended });
    };
    c.once('error', (e) => end(`Failed to start ${target}: ${e.message}`));
    c.once('exit', (code, signal) => end(`${target} exited (${signal ?? `code ${code}`})`));
    c.stdin!.on('error', () => {});
    return c;
  }

  function write(message: unknown) {
    start().stdin!.write(`${JSON.stringify(message)}\n`);
  }

  async function* send(message: unknown, req: TransportRequestOptions = {}): AsyncGenerator<TransportEvent> {
    const raw = JSON.stringify(message);
    yield { type: 'sent', url: target, headers: req.headers ?? {}, raw, message, via: 'stdio' };
    const signal = req.signal;
    const id = isRecord(message) && 'method' in message ? message.id : undefined;
    const queue: TransportEvent[] = [];
    let wake: (() => void) | undefined;
    const me: Waiting = {
      id,
      progressToken: asRecord(asRecord(asRecord(message)?.params)?._meta)?.progressToken,
      push: (ev) => {
        queue.push(ev);
        wake?.();
      },
    };
    if (id !== undefined) waiting.add(me);
    start();
    if (ended) {
      waiting.delete(me);
      yield { type: 'error', message: ended, cause: 'network' };
      yield { type: 'close', cause: 'dropped', detail: ended };
      return;
    }
    write(message);
    yield { type: 'response', status: 200, headers: {}, stream: id !== undefined };
    if (id === undefined) {
      yield { type: 'close', cause: 'end' };
      return;
    }
    let answered = false;
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        while (queue.length) {
          const ev = queue.shift()!;
          yield ev;
          if (ev.type === 'close') return;
          if (ev.type === 'message' && isRecord(ev.message) && ev.message.id === id && ('result' in ev.message || 'error' in ev.message)) {
            answered = true;
            yield { type: 'close', cause: 'end', detail: 'response received' };
            return;
          }
        }
        if (signal?.aborted) {
          yield { type: 'close', cause: 'aborted', detail: signal.reason instanceof Error ? signal.reason.message : undefined };
          return;
        }
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
    } finally {
      waiting.delete(me);
      signal?.removeEventListener('abort', onAbort);
      if (!answered && !ended) write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the client' } });
    }
  }

  async function close() {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      // stdin closed is the polite stop (spec: stdio shutdown); a child that stays is terminated.
      const timer = setTimeout(() => c.kill('SIGTERM'), 2000);
      c.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      c.stdin?.end();
    });
  }

  return { kind: 'stdio', target, send, close };
}
