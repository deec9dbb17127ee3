import { frameText, type Frame } from '../client/frames';
import type { TimelineEntry } from './timeline-types';
import { asRecord } from '../shared/records';

/**
 * Frame → TimelineEntry: the payload kept as text (truncated past the preview size, with the
 * full text handed back separately so the body store can keep it once), and the facts the
 * list shows computed while the parsed body is at hand, so it can be dropped afterwards.
 */

/** Fixed estimate of what one entry costs besides its strings (object, array slot, span share). */
const ENTRY_OVERHEAD = 512;

/** A UTF-16 code unit above Latin-1 (the regex has no `u` flag, so it tests code units, surrogates included). */
const WIDE = /[\u0100-\uffff]/;

/** Heap bytes of a string's characters: V8 keeps Latin-1 strings at one byte a char, others at two. */
export function stringBytes(s: string | undefined): number {
  if (!s) return 0;
  return WIDE.test(s) ? s.length * 2 : s.length;
}

/**
 * A flat copy of a slice: engines keep a short slice of a long string as a view that pins the
 * whole parent, so a preview would otherwise keep the full body alive after its eviction.
 */
function detachedSlice(text: string, length: number): string {
  let end = length;
  // Do not cut a surrogate pair in half.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return JSON.parse(JSON.stringify(text.slice(0, end))) as string;
}

function headersBytes(h: Record<string, string> | undefined): number {
  if (!h) return 0;
  let n = 0;
  for (const k in h) n += k.length + stringBytes(h[k]) + 32;
  return n;
}

function describe(frame: Frame): Pick<TimelineEntry, 'rpcKind' | 'status' | 'isError' | 'snapshot' | 'target'> {
  const body = asRecord(frame.body);
  let isError = false;
  let status: string | undefined;
  let rpcKind: TimelineEntry['rpcKind'];
  let snapshot = false;
  let target: string | undefined;
  switch (frame.kind) {
    case 'http-response':
      status = `HTTP ${frame.httpStatus ?? '?'}`;
      isError = (frame.httpStatus ?? 0) >= 400;
      break;
    case 'sse-open':
      status = 'stream open';
      break;
    case 'sse-comment':
      status = 'keep-alive';
      break;
    case 'sse-close':
      status = `closed: ${frame.closeReason ?? '?'}`;
      isError = frame.closeReason === 'network-error' || frame.closeReason === 'server-closed';
      break;
    case 'error':
      status = 'transport error';
      isError = true;
      break;
    case 'fault':
      // Injected by the tap: a mark, not a failure of either peer.
      status = `fault ${frame.fault?.kind ?? ''}`.trim();
      break;
  }
  if (frame.errorText && frame.kind !== 'sse-close') isError = true;
  // An auth step's verdict: its checks, the first failed one named.
  const failedCheck = frame.auth?.checks?.find((c) => !c.ok);
  if (failedCheck) {
    isError = true;
    status = `✗ ${failedCheck.name}`;
  } else if (frame.kind === 'message' && frame.auth?.checks?.length)
    status = `✓ ${frame.auth.checks.length === 1 ? (frame.auth.checks[0]?.name ?? '') : `${frame.auth.checks.length} checks`}`;
  if (body) {
    const params = asRecord(body.params);
    const result = asRecord(body.result);
    const error = asRecord(body.error);
    if (typeof body.method === 'string') {
      rpcKind = 'id' in body ? 'request' : 'notification';
      target = typeof params?.name === 'string' ? params.name : typeof params?.uri === 'string' ? params.uri : undefined;
      if (body.method === 'notifications/tasks' && typeof params?.status === 'string') {
        snapshot = true;
        status = `task ${params.status}`;
        isError ||= params.status === 'failed';
      } else if (body.method === 'notifications/progress' && params) {
        status = `progress ${String(params.progress)}${params.total !== undefined ? `/${String(params.total)}` : ''}`;
      }
    } else if (error) {
      rpcKind = 'error';
      status = `error ${String(error.code)}`;
      isError = true;
    } else if (result) {
      rpcKind = 'result';
      const legacyTask = asRecord(result.task);
      const taskStatus =
        typeof result.status === 'string' && typeof result.taskId === 'string'
          ? result.status
          : typeof legacyTask?.status === 'string'
            ? legacyTask.status
            : undefined;
      if (taskStatus) {
        snapshot = true;
        status = `task ${taskStatus}`;
        isError ||= taskStatus === 'failed';
      } else status = typeof result.resultType === 'string' ? result.resultType : 'result';
      if (result.isError === true) {
        status = `${status} isError`;
        isError = true;
      }
    }
  }
  return { rpcKind, status, isError, snapshot, target };
}

/** An entry's payload text (its preview), serializing a pending recorded body on first use. */
export function previewOf(e: TimelineEntry): string | undefined {
  if (e.preview === undefined && e.pendingBody !== undefined) {
    e.preview = JSON.stringify(e.pendingBody);
    e.pendingBody = undefined;
  }
  return e.preview;
}

/** How a fault mark reads on its row and in the detail: `http-503 · http-status · tools/call add (note)`. */
function faultLabel(f: NonNullable<Frame['fault']>): string {
  return [f.rule, f.kind, f.request].filter(Boolean).join(' · ') + (f.note ? ` (${f.note})` : '');
}

/** Converted entry plus the full text when the preview had to be cut. */
interface EntryWithBody {
  entry: TimelineEntry;
  fullBody?: string;
}

/** Convert a frame into an entry with store id `id`; `taskFp` fingerprints the task id. */
export function toEntry(frame: Frame, id: number, previewBytes: number, taskFp: (taskId: string) => string): EntryWithBody {
  // A small recorded body without raw text waits to be serialized until something reads it.
  const lazy = frame.raw === undefined && frame.body !== undefined && frame.bytes > 0 && frame.bytes <= previewBytes;
  const text = lazy ? undefined : frameText(frame);
  const truncated = text !== undefined && (text.length > previewBytes || frame.bytes > previewBytes);
  const preview = text === undefined ? undefined : truncated ? detachedSlice(text, Math.min(previewBytes, text.length)) : text;
  const facts = describe(frame);
  // Plain assignments rather than conditional spreads: this runs for every frame of a recording.
  const entry: TimelineEntry = {
    id,
    seq: frame.seq,
    at: frame.at,
    connectionId: frame.connectionId,
    direction: frame.direction,
    kind: frame.kind,
    exchangeId: frame.exchangeId,
    bytes: frame.bytes,
    truncated,
    isError: facts.isError,
    snapshot: facts.snapshot,
    cost: 0,
  };
  if (frame.streamId !== undefined) entry.streamId = frame.streamId;
  if (frame.conversationId !== undefined) entry.conversationId = frame.conversationId;
  if (frame.rpcId !== undefined) entry.rpcId = frame.rpcId;
  if (frame.method !== undefined) entry.method = frame.method;
  if (facts.target !== undefined) entry.target = facts.target;
  if (frame.auth !== undefined) entry.auth = frame.auth;
  if (frame.taskId !== undefined) {
    entry.taskId = frame.taskId;
    entry.taskFp = taskFp(frame.taskId);
  }
  if (frame.httpStatus !== undefined) entry.httpStatus = frame.httpStatus;
  if (frame.headers !== undefined) entry.headers = frame.headers;
  if (frame.durationMs !== undefined) entry.durationMs = frame.durationMs;
  if (frame.closeReason !== undefined) entry.closeReason = frame.closeReason;
  if (frame.errorText !== undefined) entry.errorText = frame.errorText;
  if (frame.fault) entry.fault = faultLabel(frame.fault);
  if (preview !== undefined) entry.preview = preview;
  if (lazy) entry.pendingBody = frame.body;
  if (facts.rpcKind !== undefined) entry.rpcKind = facts.rpcKind;
  if (facts.status !== undefined) entry.status = facts.status;
  entry.cost =
    ENTRY_OVERHEAD +
    (lazy ? frame.bytes : stringBytes(preview)) +
    headersBytes(frame.headers) +
    stringBytes(frame.errorText) +
    stringBytes(entry.fault) +
    (frame.method?.length ?? 0) +
    (frame.taskId ? frame.taskId.length + 8 : 0) +
    frame.exchangeId.length +
    frame.connectionId.length +
    (frame.conversationId?.length ?? 0) +
    (frame.auth ? JSON.stringify(frame.auth).length : 0) +
    (facts.status?.length ?? 0) +
    (facts.target?.length ?? 0);
  return truncated ? { entry, fullBody: text } : { entry };
}
