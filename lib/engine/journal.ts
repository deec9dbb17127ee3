import type { Clock } from './runtime';
import type { ExchangeHandle, ExchangeStart, ExchangeTap, StreamEnd } from './exchange-tap';
import { boundHeaders, boundPayload, DEFAULT_PAYLOAD_LIMITS, headerChars, type PayloadLimits } from './journal-bounds';
import { fitsLimits } from './journal-lazy';
import { EntryHandle, type HandleCore } from './journal-handle';

/**
 * The journal: every exchange the mock served, in arrival order, with what the report card
 * needs to grade the client (request headers and body as sent, status, the final response,
 * each SSE frame with its time). An entry opens when the request arrives, so open listen
 * streams are visible while they run, and it is completed when the response or stream ends.
 * Bounded by entry count and by bytes; oversized payloads keep their shape with markers; small
 * JSON bodies are kept as their text and parsed when first read (journal-lazy.ts).
 */

/** One SSE frame the engine wrote on a streamed response. */
export interface JournalFrame {
  /** Injected-clock time it was written. */
  at: number;
  /** Position among every journal event (entries opening, frames, endings), to order across entries. */
  order: number;
  /** The JSON-RPC message, or the raw SSE text of a frame that was not one (an injected fault). */
  message: unknown;
}

/** One exchange. Fields below `status` are filled as the exchange progresses. */
export interface JournalEntry {
  seq: number;
  /** Injected-clock time the request arrived. */
  at: number;
  order: number;
  /** JSON-RPC method (undefined for a POSTed response or a body that is not JSON-RPC). */
  method?: string;
  /** JSON-RPC id; undefined for notifications. */
  id?: unknown;
  /** Whose request this was (the engine's principal: bearer subject or token digest). */
  principal?: string;
  /** Request headers as received (lower-case names). */
  requestHeaders: Record<string, string>;
  /** Parsed JSON body, or the raw text when it did not parse. */
  requestBody: unknown;
  /** HTTP status; undefined until the response starts. */
  status?: number;
  /** The JSON response, or a stream's final response once written. */
  responseBody?: unknown;
  streamed: boolean;
  frames: JournalFrame[];
  /** Frames not kept because the entry reached its frame limit. */
  framesOmitted?: number;
  /** How a stream ended; undefined while open and for JSON answers. */
  end?: StreamEnd;
  endedAt?: number;
  endOrder?: number;
  /** Labels of the scenario faults that fired on this request. */
  fault?: string;
  /** True when some payload was shortened. */
  truncated?: boolean;
  /** Approximate size in characters, used for the byte bound. */
  bytes: number;
}

/** Journal change events for live views. */
export type JournalEvent =
  | { type: 'entry'; entry: JournalEntry }
  | { type: 'frame'; entry: JournalEntry; frame: JournalFrame }
  | { type: 'end'; entry: JournalEntry }
  | { type: 'clear' };

/** The journal's handle on one exchange: the reporting calls, plus the entry they fill. */
export interface JournalHandle extends ExchangeHandle {
  readonly entry: JournalEntry;
}

/** Bounded journal of every request the mock received and what it answered. */
export interface Journal extends ExchangeTap {
  open(start: ExchangeStart): JournalHandle;
  /** Entries with a sequence number above `sinceSeq`, oldest first. */
  entries(sinceSeq?: number): JournalEntry[];
  get(seq: number): JournalEntry | undefined;
  /** Listen to entries opening, frames and endings; returns the unsubscribe function. */
  subscribe(listener: (event: JournalEvent) => void): () => void;
  clear(): void;
  readonly size: number;
  /** Approximate characters held. */
  readonly bytes: number;
}

/** Options of {@link createJournal}. */
interface JournalOptions {
  clock: Clock;
  /** Entries kept (oldest dropped first). Default 2000. */
  capacity?: number;
  /** Approximate characters kept across entries. Default 8 MiB. */
  maxBytes?: number;
  /** Frames kept per entry (a long listen stream keeps its first ones). Default 200. */
  maxFrames?: number;
  payload?: PayloadLimits;
}

/** A journal holding at most `capacity` entries and about `maxBytes` characters, oldest dropped first. */
export function createJournal(options: JournalOptions): Journal {
  const { clock } = options;
  const capacity = options.capacity ?? 2000;
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  const maxFrames = options.maxFrames ?? 200;
  const limits = options.payload ?? DEFAULT_PAYLOAD_LIMITS;
  const listeners = new Set<(e: JournalEvent) => void>();
  let ring: JournalEntry[] = [];
  const live = new Set<JournalEntry>();
  let seq = 0;
  let order = 0;
  let total = 0;

  const emit = (e: JournalEvent) => {
    for (const l of listeners) l(e);
  };
  const bound = (entry: JournalEntry, value: unknown): unknown => {
    const b = boundPayload(value, limits);
    if (b.truncated) entry.truncated = true;
    grow(entry, b.chars);
    return b.value;
  };
  const grow = (entry: JournalEntry, chars: number) => {
    entry.bytes += chars;
    if (live.has(entry)) total += chars;
  };
  const evict = () => {
    while (ring.length > capacity || (total > maxBytes && ring.length > 1)) {
      const old = ring.shift()!;
      live.delete(old);
      total -= old.bytes;
    }
  };

  const core: HandleCore = {
    limits,
    maxFrames,
    now: () => clock.now(),
    nextOrder: () => ++order,
    grow,
    bound,
    evict,
    emit,
  };

  return {
    open(start) {
      const headers = boundHeaders(start.requestHeaders, 4096);
      // Read through accessors: a body kept as text is parsed once, by its first reader.
      let requestText: string | undefined;
      let requestBody: unknown;
      let responseText: string | undefined;
      let responseBody: unknown;
      const entry: JournalEntry = {
        seq: ++seq,
        at: clock.now(),
        order: ++order,
        requestHeaders: headers,
        get requestBody() {
          if (requestText !== undefined) {
            requestBody = boundPayload(JSON.parse(requestText), limits).value;
            requestText = undefined;
          }
          return requestBody;
        },
        set requestBody(value) {
          requestText = undefined;
          requestBody = value;
        },
        get responseBody() {
          if (responseText !== undefined) {
            responseBody = boundPayload(JSON.parse(responseText), limits).value;
            responseText = undefined;
          }
          return responseBody;
        },
        set responseBody(value) {
          responseText = undefined;
          responseBody = value;
        },
        streamed: false,
        frames: [],
        bytes: headerChars(headers) + 200,
      };
      if (start.method !== undefined) entry.method = start.method;
      if (start.id !== undefined) entry.id = start.id;
      if (start.requestText !== undefined && fitsLimits(start.requestText, limits)) {
        requestText = start.requestText;
        entry.bytes += requestText.length;
      } else requestBody = bound(entry, start.requestBody);
      ring.push(entry);
      live.add(entry);
      total += entry.bytes;
      evict();
      emit({ type: 'entry', entry });
      return new EntryHandle(core, entry, (text) => {
        responseText = text;
      });
    },
    entries: (since = 0) => ring.filter((e) => e.seq > since),
    get: (n) => ring.find((e) => e.seq === n),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      ring = [];
      live.clear();
      total = 0;
      emit({ type: 'clear' });
    },
    get size() {
      return ring.length;
    },
    get bytes() {
      return total;
    },
  };
}
