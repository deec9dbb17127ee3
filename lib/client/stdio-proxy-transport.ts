import {
  ApiErrorSchema,
  STDIO_PROXY_PATH,
  StdioExitSchema,
  StdioLogSchema,
  StdioStartedSchema,
  type StdioExit,
  type StdioLog,
  type StdioSpawn,
} from '../protocol/loupe-api';
import { parseJson } from '../shared/json';
import { isRecord } from '../shared/records';
import { loupeFetch } from './api-key';
import { readSse } from './sse';
import { createStdioDemux } from './stdio-demux';
import { abortDetail, type Transport, type TransportEvent, type TransportRequestOptions } from './transport';

/**
 * A stdio server reached through Loupe's proxy (`/api/proxy/stdio`, see
 * lib/server/proxy-stdio.ts): the first send spawns the command and opens the session's SSE
 * stream; every message is POSTed as one stdin line; stdout messages are demultiplexed to the
 * request they answer by JSON-RPC id (progress by its token; a server request to the oldest open
 * request, whose exchange answers it; other notifications to every open request). Aborting a request sends `notifications/cancelled`, the
 * stdio form of cancellation, and no response for it is reported afterwards.
 * What is not a message (stderr, non-JSON stdout, the proxy's notes) and the child's exit go to
 * `onOutput`: a server's errors and stack traces are written there, not in JSON-RPC.
 */

/** The child's output that is not a message (`log`), and its exit, the stream's last. */
export type StdioOutput = ({ type: 'log' } & StdioLog) | ({ type: 'exit' } & StdioExit);

/** "the server process exited with code 7" (or "was killed by SIGTERM"). */
export function describeExit(exit: StdioExit): string {
  if (exit.signal) return `the server process was killed by ${exit.signal}`;
  return `the server process exited with code ${exit.code ?? 'unknown'}`;
}

interface StdioProxyTransportOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** The proxy's base, e.g. `http://127.0.0.1:4000/api/proxy/stdio` (default: same origin). */
  endpoint?: string;
  /** The launch token (a browser on Loupe's origin uses its cookie instead). */
  token?: string;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Hears each log line and the exit as they come, before open requests are closed. */
  onOutput?: (output: StdioOutput) => void;
}

/** The value of a frame's JSON text (undefined when it is not JSON, which the schema then refuses). */
function jsonValue(text: string): unknown {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}

/** Split a command line into words: whitespace separates, quotes and backslashes group. No shell. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`Failed to split the command line: unclosed ${quote}`);
  if (inWord) words.push(word);
  return words;
}

/** Create a transport to a stdio server spawned by Loupe's proxy. */
export function createStdioProxyTransport(options: StdioProxyTransportOptions): Transport {
  const doFetch = (input: string, init: RequestInit) => loupeFetch(input, init, options.fetch);
  const endpoint = options.endpoint ?? STDIO_PROXY_PATH;
  const target = [options.command, ...(options.args ?? [])].join(' ');
  const headers: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  const demux = createStdioDemux({ sse: true });
  let session: Promise<string> | undefined;
  let streamAbort: AbortController | undefined;
  let ended: string | undefined;
  /** Closed for good: a later send must never spawn the command again. */
  let closed = false;

  const call = (url: string, init: RequestInit) =>
    doFetch(url, {
      cache: 'no-store',
      ...init,
      headers: { ...headers, ...(init.headers as Record<string, string>) },
    });

  async function pump(body: ReadableStream<Uint8Array>) {
    let reason = 'the stdio stream ended';
    try {
      for await (const item of readSse(body)) {
        if (item.type === 'comment') continue;
        const { event, data } = item.event;
        if (event === 'exit') {
          const exit = StdioExitSchema.safeParse(jsonValue(data));
          reason = exit.success ? describeExit(exit.data) : `the server process exited: ${data}`;
          if (exit.success) options.onOutput?.({ type: 'exit', ...exit.data });
        } else if (event === 'log') {
          const log = StdioLogSchema.safeParse(jsonValue(data));
          if (!log.success) continue;
          options.onOutput?.({ type: 'log', ...log.data });
          // A stdout line that is not JSON is still the server's output, answering nothing: a stray line too.
          if (log.data.stream === 'stdout') demux.stray({ raw: log.data.text, problem: 'not JSON (a stdout line is one JSON-RPC message)' });
        } else if (!event) demux.route(data);
      }
    } catch (e) {
      reason = `the stdio stream failed: ${(e as Error).message}`;
    }
    ended = reason;
    demux.broadcast({ type: 'close', cause: 'dropped', detail: reason });
  }

  async function open(): Promise<string> {
    const spawn: StdioSpawn = { command: options.command, args: options.args ?? [], env: options.env, cwd: options.cwd };
    const res = await call(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(spawn) });
    const body: unknown = await res.json().catch(() => ({}));
    const started = StdioStartedSchema.safeParse(body);
    if (!res.ok || !started.success) throw new Error(`Failed to start ${target}: ${ApiErrorSchema.safeParse(body).data?.error ?? `HTTP ${res.status}`}`);
    const { sessionId } = started.data;
    streamAbort = new AbortController();
    const stream = await call(`${endpoint}/${sessionId}`, { method: 'GET', signal: streamAbort.signal });
    if (!stream.ok || !stream.body) throw new Error(`Failed to open the stdio stream: HTTP ${stream.status}`);
    void pump(stream.body);
    return sessionId;
  }

  async function* send(message: unknown, req: TransportRequestOptions = {}): AsyncGenerator<TransportEvent> {
    if (closed) {
      yield { type: 'close', cause: 'aborted', detail: 'the stdio session was closed' };
      return;
    }
    const raw = JSON.stringify(message);
    yield { type: 'sent', url: target, headers: req.headers ?? {}, raw, message, via: 'stdio' };
    const signal = req.signal;
    const id = isRecord(message) && 'method' in message ? message.id : undefined;
    const request = demux.request(message);
    let sid = '';
    try {
      session ??= open().catch((e: unknown) => {
        session = undefined;
        throw e;
      });
      sid = await session;
      if (ended) throw new Error(ended);
      if (id !== undefined) request.listen();
      const res = await call(`${endpoint}/${sid}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: raw, signal });
      if (res.status !== 202) {
        request.leave();
        yield { type: 'error', message: `Proxy refused the message: HTTP ${res.status} ${await res.text().catch(() => '')}`, cause: 'proxy' };
        yield { type: 'close', cause: 'end' };
        return;
      }
    } catch (e) {
      request.leave();
      if (signal?.aborted) yield { type: 'close', cause: 'aborted', detail: abortDetail(signal) };
      else {
        yield { type: 'error', message: (e as Error).message, cause: 'network' };
        yield { type: 'close', cause: 'dropped' };
      }
      return;
    }
    // A notification (or a response to a server request) is done once written.
    yield { type: 'response', status: 202, headers: {}, stream: id !== undefined };
    if (id === undefined) {
      yield { type: 'close', cause: 'end' };
      return;
    }
    try {
      yield* request.events(signal);
    } finally {
      request.leave();
      // Giving up on a request (abort, timeout, or the consumer stopping) cancels it on stdio;
      // after close the child is being killed, so nothing more is written to it.
      if (!request.answered && !ended && !closed) {
        const cancel = {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: abortDetail(signal) ?? 'cancelled by the client' },
        };
        void call(`${endpoint}/${sid}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cancel) }).catch(() => {});
      }
    }
  }

  async function close() {
    closed = true;
    ended ??= 'the stdio session was closed';
    demux.broadcast({ type: 'close', cause: 'aborted', detail: ended });
    const sid = session ? await session.catch(() => undefined) : undefined;
    if (sid) await call(`${endpoint}/${sid}`, { method: 'DELETE', keepalive: true }).catch(() => {});
    streamAbort?.abort();
  }

  return { kind: 'stdio', target, send, close, onStray: demux.onStray };
}
