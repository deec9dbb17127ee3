import type { CloseReason, Frame, FrameKind } from '../client/frames';
import type { Lint } from '../protocol';

/**
 * The shapes the timeline slice keeps. A `TimelineEntry` is a Frame made cheap to hold:
 * the payload kept as text (`preview`, at most `previewBytes` of it), no parsed body, and the
 * few facts the list shows and filters on computed once at ingestion. Parse `preview` (or
 * the full body from the body store) on demand, e.g. in the detail pane.
 */

/** One row of the timeline: a frame, with its payload as (possibly truncated) text. */
export interface TimelineEntry {
  /** Store-wide, strictly increasing (frames of several connections interleave); the key everywhere. */
  id: number;
  /** The frame's own sequence within its connection. */
  seq: number;
  at: number;
  connectionId: string;
  direction: 'in' | 'out';
  kind: FrameKind;
  exchangeId: string;
  streamId?: string;
  conversationId?: string;
  rpcId?: string | number;
  method?: string;
  /** What a request names: the tool (`params.name`) or resource (`params.uri`). */
  target?: string;
  /** A step of an authorization flow (lane `auth`): its name, rule, URL and checks. */
  auth?: Frame['auth'];
  /** The real task id (never render it: show `taskFp`). */
  taskId?: string;
  /** 8-character fingerprint of `taskId`, for display and the task filter. */
  taskFp?: string;
  httpStatus?: number;
  headers?: Record<string, string>;
  durationMs?: number;
  closeReason?: CloseReason;
  errorText?: string;
  /** A `fault` frame's mark: the rule that fired, its kind and the request (`http-503 · http-status · tools/call add`). */
  fault?: string;
  /** UTF-8 size of the original payload (Frame.bytes). */
  bytes: number;
  /** The payload as text (`raw`, or the JSON of `body`); truncated when `truncated`. Read it with `previewOf`. */
  preview?: string;
  /**
   * A recorded frame's parsed body (stored without `raw`), held by reference until `previewOf`
   * first needs its text: opening a recording then skips serializing 100,000 bodies. Never
   * set for live frames, which carry their raw text.
   */
  pendingBody?: unknown;
  /** The preview is the first `previewBytes` of a larger payload. */
  truncated: boolean;
  /** For a truncated entry: whether the full body is still in the body store. */
  fullBody?: 'kept' | 'evicted' | 'too-large';
  /** What the message is: a request, a notification, a response (result) or an error response. */
  rpcKind?: 'request' | 'notification' | 'result' | 'error';
  /** Short status text for the row: HTTP status, resultType, task status, error code... */
  status?: string;
  /** A failure of any kind: HTTP ≥ 400, JSON-RPC error, transport error, abnormal close, isError, failed task. */
  isError: boolean;
  /** The payload is a task snapshot (CreateTaskResult, tasks/get result, notifications/tasks params). */
  snapshot: boolean;
  /** Bytes this entry costs against the list budget (strings held + a fixed overhead). */
  cost: number;
}

/** What a span groups; see `SPAN_KINDS` docs in timeline-spans.ts. */
export type SpanKind = 'exchange' | 'conversation' | 'task' | 'listen' | 'bridge' | 'auth';

/** A group of entries drawn as one bar/bracket on the time axis. */
export interface Span {
  /** `${kind}:${groupId}` — unique per store. */
  key: string;
  kind: SpanKind;
  /** Display label (method, tool name, task fingerprint...). Never a raw task id. */
  label: string;
  firstId: number;
  lastId: number;
  startAt: number;
  endAt: number;
  /** Entries in the span. */
  count: number;
  /** Entries in the span that are errors. */
  errors: number;
  /** An exchange/listen stream that has not closed yet. */
  open: boolean;
  /** The task fingerprint of a task span. */
  taskFp?: string;
  /** Payload bytes of the span's entries (an exchange row's size). */
  bytes: number;
  /** An exchange's answer for its row: the result's or error's status text, or the transport error. */
  status?: string;
  /** The exchange's HTTP status, once its head came. */
  httpStatus?: number;
  /** The faults the tap injected into the exchange (their marks, comma-separated). */
  fault?: string;
}

/** Filters of the list; all must match. Empty/undefined means "any". */
export interface TimelineFilters {
  /** Methods to show (exact names); empty shows all. */
  methods: string[];
  direction: 'all' | 'in' | 'out';
  errorsOnly: boolean;
  /** Task fingerprint (8 hex chars) to show. */
  taskFp?: string;
  hasLints: boolean;
  /** `messages` hides transport-only frames (response heads, stream open/close, keep-alives). */
  kinds: 'all' | 'messages';
  /** Only the faults a tap injected (and, in exchange rows, the exchanges they hit). */
  faultsOnly?: boolean;
}

/** Filters that show everything. */
export const DEFAULT_FILTERS: TimelineFilters = { methods: [], direction: 'all', errorsOnly: false, hasLints: false, kinds: 'all' };

/** Budgets of the byte-bounded timeline. */
export interface TimelineLimits {
  /** Budget of the entry list (previews, headers, overhead). Default 32 MiB. */
  maxBytes: number;
  /** Budget of the full bodies of truncated entries. Default 16 MiB. */
  maxBodyBytes: number;
  /** Payloads larger than this are truncated in the list. Default 64 KiB. */
  previewBytes: number;
}

/** The timeline's default budgets. */
export const DEFAULT_LIMITS: TimelineLimits = { maxBytes: 32 * 1024 * 1024, maxBodyBytes: 16 * 1024 * 1024, previewBytes: 64 * 1024 };

/** Entries leaving memory, oldest first, with the full bodies they still had. */
export interface SpillBatch {
  entries: TimelineEntry[];
  bodies: Map<number, string>;
}

/** Receives entries evicted from the list (a recorder can persist them). Must not throw. */
export type SpillHandler = (batch: SpillBatch) => void;

/** Counters of the byte-bounded buffer, mirrored into the reactive state. */
export interface TimelineStats {
  /** Entries currently held. */
  count: number;
  /** Id of the oldest entry held (== nextId when empty). */
  firstId: number;
  /** Id the next entry will get. */
  nextId: number;
  /** Bytes of the list held (sum of entry `cost`). */
  retainedBytes: number;
  /** Bytes of full bodies held. */
  bodyBytes: number;
  /** Entries dropped (spilled) so far, and their bytes. */
  spilled: number;
  spilledBytes: number;
}

/** Lints keyed by exchangeId, as `lintFrames` returns them. */
export type LintMap = ReadonlyMap<string, readonly Lint[]>;
