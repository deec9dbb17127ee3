import type { TaskRecord } from '../store/types';
import type { Clock } from './runtime';
import type { InstanceFault } from './faults';
import type { HttpOutput } from './http-types';

/**
 * Faults of the instance (this process's engine) rather than of one request: `instance-down`
 * cuts or refuses every request for a window, `instance-skew` makes the instance a read replica
 * that lags for a window. A window opens when the fault fires on a request this instance received
 * (the counters may be the fleet's), and each instance keeps its own, as a real fleet would fail.
 *
 * A lagging replica answers reads from what it had seen when it fell behind: a task it served
 * before shows its old state, a newer one is not found. So every read a client makes of a task
 * goes through `replicaView` (tasks/get; 2025-11-25's tasks/result and tasks/list; a listen
 * stream's first snapshot). Writes go to the primary as ever (tasks/update and tasks/cancel, task
 * creation, the idempotency ledger, whose claim is one atomic write: a replica never decides that
 * a key is new), and notifications of changes still come from the primary's fan-out.
 */

/** Tasks remembered for the stale view: the last state of each this instance served. */
const SERVED_LIMIT = 1_000;

/** The instance's fault windows. */
export interface InstanceFaults {
  /** Open the fault's window from now. */
  open(fault: InstanceFault): void;
  /** While down: what every request gets instead of being served. */
  downAnswer(): HttpOutput | undefined;
  /** A task as this instance shows it: while skewed, as it last served it (undefined: never, so not found); else `rec`, remembered. */
  replicaView(taskId: string, rec: TaskRecord | undefined): TaskRecord | undefined;
}

/** The instance faults of a scenario, or undefined when it declares none (nothing to keep). */
export function createInstanceFaults(kinds: readonly string[], clock: Clock): InstanceFaults | undefined {
  if (!kinds.some((kind) => kind === 'instance-down' || kind === 'instance-skew')) return undefined;
  let downUntil = 0;
  let downStatus: number | undefined;
  let skewUntil = 0;
  // Insertion order is recency: a served answer is re-inserted, the oldest goes first.
  const served = new Map<string, TaskRecord>();

  return {
    open(fault) {
      const until = clock.now() + fault.ms;
      if (fault.kind === 'instance-skew') skewUntil = Math.max(skewUntil, until);
      else {
        downUntil = Math.max(downUntil, until);
        downStatus = fault.status;
      }
    },
    downAnswer(): HttpOutput | undefined {
      const left = downUntil - clock.now();
      if (left <= 0) return undefined;
      if (downStatus === undefined) return { status: 0, headers: {}, reset: true };
      return { status: downStatus, headers: { 'Content-Type': 'text/plain', 'Retry-After': String(Math.ceil(left / 1000)) }, body: 'Instance unavailable' };
    },
    replicaView(taskId, rec) {
      if (clock.now() < skewUntil) return served.get(taskId);
      if (rec) {
        served.delete(taskId);
        served.set(taskId, rec);
        if (served.size > SERVED_LIMIT) served.delete(served.keys().next().value!);
      }
      return rec;
    },
  };
}
