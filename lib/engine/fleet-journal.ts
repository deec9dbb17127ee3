import { isRecord } from '../shared/records';
import type { StoredJournalEntry } from '../store/types';
import type { JournalEntry } from './journal';

/**
 * One journal out of every instance's finished exchanges, for a report card that grades the
 * fleet's traffic and a journal view that shows it. Each instance numbers its own entries and
 * events, so the merged journal renumbers them: an entry's `seq` is the store's (one counter for
 * the fleet, rising as exchanges finish, so a reader can ask for what came after the last one it
 * saw), and events (`order`) go in time order, an instance's own order breaking ties within it,
 * the instance id between instances. Entries come out in the order they began. Rows that do not
 * look like entries are skipped.
 */

/** A journal entry of the fleet: which instance served it rides along. */
export type FleetJournalEntry = JournalEntry & { instance: string };

interface Event {
  at: number;
  instance: string;
  order: number;
  set: (order: number) => void;
}

function looksLikeEntry(value: unknown): value is JournalEntry {
  return isRecord(value) && typeof value.at === 'number' && typeof value.order === 'number' && Array.isArray(value.frames) && isRecord(value.requestHeaders);
}

/** Merge the stored entries of a fleet into one journal, renumbered. */
export function mergeFleetJournal(rows: readonly StoredJournalEntry[]): FleetJournalEntry[] {
  const entries: FleetJournalEntry[] = [];
  const events: Event[] = [];
  for (const row of rows) {
    if (!looksLikeEntry(row.entry)) continue;
    const entry: FleetJournalEntry = Object.assign(row.entry, { seq: row.seq, instance: row.instance });
    entries.push(entry);
    events.push({ at: entry.at, instance: row.instance, order: entry.order, set: (n) => (entry.order = n) });
    for (const frame of entry.frames) {
      if (isRecord(frame) && typeof frame.at === 'number' && typeof frame.order === 'number')
        events.push({ at: frame.at, instance: row.instance, order: frame.order, set: (n) => (frame.order = n) });
    }
    if (typeof entry.endOrder === 'number')
      events.push({ at: entry.endedAt ?? entry.at, instance: row.instance, order: entry.endOrder, set: (n) => (entry.endOrder = n) });
  }
  const rank = (a: Event, b: Event) => (a.at !== b.at ? a.at - b.at : a.instance !== b.instance ? (a.instance < b.instance ? -1 : 1) : a.order - b.order);
  events.sort(rank);
  for (const [i, event] of events.entries()) event.set(i + 1);
  return entries.sort((a, b) => a.order - b.order);
}
