import { frameText, type Frame } from '../client/frames';
import { ERROR, httpStatusForError } from '../protocol';
import { groupExchanges, type RecordedExchange } from './exchanges';
import { answerMessages, carriedAsMessages, messagesResponse } from './replay-messages';
import { pickRecorded, unmatchedError, type Candidate, type MatchKind } from './replay-match';
import type { Recording } from './schema';
import { asRecord } from '../shared/records';
import { parseJson } from '../shared/json';

/**
 * A recording served as a mock: a web fetch handler that answers each JSON-RPC request with
 * the recorded answer to the same request. Requests match on method and params, ignoring
 * `_meta` (protocol version, client info, progress tokens) and the JSON-RPC id; among equal
 * requests the recorded answers are served in order (a task's polls replay its lifecycle) and
 * the last one repeats once they run out (for tasks/get, the newest snapshot the recording saw
 * of that task, which may have come as a notification). A request no recorded one equals gets
 * a JSON-RPC error naming it, with the closest recorded request (replay-match.ts); only with
 * `loose` does it take the next unused answer of its method. The answer is the recorded status,
 * headers and body (JSON, or the SSE frames) with the incoming id and progress token put in;
 * an exchange recorded off stdio has no HTTP answer to repeat and gets one built from its
 * messages (replay-messages.ts).
 * Transport guards (Host, Origin) are the host's job: see lib/server/replay-server.ts.
 */

/** Stable JSON with sorted keys and every `_meta` removed: how requests are compared. */
export function canonicalParams(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) if (k !== '_meta') out[k] = walk((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  return JSON.stringify(walk(value ?? {}));
}

/** Handshakes carry who the client is, not a question: any client's handshake matches the recorded one. */
const HANDSHAKES = new Set(['initialize', 'server/discover']);
const keyOf = (method: string, params: unknown) => (HANDSHAKES.has(method) ? '{}' : canonicalParams(params));

interface Recorded extends Candidate {
  x: RecordedExchange;
  /** Recorded off stdio: answered from its messages (replay-messages.ts). */
  asMessages: boolean;
}

/** How one request was answered. */
export interface ReplayServe {
  method: string;
  match: MatchKind | 'notification';
  exchangeId?: string;
}

/** Options of {@link createReplay}. */
export interface ReplayOptions {
  /** Told about every request served (the CLI logs unmatched ones). */
  onServe?: (serve: ReplayServe) => void;
  /** Answer a request the recording does not hold with the next recorded answer of its method (method order). Default: an error naming it. */
  loose?: boolean;
}

/** A recording served as a web fetch handler. */
interface ReplayHandler {
  fetch(request: Request): Promise<Response>;
  /** Recorded exchanges available for replay. */
  readonly exchanges: number;
  /** Start again from the first recorded answer of every request. */
  reset(): void;
}

const DROP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'content-encoding']);

const jsonResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function rpcError(id: unknown, code: number, message: string, data?: unknown): Response {
  return jsonResponse(httpStatusForError(code), { jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data !== undefined ? { data } : {}) } });
}

function progressTokenOf(params: unknown): unknown {
  return asRecord(asRecord(params)?._meta)?.progressToken;
}

/** The recorded JSON text of a frame with the incoming id (responses) and progress token (notifications) put in. */
function rewrite(frame: Frame, recordedId: unknown, id: unknown, tokens: { from: unknown; to: unknown }): string {
  const body = asRecord(frame.body);
  if (!body) return frameText(frame) ?? '';
  if (('result' in body || 'error' in body) && body.id === recordedId && recordedId !== id) return JSON.stringify({ ...body, id });
  const params = asRecord(body.params);
  if (tokens.from !== undefined && tokens.to !== undefined && tokens.from !== tokens.to && params?.progressToken === tokens.from) {
    return JSON.stringify({ ...body, params: { ...params, progressToken: tokens.to } });
  }
  return frameText(frame) ?? '';
}

function answer(r: RecordedExchange, asMessages: boolean, id: unknown, params: unknown, signal: AbortSignal | undefined): Response {
  const head = r.head;
  // A stdio exchange is answered from its messages (its head, if any, is a placeholder).
  if (asMessages ? !r.responseFrame : !head) {
    const why = r.incoming.find((f) => f.kind === 'error')?.errorText ?? 'no response was recorded';
    return rpcError(id, ERROR.internalError, `The recorded ${r.method ?? 'request'} got no response: ${why}`);
  }
  const tokens = { from: progressTokenOf(r.params), to: progressTokenOf(params) };
  if (asMessages || !head) return messagesResponse(answerMessages(r).map((f) => rewrite(f, r.rpcId, id, tokens)));
  const headers = new Headers();
  for (const [k, v] of Object.entries(head.headers ?? {})) if (!DROP_HEADERS.has(k.toLowerCase())) headers.set(k, v);
  if (!r.streamed) {
    const message = r.incoming.find((f) => f.kind === 'message');
    return new Response(message ? rewrite(message, r.rpcId, id, tokens) : null, { status: head.httpStatus ?? 200, headers });
  }
  const encoder = new TextEncoder();
  const chunks = r.incoming.flatMap((f) => {
    if (f.kind === 'sse-frame')
      return [
        `${rewrite(f, r.rpcId, id, tokens)
          .split('\n')
          .map((l) => `data: ${l}`)
          .join('\n')}\n\n`,
      ];
    if (f.kind === 'sse-comment') return [`: ${f.raw ?? ''}\n\n`];
    return [];
  });
  // A stream the client itself closed (a listen) stays open until this client leaves.
  const holdOpen = r.incoming.some((f) => f.kind === 'sse-close' && f.closeReason === 'client-closed');
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      if (!holdOpen || !signal) return controller.close();
      if (signal.aborted) return controller.close();
      signal.addEventListener('abort', () => {
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
  });
  return new Response(stream, { status: head.httpStatus ?? 200, headers });
}

/**
 * The newest snapshot of a task anywhere in the recording (a tasks/get result or a
 * notifications/tasks), as a tasks/get result: a client that polls more than the recorded
 * one did still sees the task reach the state the recording saw last.
 */
function latestSnapshot(frames: readonly Frame[], taskId: unknown): { at: number; result: Record<string, unknown> } | undefined {
  if (typeof taskId !== 'string') return undefined;
  let latest: { at: number; result: Record<string, unknown> } | undefined;
  for (const f of frames) {
    if (f.direction !== 'in' || f.taskId !== taskId || (latest && f.at < latest.at)) continue;
    const body = asRecord(f.body);
    const snap = f.method === 'tasks/get' ? asRecord(body?.result) : body?.method === 'notifications/tasks' ? asRecord(body.params) : undefined;
    if (!snap || snap.taskId !== taskId || typeof snap.status !== 'string') continue;
    const { _meta: _m, resultType: _r, ...rest } = snap;
    latest = { at: f.at, result: { resultType: 'complete', ...rest } };
  }
  return latest;
}

/** Create a replay handler for a recording. */
export function createReplay(recording: Recording, options: ReplayOptions = {}): ReplayHandler {
  const all: Recorded[] = groupExchanges(recording.frames)
    .filter((x) => x.method !== undefined && asRecord(x.request.body) !== undefined)
    .map((x) => ({
      x,
      method: x.method!,
      key: keyOf(x.method!, x.params),
      exchangeId: x.exchangeId,
      used: false,
      asMessages: carriedAsMessages(recording, x),
    }));
  const byMethod = new Map<string, Recorded[]>();
  for (const r of all) {
    const list = byMethod.get(r.x.method!);
    if (list) list.push(r);
    else byMethod.set(r.x.method!, [r]);
  }

  return {
    exchanges: all.length,
    reset() {
      for (const r of all) r.used = false;
    },
    async fetch(request) {
      const parsed = parseJson(await request.text());
      if (!parsed.ok) return rpcError(null, ERROR.parseError, `Parse error: ${parsed.message}`);
      const body = parsed.value;
      const msg = asRecord(body);
      if (!msg) return rpcError(null, ERROR.invalidRequest, 'Invalid Request: expected one JSON-RPC message (batches are not supported)');
      // A client's answer to a server request is accepted; nothing was recorded to send back.
      if (typeof msg.method !== 'string') return new Response(null, { status: 202 });
      const method = msg.method;
      const { r, match } = pickRecorded(byMethod.get(method) ?? [], keyOf(method, msg.params), !!options.loose);
      const isNotification = !('id' in msg);
      options.onServe?.({ method, match: isNotification && !r ? 'notification' : match, ...(r ? { exchangeId: r.x.exchangeId } : {}) });
      if (isNotification) {
        if (r) r.used = true;
        // On stdio the head is a placeholder (the CLI's says 200): a notification gets the spec's 202.
        return new Response(null, { status: r && !r.asMessages ? (r.x.head?.httpStatus ?? 202) : 202 });
      }
      if (!r) {
        const e = unmatchedError(all, method, canonicalParams(msg.params), !!options.loose);
        return rpcError(msg.id, e.code, e.message, e.data);
      }
      r.used = true;
      if (match === 'repeat' && method === 'tasks/get') {
        const latest = latestSnapshot(recording.frames, asRecord(msg.params)?.taskId);
        if (latest && latest.at > r.x.endAt) return jsonResponse(200, { jsonrpc: '2.0', id: msg.id, result: latest.result });
      }
      return answer(r.x, r.asMessages, msg.id, msg.params, request.signal);
    },
  };
}
