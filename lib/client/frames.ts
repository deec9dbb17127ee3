import { z } from 'zod';
import { asRecord } from '../shared/records';

/**
 * The Frame: one observable event of a connection, the unit every inspector view reads
 * (timeline, streams panel, tasks panel, lints) and the unit recordings persist.
 *
 * How frames relate:
 * - `connectionId` names the connection (one transport); `seq` orders frames within it and is
 *   strictly increasing; `at` is wall-clock milliseconds (from the injected clock).
 * - `exchangeId` groups everything one HTTP exchange produced (one POST: its request, the
 *   response head, a JSON body or every SSE frame, the close). For message transports
 *   (stdio, in-memory pairs) it groups a request with the messages that answer it.
 * - `streamId` is set on `sse-*` frames. In 2026-07-28 each SSE stream belongs to exactly one
 *   POST, so it equals the exchangeId; it is a separate field so other transports can differ.
 * - `rpcId` is the JSON-RPC id of the request the frame belongs to (also on the notifications
 *   carried by that request's stream). `method` is the frame's own method when it is a
 *   request or notification, else the method of the request it answers, so a method filter
 *   catches the whole exchange.
 * - `taskId` is set whenever the frame names a task: `params.taskId` of tasks/* requests and
 *   `notifications/tasks`, `result.taskId` of a CreateTaskResult or tasks/get snapshot, and
 *   legacy `result.task.taskId`. It is the real id: views show `fingerprint(taskId)`, and
 *   recordings redact it on export.
 * - `conversationId` ties the frames of one logical operation across exchanges: every round
 *   of an MRTR conversation (new JSON-RPC id each retry) and every listen re-open after a drop.
 *
 * Kinds:
 * | kind | dir | carries |
 * | `http-request` | out | `headers`, `body` (the JSON-RPC message), `raw`, `bytes` |
 * | `http-response` | in | `httpStatus`, `headers`, `durationMs` (time to response head) |
 * | `message` | in/out | a JSON-RPC message outside SSE: a JSON response body, a stdio line |
 * | `sse-open` | in | the start of a response stream (`streamId`) |
 * | `sse-frame` | in | one SSE `data:` event: `body` (parsed) or only `raw` when not JSON |
 * | `sse-comment` | in | a `:` comment line (keep-alive); `raw` is its text |
 * | `sse-close` | in | the end of a stream: `closeReason`, `durationMs` (stream lifetime) |
 * | `error` | in | a transport failure (network, proxy refusal, unparsable body): `errorText` |
 * | `bridge` | in/out | an MCP Apps bridge message (postMessage), `body` |
 * | `fault` | in | a fault `mcp-loupe tap` injected into the exchange (`fault`): neither peer's doing |
 *
 * Frames with `lane: 'auth'` are the HTTP steps of an authorization flow (metadata, registration,
 * authorize, token), reported by lib/client/auth: `auth` names the step, its rule and its checks.
 *
 * Frames are unredacted: header views mask `Mcp-Name` and exports redact; the model keeps
 * what went over the wire. `bytes` is the UTF-8 size of the payload the frame stands for
 * (`raw`), 0 when it has none, so a byte-bounded store can budget without re-encoding.
 */

export const FRAME_KINDS = [
  'http-request',
  'http-response',
  'message',
  'sse-open',
  'sse-frame',
  'sse-comment',
  'sse-close',
  'error',
  'bridge',
  'fault',
] as const;
const FrameKindSchema = z.enum(FRAME_KINDS);
/** What a frame records: a request, a response head, a message, an SSE event, an error or a bridge message. */
export type FrameKind = z.infer<typeof FrameKindSchema>;

/**
 * Why a stream or exchange ended:
 * `complete` (the server closed it after the response), `server-closed` (the server closed it
 * without a response: an unexpected disconnect), `client-closed` (the client closed it: a
 * cancel, a timeout or closing a listen stream), `network-error` (the stream failed mid-way).
 */
export const CloseReasonSchema = z.enum(['complete', 'server-closed', 'client-closed', 'network-error']);
/** Why a stream or exchange ended (see CloseReasonSchema). */
export type CloseReason = z.infer<typeof CloseReasonSchema>;

/**
 * An authorization step (lib/client/auth/trace.ts): which step of the flow, the spec rule that
 * makes the client take it, the URL and method, and what the client checked in the answer.
 */
const AuthStepSchema = z.object({
  step: z.string(),
  rule: z.string(),
  url: z.string().optional(),
  method: z.string().optional(),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })).optional(),
});

/**
 * A fault the tap injected (lib/server/tap-faults.ts): the fault kind (`http-status`, `latency`,
 * `drop`...), the rule that fired (its switch id or name) and the request it hit, as the user
 * reads it; `note` says what did not apply (a stream cut has no stdio form).
 */
const FaultMarkSchema = z.object({
  kind: z.string().max(64),
  rule: z.string().max(200),
  request: z.string().max(500).optional(),
  note: z.string().max(500).optional(),
});
/** A fault mark (see FaultMarkSchema). */
export type FaultMark = z.infer<typeof FaultMarkSchema>;

/** One thing that went over the wire, as tracked and recorded. */
export const FrameSchema = z.object({
  seq: z.number().int().min(0),
  at: z.number(),
  connectionId: z.string(),
  direction: z.enum(['out', 'in']),
  kind: FrameKindSchema,
  exchangeId: z.string(),
  streamId: z.string().optional(),
  conversationId: z.string().optional(),
  rpcId: z.union([z.string(), z.number()]).optional(),
  method: z.string().optional(),
  taskId: z.string().optional(),
  httpStatus: z.number().int().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  raw: z.string().optional(),
  bytes: z.number().int().min(0),
  durationMs: z.number().min(0).optional(),
  closeReason: CloseReasonSchema.optional(),
  /** Human-readable detail of an `error` frame or of a close (e.g. "timeout after 30000 ms"). */
  errorText: z.string().optional(),
  /** `auth`: a step of an authorization flow (OAuth metadata, registration, token...), not MCP traffic. */
  lane: z.enum(['auth']).optional(),
  auth: AuthStepSchema.optional(),
  /** `fault` frames: what the tap injected. */
  fault: FaultMarkSchema.optional(),
});
/** One thing that went over the wire (see FrameSchema). */
export type Frame = z.infer<typeof FrameSchema>;

/** Where the tracking decorator reports frames (the timeline store, a recorder, a test array). */
export type FrameSink = (frame: Frame) => void;

const encoder = new TextEncoder();

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * UTF-8 byte length of a string. ASCII text (most JSON) is counted by a native scan, without
 * encoding a copy: a server listing 100,000 tools sent 25 MiB that were encoded only to be measured.
 */
export function utf8Bytes(text: string | undefined): number {
  if (!text) return 0;
  return NON_ASCII.test(text) ? encoder.encode(text).byteLength : text.length;
}

/**
 * The payload text of a frame: `raw` as received or, when the frame has none (recordings drop
 * `raw` where it is exactly `JSON.stringify(body)`, see {@link compactFrame}), the body's JSON.
 */
export function frameText(f: Pick<Frame, 'raw' | 'body'>): string | undefined {
  return f.raw ?? (f.body !== undefined ? JSON.stringify(f.body) : undefined);
}

/**
 * The frame as a recording stores it: without `raw` when `raw` is byte for byte
 * `JSON.stringify(body)` (most JSON-RPC traffic), so a file holds each message once. Raw text
 * that differs (whitespace, key order, duplicate keys, not JSON at all) is kept as received.
 */
export function compactFrame(f: Frame): Frame {
  if (f.raw === undefined || f.body === undefined || f.raw !== JSON.stringify(f.body)) return f;
  const { raw: _raw, ...rest } = f;
  return rest;
}

/** Header names lower-cased, values as sent, for a frame. */
export function headerRecord(headers: Headers | Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) {
    headers.forEach((v, k) => {
      out[k.toLowerCase()] = v;
    });
  } else for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}

/** The task a JSON-RPC message names, if any (request params, result, legacy result.task). */
export function taskIdOfMessage(message: unknown): string | undefined {
  const m = asRecord(message);
  if (!m) return undefined;
  const params = asRecord(m.params);
  if (typeof params?.taskId === 'string') return params.taskId;
  const result = asRecord(m.result);
  if (typeof result?.taskId === 'string') return result.taskId;
  const legacy = asRecord(result?.task);
  if (typeof legacy?.taskId === 'string') return legacy.taskId;
  return undefined;
}

/** `method` and `id` of a JSON-RPC message, when present. */
export function rpcFields(message: unknown): { method?: string; id?: string | number } {
  const m = asRecord(message);
  if (!m) return {};
  const method = typeof m.method === 'string' ? m.method : undefined;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  return { ...(method ? { method } : {}), ...(id !== undefined ? { id } : {}) };
}
