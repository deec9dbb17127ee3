import type { TaskSpec } from '../scenario/task-schema';
import type { TaskRecord } from '../store/types';
import type { EngineCore } from './context';
import { createLeaseKeeper } from './task-leases';
import { isTerminal, nextDue } from './task-script';

/** How long a task timer waits before trying a step again after its store failed to write. */
const STORE_RETRY_MS = 2_000;
/** How long a fleet instance's lease on a task lasts without renewal. */
const DEFAULT_LEASE_MS = 3_000;

/**
 * The timers that run tasks' timed steps on the engine's clock, one per task at most. With a
 * shared store (a fleet) only the instance holding a task's lease arms its timer.
 */
interface TaskTimers {
  /** (Re)arm the task's timer for its next due step, or disarm it when nothing is due. */
  schedule(rec: TaskRecord): void;
  has(taskId: string): boolean;
  /** Whether this instance holds the task's lease (it must hear the fleet's writes of it to re-arm). */
  leads(taskId: string): boolean;
  cancel(taskId: string): void;
  /** The task is gone: no timer, no lease remembered. */
  forget(taskId: string): void;
  close(): void;
}

/**
 * `advance(taskId)` runs the due step (a write through the store) and resolves when it is written;
 * a failed write is tried again after {@link STORE_RETRY_MS}, until close().
 */
export function createTaskTimers(
  core: EngineCore,
  specOf: (rec: TaskRecord) => TaskSpec | undefined,
  maxRun: () => number,
  advance: (taskId: string) => Promise<unknown>,
): TaskTimers {
  const timers = new Map<string, unknown>();
  // The tasks whose lease this instance last claimed successfully, until they end or are evicted.
  const leased = new Set<string>();
  // Set by close(): a step failing after it (its store closed) is not retried.
  let closed = false;

  const cancel = (taskId: string) => {
    const old = timers.get(taskId);
    if (old !== undefined) core.clock.clearTimeout(old);
    timers.delete(taskId);
  };

  /** Run a task's due step from its timer. */
  function fire(taskId: string) {
    timers.delete(taskId);
    // A store that cannot write (a full disk, an I/O error, a lost connection, a store closed at
    // shutdown) fails this step, never the process: the task stays as stored, a poll meanwhile gets
    // the error, and the step is tried again.
    advance(taskId).catch((e: unknown) => {
      core.emit('task:store-error', { taskId, error: e instanceof Error ? e.message : String(e) });
      if (!closed && !timers.has(taskId))
        timers.set(
          taskId,
          core.clock.setTimeout(() => fire(taskId), STORE_RETRY_MS),
        );
    });
  }

  /** (Re)arm the task's timer for its next due step, or disarm it when nothing is due. */
  function schedule(rec: TaskRecord) {
    cancel(rec.taskId);
    if (isTerminal(rec)) leased.delete(rec.taskId);
    const spec = specOf(rec);
    if (!spec) return;
    const due = nextDue(rec, spec, maxRun(), core.clock.now());
    if (due === undefined || !Number.isFinite(due)) return;
    if (!keeper) return arm(rec.taskId, due);
    // In a fleet only the instance holding the task's lease runs its timer; when that instance
    // dies, its lease lapses and another one adopts the task (task-leases.ts).
    keeper.hold(rec.taskId).then(
      (mine) => {
        if (mine && !isTerminal(rec)) leased.add(rec.taskId);
        else leased.delete(rec.taskId);
        if (mine && !closed) arm(rec.taskId, due);
      },
      (e: unknown) => core.emit('task:store-error', { taskId: rec.taskId, error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /** Set the task's timer for its step due at `due` (one function, so memory and SQLite allocate no closure per change). */
  function arm(taskId: string, due: number) {
    cancel(taskId);
    const delay = Math.max(0, due - core.clock.now());
    timers.set(
      taskId,
      core.clock.setTimeout(() => fire(taskId), delay + 1),
    );
  }

  const keeper =
    core.stores.shared && core.instanceId !== undefined
      ? createLeaseKeeper({
          leases: core.stores.leases,
          clock: core.clock,
          owner: core.instanceId,
          scenarioId: core.scenario.id,
          leaseMs: core.leaseMs ?? DEFAULT_LEASE_MS,
          adopt: (taskId) =>
            void core.stores.tasks.get(taskId).then(
              (rec) => rec && !closed && schedule(rec),
              () => {},
            ),
          onError: (e) => core.emit('task:store-error', { error: e instanceof Error ? e.message : String(e) }),
        })
      : undefined;

  return {
    schedule,
    has: (taskId) => timers.has(taskId),
    leads: (taskId) => leased.has(taskId),
    cancel,
    forget(taskId) {
      cancel(taskId);
      leased.delete(taskId);
    },
    close() {
      closed = true;
      keeper?.close();
      leased.clear();
      for (const t of timers.values()) core.clock.clearTimeout(t);
      timers.clear();
    },
  };
}
