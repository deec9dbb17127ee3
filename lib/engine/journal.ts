import type { Clock } from './runtime';
import type { ExchangeRecord } from './http';

/** One journal entry: an exchange with a sequence number. */
export interface JournalEntry extends ExchangeRecord {
  seq: number;
}

/** Bounded journal of every request the mock received and what it answered. */
export interface Journal {
  add(entry: ExchangeRecord): JournalEntry;
  entries(sinceSeq?: number): JournalEntry[];
  clear(): void;
  readonly size: number;
}

export function createJournal(capacity: number, clock: Clock): Journal {
  let ring: JournalEntry[] = [];
  let seq = 0;
  return {
    add(entry) {
      const e = { ...entry, at: clock.now(), seq: ++seq };
      ring.push(e);
      if (ring.length > capacity) ring = ring.slice(ring.length - capacity);
      return e;
    },
    entries: (since = 0) => ring.filter((e) => e.seq > since),
    clear() {
      ring = [];
    },
    get size() {
      return ring.length;
    },
  };
}
