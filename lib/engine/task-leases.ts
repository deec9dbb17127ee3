import type { TaskLeases } from '../store/types';
import type { Clock } from './runtime';

/**
 * Who runs a task's timed steps in a fleet: the instance holding its lease (tasks.ts arms a timer
 * only then). The keeper renews this instance's leases every third of their length and, on the
 * same beat, adopts the scenario's active tasks whose lease lapsed (their owner died without
 * finishing them): each is handed to `adopt`, which schedules it and so claims it.
 */

/** How many orphans one beat adopts; the rest wait for the next beat. */
const ADOPT_PER_BEAT = 50;

/** Options of {@link createLeaseKeeper}. */
interface LeaseKeeperOptions {
  leases: TaskLeases;
  clock: Clock;
  /** This instance's id, the owner written on its leases. */
  owner: string;
  scenarioId: string;
  /** How long a lease lasts without renewal. */
  leaseMs: number;
  adopt(taskId: string): void;
  onError(error: unknown): void;
}

/** This instance's hold on its tasks. */
interface LeaseKeeper {
  /** Claim (or keep) the task's lease; true when this instance runs its timed steps. */
  hold(taskId: string): Promise<boolean>;
  close(): void;
}

/** Start keeping this instance's leases. */
export function createLeaseKeeper(options: LeaseKeeperOptions): LeaseKeeper {
  const { leases, clock, owner, leaseMs } = options;
  let closed = false;
  let timer: unknown;
  // Tasks another instance holds, and until when not to ask again: a poll here must not cost a
  // refused claim each time. A lapsed lease is found by the beat, which forgets the refusal.
  const refused = new Map<string, number>();
  const beat = async () => {
    const now = clock.now();
    await leases.renew(owner, now + leaseMs);
    for (const [taskId, until] of refused) if (until <= now) refused.delete(taskId);
    for (const taskId of await leases.orphans(options.scenarioId, now, ADOPT_PER_BEAT)) {
      refused.delete(taskId);
      options.adopt(taskId);
    }
  };
  const loop = () => {
    timer = clock.setTimeout(
      () =>
        void beat()
          .catch(options.onError)
          .finally(() => {
            if (!closed) loop();
          }),
      Math.max(1, Math.floor(leaseMs / 3)),
    );
  };
  loop();
  return {
    async hold(taskId) {
      const now = clock.now();
      if ((refused.get(taskId) ?? 0) > now) return false;
      const mine = await leases.claim(taskId, owner, now + leaseMs, now);
      if (!mine) refused.set(taskId, now + leaseMs);
      return mine;
    },
    close() {
      closed = true;
      clock.clearTimeout(timer);
    },
  };
}
