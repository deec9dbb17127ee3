import { ApiErrorSchema, STDIO_PROXY_PATH, StdioLogSchema, StdioStartedSchema, type StdioSpawn } from '../protocol/loupe-api';
import { isRecord } from '../shared/records';
import { loupeFetch } from './api-key';
import { parseMessage } from './http-response';
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
 */

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

  function strayLog(data: string) {
    const log = StdioLogSchema.safeParse(parseMessage(data).message);
    if (log.success && log.data.stream === 'stdout') demux.stray({ raw: log.data.text, problem: 'not JSON (a stdout line is one JSON-RPC message)' });
  }

  async function pump(body: ReadableStream<Uint8Array>) {
    let reason = 'the stdio stream ended';
    try {
      for await (const item of readSse(body)) {
        if (item.type === 'comment') continue;
        const { event, data } = item.event;
        if (event === 'exit') reason = `the process exited: ${data}`;
        else if (!event) demux.route(data);
        // The proxy sends a stdout line that is not JSON as a log event: it is still the server's output, answering nothing.
        else if (event === 'log') strayLog(data);
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
