import type { Clock } from './runtime';
import type { ExchangeHandle, ExchangeStart, ExchangeTap, StreamEnd } from './exchange-tap';
import { boundHeaders, boundPayload, DEFAULT_PAYLOAD_LIMITS, headerChars, type PayloadLimits } from './journal-bounds';
import { fitsLimits } from './journal-lazy';
import { EntryHandle, type HandleCore } from './journal-handle';
import { HeldEntry } from './journal-entry';

/**
 * The journal: every exchange the mock served, in arrival order, with what the report card
 * needs to grade the client (request headers and body as sent, status, the final response,
 * each SSE frame with its time). Over stdio an entry is one message from the client, with the
 * messages the server sent while answering it as frames, and no headers or status. An entry opens when the request arrives, so open listen
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

/**
 * One exchange. Fields below `status` are filled as the exchange progresses. The journal's own
 * entries are `HeldEntry` instances (journal-entry.ts) whose bodies are getters: copy one with
 * `entrySnapshot` or JSON, not a spread.
 */
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
  /** 'stdio' for a message that came over stdio (or in memory); absent over HTTP. */
  transport?: 'stdio';
  /** Request headers as received (lower-case names); empty over stdio, which has none. */
  requestHeaders: Record<string, string>;
  /** Parsed JSON body, or the raw text when it did not parse. */
  requestBody: unknown;
  /** HTTP status; undefined until the response starts, and always over stdio. */
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

/** Longest request header value kept whole. */
const HEADER_MAX = 4096;

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
  // Oldest first from `head`: eviction moves `head` (the slots before it are cleared and cut off
  // now and then) rather than shifting the array and keeping a set of the entries still held.
  let ring: (HeldEntry | undefined)[] = [];
  let head = 0;
  let seq = 0;
  let order = 0;
  let total = 0;

  const emit = (e: JournalEvent) => {
    for (const l of listeners) l(e);
  };
  const bound = (entry: HeldEntry, value: unknown): unknown => {
    const b = boundPayload(value, limits);
    if (b.truncated) entry.truncated = true;
    grow(entry, b.chars);
    return b.value;
  };
  const grow = (entry: HeldEntry, chars: number) => {
    entry.bytes += chars;
    if (entry.held) total += chars;
  };
  const evict = () => {
    while (ring.length - head > capacity || (total > maxBytes && ring.length - head > 1)) {
      const old = ring[head] as HeldEntry;
      ring[head++] = undefined;
      old.release();
      total -= old.bytes;
    }
    if (head > 1024 && head * 2 > ring.length) {
      ring = ring.slice(head);
      head = 0;
    }
  };
  const held = () => ring.slice(head) as HeldEntry[];

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
      let headers = start.requestHeaders;
      let chars = headerChars(headers, HEADER_MAX);
      if (chars < 0) {
        headers = boundHeaders(headers, HEADER_MAX);
        chars = headerChars(headers);
      }
      const entry = new HeldEntry(++seq, clock.now(), ++order, headers, chars + 200, limits);
      if (start.method !== undefined) entry.method = start.method;
      if (start.id !== undefined) entry.id = start.id;
      if (start.transport) entry.transport = start.transport;
      if (start.requestText !== undefined && fitsLimits(start.requestText, limits, start.requestDepth)) {
        entry.keepRequestText(start.requestText);
        entry.bytes += start.requestText.length;
      } else entry.requestBody = bound(entry, start.requestBody);
      ring.push(entry);
      entry.hold();
      total += entry.bytes;
      evict();
      emit({ type: 'entry', entry });
      return new EntryHandle(core, entry);
    },
    entries: (since = 0) => held().filter((e) => e.seq > since),
    get: (n) => held().find((e) => e.seq === n),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      for (let i = head; i < ring.length; i++) ring[i]?.release();
      ring = [];
      head = 0;
      total = 0;
      emit({ type: 'clear' });
    },
    get size() {
      return ring.length - head;
    },
    get bytes() {
      return total;
    },
  };
}
