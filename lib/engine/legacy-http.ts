import { ERROR, errorResponse, HEADER, META, type JsonRpcRequest } from '../protocol';
import { asRecord } from '../shared/records';
import { createLegacySession, type LegacySession } from './legacy-session';
import type { HeaderBag, HttpInput, HttpOutput } from './http-types';
import { createSseChannel, SSE_HEADERS, type SseChannel } from './sse';

/**
 * 2025-11-25 over Streamable HTTP: sessions and resumable streams. `initialize` opens a session
 * (`Mcp-Session-Id`) that remembers what the client declared; DELETE ends it; a request naming
 * an unknown session gets 404, which tells the client to initialize again. Every SSE stream of
 * a session request is logged with event ids (a priming event first), and keeps running when
 * the connection drops: a GET with `Last-Event-ID` replays what came after that event and then
 * the rest, final response included.
 */

/** How long a client should wait before it reconnects to a dropped stream (the SSE `retry` field). */
const RETRY_MS = 500;
/** Streams a session keeps for resumption; the oldest go first. */
const STREAMS_PER_SESSION = 32;
/** Events a stream keeps for replay. */
const EVENTS_PER_STREAM = 256;

/** One logged SSE stream of a session request. */
export interface StreamLog {
  readonly id: string;
  /** Events after the priming one, numbered from 1. */
  events: { n: number; message: unknown }[];
  count: number;
  final?: unknown;
  /** The channel that delivers now: the request's own, or the latest resumption. */
  live?: SseChannel;
}

/** The sessions of one engine, and their streams. */
export interface LegacySessions {
  get(id: string): LegacySession | undefined;
  /** What a request naming an unknown session is told (in a fleet: why, and what to do). */
  readonly missing: string;
  /** Keep a session `initialize` just opened. */
  add(session: LegacySession): void;
  /** Start logging a stream of a session request; writes the priming event on `channel`. */
  openStream(session: LegacySession, channel: SseChannel): StreamLog;
  /** A message on a logged stream (delivered when a connection is attached). */
  event(log: StreamLog, message: unknown, opts?: { droppable?: boolean; key?: string }): void;
  finish(log: StreamLog, message: unknown): void;
  /** Let notifications/cancelled reach a session request; returns the untrack function. */
  track(session: LegacySession, requestId: unknown, abort: AbortController): () => void;
  /** notifications/cancelled on a session: abort the request it names. */
  cancel(sessionId: string | null, requestId: unknown): void;
  /** GET and DELETE on the endpoint with a session id; undefined when they are not for a session. */
  handle(req: HttpInput): HttpOutput | undefined;
}

interface SessionOptions {
  maxSessions: number;
  /** One instance of a fleet: sessions are this instance's alone. */
  fleet?: boolean;
  keepAliveMs: number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (h: unknown) => void;
}

const jsonError = (status: number, code: number, message: string): HttpOutput => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(errorResponse(null, { code, message })),
});

/** The registry of 2025-11-25 sessions; the least recently used one goes when it is full. */
export function createLegacySessions(opts: SessionOptions): LegacySessions {
  const sessions = new Map<string, LegacySession>();
  const streams = new Map<string, Map<string, StreamLog>>();
  const inflight = new Map<string, AbortController>();
  const requestKey = (sessionId: string, requestId: unknown) => `${sessionId} ${JSON.stringify(requestId)}`;
  /** Forget a session; its requests still waiting (on the client, say) end now. */
  const end = (id: string) => {
    sessions.delete(id);
    streams.delete(id);
    for (const [key, abort] of inflight) if (key.startsWith(`${id} `)) abort.abort(new Error('the session ended'));
  };
  let streamCount = 0;

  const get = (id: string) => {
    const s = sessions.get(id);
    if (s) {
      sessions.delete(id);
      sessions.set(id, s);
    }
    return s;
  };

  function resume(session: LegacySession, lastEventId: string): HttpOutput {
    const [streamId = '', seq = ''] = lastEventId.split('/');
    const log = streams.get(session.id)?.get(streamId);
    if (!log || !/^\d+$/.test(seq)) return jsonError(404, ERROR.invalidRequest, `Not Found: no stream to resume after event "${lastEventId}"`);
    const after = Number(seq);
    const channel = createSseChannel({ keepAliveMs: opts.keepAliveMs, setTimer: opts.setTimer, clearTimer: opts.clearTimer });
    for (const e of log.events) if (e.n > after) channel.send(e.message, { id: `${log.id}/${e.n}` });
    if (log.final !== undefined) channel.finish(log.final);
    else log.live = channel;
    return { status: 200, headers: { ...SSE_HEADERS }, stream: channel.stream, ...(channel.attach ? { attach: channel.attach } : {}) };
  }

  // In a fleet, the usual cause is a balancer that sent the client's request to another instance than the one that answered initialize.
  const missing = opts.fleet
    ? 'Session not found on this instance: a 2025-11-25 session lives on the fleet instance that answered initialize; send each client to one instance (sticky load balancing), or initialize again'
    : 'Session not found: initialize again';
  return {
    get,
    missing,
    add(session) {
      sessions.set(session.id, session);
      while (sessions.size > opts.maxSessions) end(sessions.keys().next().value as string);
    },
    openStream(session, channel) {
      const log: StreamLog = { id: `s${++streamCount}`, events: [], count: 0, live: channel };
      const own = streams.get(session.id) ?? new Map<string, StreamLog>();
      streams.set(session.id, own);
      own.set(log.id, log);
      if (own.size > STREAMS_PER_SESSION) own.delete(own.keys().next().value as string);
      channel.sendRaw(`id: ${log.id}/0\nretry: ${RETRY_MS}\ndata: \n\n`);
      return log;
    },
    event(log, message, o) {
      const n = ++log.count;
      log.events.push({ n, message });
      if (log.events.length > EVENTS_PER_STREAM) log.events.shift();
      if (log.live && !log.live.closed) log.live.send(message, { ...o, id: `${log.id}/${n}` });
    },
    finish(log, message) {
      log.final = message;
      if (log.live && !log.live.closed) log.live.finish(message);
    },
    track(session, requestId, abort) {
      const key = requestKey(session.id, requestId);
      inflight.set(key, abort);
      return () => inflight.get(key) === abort && inflight.delete(key);
    },
    cancel(sessionId, requestId) {
      if (sessionId) inflight.get(requestKey(sessionId, requestId))?.abort(new Error('cancelled by notifications/cancelled'));
    },
    handle(req) {
      const id = req.headers.get(HEADER.sessionId);
      if (!id || (req.method !== 'GET' && req.method !== 'DELETE')) return undefined;
      const session = get(id);
      if (!session) return jsonError(404, -32001, missing);
      if (req.method === 'DELETE') {
        end(id);
        return { status: 200, headers: {} };
      }
      const last = req.headers.get(HEADER.lastEventId);
      // A standalone GET stream carries nothing here: every server message goes on a request's stream.
      if (!last) {
        const refused = jsonError(405, ERROR.invalidRequest, 'Method Not Allowed: GET only resumes a stream (send Last-Event-ID)');
        return { ...refused, headers: { ...refused.headers, Allow: 'POST, DELETE' } };
      }
      return resume(session, last.trim());
    },
  };
}

/**
 * The 2025-11-25 session a request belongs to: the one its `Mcp-Session-Id` names, a fresh one
 * for an `initialize`, none for a request that claims 2026-07-28 in `_meta` (sessions are not
 * of that era), or `missing` when the id names no session.
 */
export function sessionOf(
  rpc: JsonRpcRequest,
  headers: HeaderBag,
  sessions: LegacySessions | undefined,
): { session?: LegacySession; fresh?: LegacySession } | 'missing' {
  if (!sessions) return {};
  const meta = asRecord(rpc.params?._meta);
  if (meta && META.protocolVersion in meta) return {};
  const id = headers.get(HEADER.sessionId);
  if (id) {
    const session = sessions.get(id);
    return session ? { session } : 'missing';
  }
  if (rpc.method !== 'initialize') return {};
  const fresh = createLegacySession();
  return { session: fresh, fresh };
}
