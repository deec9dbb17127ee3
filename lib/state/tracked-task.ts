import type { InputRequests, TaskStatus } from '../protocol';
import { isTerminalStatus } from '../shared/task-status';
import type { ObservedTask } from '../client/task-api';
import type { TrackedTask } from './tasks-types';

/** What the views derive from a tracked task: pending input, visited statuses, cancel, cadence, expiry. */

/** Input requests the task waits on that were not answered yet. */
export function pendingInputRequests(record: TrackedTask): InputRequests {
  if (record.snapshot.status !== 'input_required' || !record.snapshot.inputRequests) return {};
  return Object.fromEntries(Object.entries(record.snapshot.inputRequests).filter(([k]) => !(k in record.answered)));
}

/** Every status the task has been in, in order of first visit. */
export function visitedStatuses(record: TrackedTask): TaskStatus[] {
  return [...new Set(record.history.map((h) => h.status))];
}

/** A cancel was requested and the task has not reached a terminal status yet. */
export function cancelPending(record: TrackedTask): boolean {
  return !!record.cancel && !isTerminalStatus(record.snapshot.status);
}

/** Intervals between the last polls (ms), most recent last. */
export function pollIntervals(record: TrackedTask, last = 10): number[] {
  const p = record.polls.slice(-last - 1);
  return p.slice(1).map((t, i) => t - p[i]!); // p[i] is the poll before t
}

/** When the server may purge the task (`createdAt + ttlMs`), or undefined for no TTL. */
export function expiresAt(snapshot: ObservedTask): number | undefined {
  if (snapshot.ttlMs === null || snapshot.ttlMs === undefined) return undefined;
  const created = Date.parse(snapshot.createdAt);
  return Number.isFinite(created) ? created + snapshot.ttlMs : undefined;
}
