import { createParser } from 'eventsource-parser';
import { rpcFields, taskIdOfMessage, utf8Bytes, type CloseReason, type FaultMark, type Frame, type FrameKind, type FrameSink } from '../client/frames';
import { asRecord } from '../shared/records';

/**
 * Frames of a tapped session: the tap (lib/server/tap-http.ts, tap-stdio.ts) relays bytes and
 * tells an observer what went by; the observer turns that into the same Frame model the
 * inspector's tracking decorator produces, so recordings, lints and (later) the live timeline
 * read a tapped session like any other. Observing never changes what is relayed.
 */

/** One HTTP exchange seen by the HTTP tap. */
interface TapHttpExchange {
  /** The client's request, complete: its headers (lower-case names) and body text. */
  request(httpMethod: string, headers: Record<string, string>, raw: string): void;
  /** The upstream's response head. */
  response(status: number, headers: Record<string, string>): void;
  /** Decoded body text as it arrives (SSE is parsed event by event). */
  chunk(text: string): void;
  /** The exchange ended: the body completed, the upstream failed, or the client went away. */
  end(how: 'done' | 'upstream-failed' | 'client-closed', detail?: string): void;
  /** The tap injected faults into this exchange: one `fault` frame (a mark on the timeline) each. */
  fault(marks: readonly TapFaultMark[]): void;
}

/** A fault that fired, as the tap reports it; the observer names the request it hit. */
export type TapFaultMark = Omit<FaultMark, 'request'>;

/** What the taps report to. */
export interface TapObserver {
  readonly connectionId: string;
  http(): TapHttpExchange;
  /** A line the client wrote to the server's stdin. */
  fromClient(line: string): void;
  /** A line the server wrote to its stdout. */
  fromServer(line: string): void;
  /** The tap injected faults on the stdio connection (marked on the newest exchange). */
  fault(marks: readonly TapFaultMark[]): void;
}

interface ObserverOptions {
  sink: FrameSink;
  connectionId?: string;
  now?: () => number;
}

function parse(raw: string): { body?: unknown; errorText?: string } {
  if (!raw.trim()) return {};
  try {
    return { body: JSON.parse(raw) as unknown };
  } catch (e) {
    return { errorText: `not JSON: ${(e as Error).message}` };
  }
}

/** The request a fault hit, as the timeline names it: its method and the tool or resource. */
function requestLabel(body: unknown): string | undefined {
  const m = asRecord(body);
  if (typeof m?.method !== 'string') return undefined;
  const params = asRecord(m.params);
  const what = typeof params?.name === 'string' ? params.name : typeof params?.uri === 'string' ? params.uri : undefined;
  return what ? `${m.method} ${what}` : m.method;
}

/** Create the observer of one tapped connection. */
export function createTapObserver(options: ObserverOptions): TapObserver {
  const connectionId = options.connectionId ?? `tap-${Date.now().toString(36)}`;
  const now = options.now ?? (() => Date.now());
  let seq = 0;
  let exchanges = 0;
  const emit = (frame: Omit<Frame, 'seq' | 'connectionId' | 'at' | 'bytes'>) => {
    try {
      options.sink({ seq: seq++, connectionId, at: now(), bytes: utf8Bytes(frame.raw), ...frame });
    } catch {
      /* a broken sink must not break the relay */
    }
  };
  const nextExchange = () => `${connectionId}:${++exchanges}`;

  /** Fields every frame of an exchange shares, plus the frame's own method and task. */
  const fields = (exchangeId: string, rpcId: string | number | undefined, reqMethod: string | undefined, body: unknown) => {
    const own = rpcFields(body);
    const method = own.method ?? reqMethod;
    const taskId = taskIdOfMessage(body);
    return { exchangeId, ...(rpcId !== undefined ? { rpcId } : {}), ...(method ? { method } : {}), ...(taskId ? { taskId } : {}) };
  };

  function http(): TapHttpExchange {
    const exchangeId = nextExchange();
    const started = now();
    let rpcId: string | number | undefined;
    let reqMethod: string | undefined;
    let hit: string | undefined;
    let sse = false;
    let streamStart = 0;
    let responded = false;
    let jsonText = '';
    let ended = false;
    const frame = (kind: FrameKind, direction: 'in' | 'out', extra: Partial<Frame>) =>
      emit({ kind, direction, ...fields(exchangeId, rpcId, reqMethod, extra.body), ...extra });
    const parser = createParser({
      onEvent: (event) => {
        const parsed = parse(event.data);
        const m = asRecord(parsed.body);
        if (m && ('result' in m || 'error' in m) && m.id === rpcId) responded = true;
        frame('sse-frame', 'in', { streamId: exchangeId, raw: event.data, ...parsed });
      },
      onComment: (text) => frame('sse-comment', 'in', { streamId: exchangeId, raw: text }),
    });
    return {
      request(_httpMethod, headers, raw) {
        const parsed = parse(raw);
        const f = rpcFields(parsed.body);
        rpcId = f.id;
        reqMethod = f.method;
        hit = requestLabel(parsed.body);
        // The Frame model has no HTTP method: a GET (listen) or DELETE is a request frame without a body.
        frame('http-request', 'out', { headers, ...(raw ? { raw } : {}), ...parsed });
      },
      response(status, headers) {
        sse = (headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
        frame('http-response', 'in', { httpStatus: status, headers, durationMs: now() - started });
        if (sse) {
          streamStart = now();
          frame('sse-open', 'in', { streamId: exchangeId });
        }
      },
      chunk(text) {
        if (sse) parser.feed(text);
        else jsonText += text;
      },
      fault(marks) {
        for (const mark of marks) frame('fault', 'in', { fault: { ...mark, ...(hit ? { request: hit } : {}) } });
      },
      end(how, detail) {
        if (ended) return;
        ended = true;
        if (how === 'upstream-failed') frame('error', 'in', { errorText: detail ?? 'the upstream connection failed' });
        if (!sse) {
          if (jsonText) frame('message', 'in', { raw: jsonText, ...parse(jsonText) });
          return;
        }
        parser.reset({ consume: true });
        const reason: CloseReason =
          how === 'upstream-failed' ? 'network-error' : how === 'client-closed' ? 'client-closed' : responded ? 'complete' : 'server-closed';
        frame('sse-close', 'in', { streamId: exchangeId, closeReason: reason, durationMs: now() - streamStart, ...(detail ? { errorText: detail } : {}) });
      },
    };
  }

  // stdio: a client request opens an exchange; the server's answer (same id) joins it; what
  // the server says in between (notifications, its own requests) joins the newest open exchange,
  // and the client's answers to server requests join the exchange that request came in on.
  const open = new Map<string | number, { exchangeId: string; method?: string; hit?: string }>();
  const serverRequests = new Map<string | number, string>();
  let newest: { exchangeId: string; rpcId?: string | number; method?: string; hit?: string } | undefined;

  function fromClient(line: string): void {
    const parsed = parse(line);
    const m = asRecord(parsed.body);
    const { method, id } = rpcFields(m);
    if (!method && id !== undefined && serverRequests.has(id)) {
      const exchangeId = serverRequests.get(id)!;
      serverRequests.delete(id);
      emit({ kind: 'message', direction: 'out', ...fields(exchangeId, id, undefined, m), raw: line, ...parsed });
      return;
    }
    const exchangeId = nextExchange();
    if (method && id !== undefined) {
      const hit = requestLabel(m);
      open.set(id, { exchangeId, method, ...(hit ? { hit } : {}) });
      newest = { exchangeId, rpcId: id, method, ...(hit ? { hit } : {}) };
    }
    emit({ kind: 'message', direction: 'out', ...fields(exchangeId, id, method, m), raw: line, ...parsed });
  }

  function fromServer(line: string): void {
    const parsed = parse(line);
    const m = asRecord(parsed.body);
    const { method, id } = rpcFields(m);
    const answered = !method && id !== undefined ? open.get(id) : undefined;
    if (answered) {
      open.delete(id!);
      if (newest?.exchangeId === answered.exchangeId) {
        const last = [...open].at(-1);
        newest = last ? { ...last[1], rpcId: last[0] } : undefined;
      }
      emit({ kind: 'message', direction: 'in', ...fields(answered.exchangeId, id, answered.method, m), raw: line, ...parsed });
      return;
    }
    const home = newest ?? { exchangeId: nextExchange() };
    if (method && id !== undefined) serverRequests.set(id, home.exchangeId);
    emit({ kind: 'message', direction: 'in', ...fields(home.exchangeId, home.rpcId, home.method, m), raw: line, ...parsed });
  }

  function fault(marks: readonly TapFaultMark[]): void {
    const home = newest ?? { exchangeId: nextExchange() };
    for (const mark of marks)
      emit({
        kind: 'fault',
        direction: 'in',
        ...fields(home.exchangeId, home.rpcId, home.method, undefined),
        fault: { ...mark, ...(home.hit ? { request: home.hit } : {}) },
      });
  }

  return { connectionId, http, fromClient, fromServer, fault };
}
