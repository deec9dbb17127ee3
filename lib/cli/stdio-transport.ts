import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Transport, TransportEvent, TransportRequestOptions } from '../client/transport';
import { createStdioDemux } from '../client/stdio-demux';
import { isRecord } from '../shared/records';
import { childEnv } from '../server/child-env';

/**
 * A stdio server spawned directly by the headless client (`mcp-loupe call … -- node server.js`):
 * one JSON-RPC message per stdin line, stdout lines routed to the request they answer by id
 * (progress by its token; a server request to the oldest open request, whose exchange answers
 * it; other notifications to every open request). Giving up on a request sends
 * `notifications/cancelled`, the stdio form of cancellation. The child's stderr is passed
 * through. Node only (the browser reaches stdio through Loupe's proxy).
 */

/** Create a transport that spawns `command args` (no shell) on first use. */
export function createStdioTransport(command: string, args: string[]): Transport {
  const target = [command, ...args].join(' ');
  const demux = createStdioDemux();
  let child: ChildProcess | undefined;
  let ended: string | undefined;

  function start(): ChildProcess {
    if (child) return child;
    const c = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], env: childEnv() });
    child = c;
    createInterface({ input: c.stdout! }).on('line', demux.route);
    const end = (why: string) => {
      ended ??= why;
      demux.broadcast({ type: 'close', cause: 'dropped', detail: ended });
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
    const id = isRecord(message) && 'method' in message ? message.id : undefined;
    const request = demux.request(message);
    if (id !== undefined) request.listen();
    start();
    if (ended) {
      request.leave();
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
    try {
      yield* request.events(req.signal);
    } finally {
      request.leave();
      if (!request.answered && !ended)
        write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the client' } });
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

  return { kind: 'stdio', target, send, close, onStray: demux.onStray };
}
