import type { Span, SpanKind, TimelineEntry } from './timeline-types';

/**
 * Spans derived from entries as they arrive, each drawn as one bar on the time axis:
 * - `exchange`: a request and everything its HTTP exchange produced (response head, JSON body
 *   or SSE stream, close), keyed by exchangeId; open until the stream closes or the body came.
 * - `conversation`: an MRTR conversation, every round (new JSON-RPC id each retry), keyed by
 *   conversationId.
 * - `listen`: a subscriptions/listen stream and its re-opens after drops (the client gives them
 *   one conversationId); replaces the conversation span for them.
 * - `task`: every entry naming a task (the CreateTaskResult, its polls, updates, cancel,
 *   notifications), starting at the request that created it; labelled by fingerprint.
 * - `bridge`: an MCP Apps view's bridge messages (kind `bridge`), keyed by conversationId (the
 *   app instance) or exchangeId.
 * - `auth`: the steps of a connection's authorization flows (frames of lane `auth`), keyed by
 *   connectionId: the timeline's Auth lane.
 * Spans are mutable records read on the timeline's `version`; `sweep` forgets those whose
 * entries all left memory.
 */

interface SpanIndex {
  /** Add an entry to the spans it belongs to. */
  add(entry: TimelineEntry): void;
  get(key: string): Span | undefined;
  /** Keys of the spans an entry belongs to (exchange first). */
  keysOf(entry: TimelineEntry): string[];
  /** All spans, in insertion order (first entry seen). */
  all(): IterableIterator<Span>;
  /** The spans other than exchanges (tasks, conversations, listens, bridges): far fewer, for the lanes. */
  long(): IterableIterator<Span>;
  readonly size: number;
  /** Drop spans whose last entry is older than `firstId`; returns the keys dropped. */
  sweep(firstId: number): string[];
  clear(): void;
}

const isListen = (e: TimelineEntry) => e.method === 'subscriptions/listen' || (e.conversationId?.startsWith('listen-') ?? false);

/** Span keys of an entry (pure: also used by views to find an entry's spans). */
export function spanKeysOf(e: TimelineEntry): string[] {
  if (e.kind === 'bridge') return [`bridge:${e.conversationId ?? e.exchangeId}`];
  const keys = [`exchange:${e.exchangeId}`];
  if (isListen(e)) keys.push(`listen:${e.conversationId ?? e.exchangeId}`);
  else if (e.conversationId) keys.push(`conversation:${e.conversationId}`);
  if (e.taskId) keys.push(`task:${e.taskId}`);
  if (e.auth) keys.push(`auth:${e.connectionId}`);
  return keys;
}

function kindOf(key: string): SpanKind {
  return key.slice(0, key.indexOf(':')) as SpanKind;
}

function labelOf(kind: SpanKind, e: TimelineEntry): string {
  switch (kind) {
    case 'task':
      return `task ${e.taskFp ?? ''}`;
    case 'listen':
      return 'listen';
    case 'bridge':
      return 'app bridge';
    case 'auth':
      return 'OAuth';
    case 'conversation':
      return `MRTR ${e.target ?? e.method ?? ''}`.trim();
    default:
      return [e.method ?? e.kind, e.target].filter(Boolean).join(' ');
  }
}

/** Whether this entry ends its exchange. */
function endsExchange(e: TimelineEntry): boolean {
  if (e.kind === 'sse-close' || e.kind === 'error') return true;
  // An authorization note (a challenge read, the user's consent, the callback) is a step of one frame.
  if (e.auth && e.kind === 'message') return true;
  if (e.kind === 'message' && e.direction === 'in' && (e.rpcKind === 'result' || e.rpcKind === 'error')) return true;
  if (e.kind === 'http-response') {
    // An auth step is one HTTP exchange: its answer is the response (no JSON-RPC follows).
    if (e.auth) return true;
    const streamed = (e.headers?.['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
    // No body to come: a 202, a 204, or an empty answer (a 401 with only WWW-Authenticate).
    return !streamed && (e.httpStatus === 202 || e.httpStatus === 204 || e.headers?.['content-length'] === '0');
  }
  return false;
}

/** What an exchange's row shows as its outcome: the HTTP status of its head and the answer's status. */
function noteOutcome(s: Span, e: TimelineEntry): void {
  if (e.kind === 'http-response' && e.httpStatus !== undefined) s.httpStatus = e.httpStatus;
  else if (e.kind === 'error') s.status = e.status ?? 'error';
  else if (e.kind === 'message' && e.direction === 'in' && (e.rpcKind === 'result' || e.rpcKind === 'error')) s.status = e.status;
}

/** Create an empty span index. */
export function createSpanIndex(): SpanIndex {
  const spans = new Map<string, Span>();
  const longSpans = new Map<string, Span>();
  /** The first entry of each exchange, so a task span can start at the request that created it. */
  const exchangeStart = (exchangeId: string) => spans.get(`exchange:${exchangeId}`);

  // Consecutive entries mostly share their exchange and task: reuse those keys (a built key
  // string keeps its hash, so the map lookup skips re-hashing; this runs once per entry).
  const lastKey: Partial<Record<SpanKind, { of: string; key: string }>> = {};
  const keyFor = (kind: SpanKind, of: string): string => {
    const last = lastKey[kind];
    if (last?.of === of) return last.key;
    const key = `${kind}:${of}`;
    lastKey[kind] = { of, key };
    return key;
  };

  function touch(key: string, e: TimelineEntry, kind: SpanKind = kindOf(key)): Span {
    let s = spans.get(key);
    if (!s) {
      const origin = kind === 'task' ? exchangeStart(e.exchangeId) : undefined;
      s = {
        key,
        kind,
        label: labelOf(kind, e),
        firstId: origin?.firstId ?? e.id,
        lastId: e.id,
        startAt: origin?.startAt ?? e.at,
        endAt: e.at,
        count: 0,
        errors: 0,
        bytes: 0,
        open: kind === 'exchange' || kind === 'listen',
        ...(e.taskFp && kind === 'task' ? { taskFp: e.taskFp } : {}),
      };
      spans.set(key, s);
      if (kind !== 'exchange') longSpans.set(key, s);
    }
    s.lastId = e.id;
    s.endAt = Math.max(s.endAt, e.at);
    s.count++;
    s.bytes += e.bytes;
    if (e.isError) s.errors++;
    if (kind === 'exchange') {
      // A plain HTTP answer's body is all of it, JSON-RPC or not: "Method Not Allowed" from a 405,
      // or JSON that is no message, ends its exchange too (it read "pending" for ever).
      const notRpc = e.kind === 'message' && e.direction === 'in' && !e.rpcKind && s.httpStatus !== undefined;
      if (endsExchange(e) || notRpc) s.open = false;
      noteOutcome(s, e);
      if (notRpc && !s.status) s.status = 'not JSON-RPC';
      if (e.fault) s.fault = s.fault ? `${s.fault}, ${e.fault}` : e.fault;
      // A label learned late (the request frame was not the first one seen).
      if (e.direction === 'out' && e.method) s.label = labelOf(kind, e);
    } else if (kind === 'listen' && e.kind === 'sse-close') s.open = false;
    else if (kind === 'listen' && e.kind === 'http-request') s.open = true;
    return s;
  }

  return {
    add(e) {
      // The keys of spanKeysOf, without building its array.
      if (e.kind === 'bridge') {
        touch(keyFor('bridge', e.conversationId ?? e.exchangeId), e, 'bridge');
        return;
      }
      touch(keyFor('exchange', e.exchangeId), e, 'exchange');
      if (isListen(e)) touch(keyFor('listen', e.conversationId ?? e.exchangeId), e, 'listen');
      else if (e.conversationId) touch(keyFor('conversation', e.conversationId), e, 'conversation');
      if (e.taskId) touch(keyFor('task', e.taskId), e, 'task');
      if (e.auth) touch(keyFor('auth', e.connectionId), e, 'auth');
    },
    get: (key) => spans.get(key),
    keysOf: spanKeysOf,
    all: () => spans.values(),
    long: () => longSpans.values(),
    get size() {
      return spans.size;
    },
    sweep(firstId) {
      const dropped: string[] = [];
      for (const [key, s] of spans) {
        if (s.lastId < firstId) {
          spans.delete(key);
          longSpans.delete(key);
          dropped.push(key);
        } else if (s.firstId < firstId) s.firstId = firstId;
      }
      return dropped;
    },
    clear: () => {
      for (const k of Object.keys(lastKey)) delete lastKey[k as SpanKind];
      spans.clear();
      longSpans.clear();
    },
  };
}
