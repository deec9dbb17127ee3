import { ERROR } from '../protocol';
import type { Clock } from './runtime';
import { fail, type Outcome } from './context';
import type { InstanceFault } from './faults';
import type { HttpOutput } from './http-types';

/**
 * Faults of the instance (this process's engine) rather than of one request: `instance-down`
 * cuts or refuses every request for a window, `instance-skew` answers tasks/get from a stale view
 * for a window. A window opens when the fault fires on a request this instance received (the
 * counters may be the fleet's), and each instance keeps its own, as a real fleet would fail.
 */

/** Snapshots kept for the stale view: the last tasks/get answer this instance gave per task. */
const SERVED_LIMIT = 1_000;

/** The instance's fault windows. */
export interface InstanceFaults {
  /** Open the fault's window from now. */
  open(fault: InstanceFault): void;
  /** While down: what every request gets instead of being served. */
  downAnswer(): HttpOutput | undefined;
  /** A tasks/get answer as this instance gives it: while skewed, the one it last served or not found. */
  taskView(taskId: string, outcome: Outcome): Outcome;
}

/** The instance faults of a scenario, or undefined when it declares none (nothing to keep). */
export function createInstanceFaults(kinds: readonly string[], clock: Clock, notFound: string): InstanceFaults | undefined {
  if (!kinds.some((kind) => kind === 'instance-down' || kind === 'instance-skew')) return undefined;
  let downUntil = 0;
  let downStatus: number | undefined;
  let skewUntil = 0;
  // Insertion order is recency: a served answer is re-inserted, the oldest goes first.
  const served = new Map<string, Outcome>();

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
    taskView(taskId, outcome) {
      if (clock.now() < skewUntil) return served.get(taskId) ?? fail(ERROR.invalidParams, notFound);
      if ('result' in outcome) {
        served.delete(taskId);
        served.set(taskId, outcome);
        if (served.size > SERVED_LIMIT) served.delete(served.keys().next().value!);
      }
      return outcome;
    },
  };
}
