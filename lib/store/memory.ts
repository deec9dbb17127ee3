/**
 * In-memory stores: the default for unit tests, MSW in a browser or test runner, and any host
 * without a filesystem. Pure TypeScript with no node:* imports. Records are deep-copied on the
 * way in and out so callers can never reach stored state by reference, which is what the SQLite
 * store gives for free; the shared contract suite holds both to the same behaviour.
 */
import {
  assertTaskRecord,
  decodeLedgerValue,
  executeForLedger,
  matchesTaskFilter,
  normalizeListLimit,
  resolveStoreOptions,
  taskExpiresAt,
} from './store-helpers';
import { createMemoryFaultStates, createMemoryJournalStore, createMemoryLeases } from './memory-fleet';
import type { LedgerOutcome, MutationLedger, ReplayStore, ReplayVerdict, StoreOptions, Stores, TaskListFilter, TaskRecord, TaskStore } from './types';

/** Throws once the owning {@link Stores} has been closed, mirroring a closed database. */
type OpenGuard = (action: string) => void;

/** A store plus the hook close() uses to drop its contents, kept off the public object. */
interface Owned<S> {
  store: S;
  reset(): void;
}

/** The task store and the map behind it, which the leases read. */
interface OwnedTasks extends Owned<TaskStore> {
  records: ReadonlyMap<string, TaskRecord>;
}

/** One map key per (scope, key) pair; JSON keeps pairs containing any separator unambiguous. */
function pairKey(scope: string, key: string): string {
  return JSON.stringify([scope, key]);
}

function createMemoryTaskStore(guard: OpenGuard): OwnedTasks {
  // Map iteration follows insertion order, and update() replaces in place, so ties on createdAt
  // list in creation order just like SQLite's rowid order.
  const tasks = new Map<string, TaskRecord>();

  const store: TaskStore = {
    async create(record) {
      guard('create task');
      assertTaskRecord(record, 'create task');
      if (tasks.has(record.taskId)) throw new Error(`Failed to create task: id ${record.taskId} already exists`);
      tasks.set(record.taskId, structuredClone(record));
    },
    async get(taskId) {
      guard('get task');
      const record = tasks.get(taskId);
      return record === undefined ? undefined : structuredClone(record);
    },
    async update(taskId, mutate) {
      guard('update task');
      const current = tasks.get(taskId);
      if (current === undefined) return undefined;
      const next = mutate(structuredClone(current));
      if (next === undefined) return structuredClone(current);
      if (next.taskId !== taskId) throw new Error(`Failed to update task ${taskId}: mutate changed the taskId`);
      // Copy before validating and storing: the caller may keep (and later mutate) `next`.
      const stored = { ...structuredClone(next), revision: current.revision + 1 };
      assertTaskRecord(stored, `update task ${taskId}`);
      tasks.set(taskId, stored);
      return structuredClone(stored);
    },
    async list(filter: TaskListFilter = {}) {
      guard('list tasks');
      const limit = normalizeListLimit(filter.limit);
      const matching = [...tasks.values()].filter((record) => matchesTaskFilter(record, filter)).sort((a, b) => a.createdAt - b.createdAt);
      return matching.slice(0, limit).map((record) => structuredClone(record));
    },
    async delete(taskId) {
      guard('delete task');
      return tasks.delete(taskId);
    },
    async purgeExpired(now) {
      guard('purge tasks');
      let purged = 0;
      for (const [taskId, record] of tasks) {
        const expiresAt = taskExpiresAt(record);
        if (expiresAt !== null && expiresAt < now) {
          tasks.delete(taskId);
          purged += 1;
        }
      }
      return purged;
    },
    async clear(scenarioId) {
      guard('clear tasks');
      let cleared = 0;
      for (const [taskId, record] of tasks) {
        if (scenarioId === undefined || record.scenarioId === scenarioId) {
          tasks.delete(taskId);
          cleared += 1;
        }
      }
      return cleared;
    },
    async count() {
      guard('count tasks');
      return tasks.size;
    },
  };
  return { store, records: tasks, reset: () => tasks.clear() };
}

interface LedgerEntry {
  scope: string;
  valueJson: string | null;
  executedAt: number;
}

function createMemoryLedger(guard: OpenGuard): Owned<MutationLedger> {
  const entries = new Map<string, LedgerEntry>();
  // A key whose execute() is still running: a re-entrant runOnce for it would execute twice.
  const running = new Set<string>();

  const store: MutationLedger = {
    async runOnce<T>(scope: string, key: string, execute: () => T, now: number): Promise<LedgerOutcome<T>> {
      guard('run mutation');
      const id = pairKey(scope, key);
      const existing = entries.get(id);
      if (existing !== undefined) {
        return { value: decodeLedgerValue(existing.valueJson) as T, executed: false, executedAt: existing.executedAt };
      }
      if (running.has(id)) throw new Error(`Failed to run mutation ${key}: re-entrant call for the same key`);
      running.add(id);
      let valueJson: string | null;
      try {
        // Nothing is recorded when execute throws, so a retry may execute again.
        valueJson = executeForLedger(key, execute);
      } finally {
        running.delete(id);
      }
      entries.set(id, { scope, valueJson, executedAt: now });
      return { value: decodeLedgerValue(valueJson) as T, executed: true, executedAt: now };
    },
    async executions(scope) {
      guard('count mutations');
      if (scope === undefined) return entries.size;
      let count = 0;
      for (const entry of entries.values()) if (entry.scope === scope) count += 1;
      return count;
    },
    async clear(scope) {
      guard('clear mutations');
      let cleared = 0;
      for (const [id, entry] of entries) {
        if (scope === undefined || entry.scope === scope) {
          entries.delete(id);
          cleared += 1;
        }
      }
      return cleared;
    },
  };
  return { store, reset: () => entries.clear() };
}

interface ReplayEntry {
  scope: string;
  expiresAt: number;
}

function createMemoryReplayStore(maxEntries: number, guard: OpenGuard): Owned<ReplayStore> {
  const entries = new Map<string, ReplayEntry>();

  const purge = (now: number): void => {
    for (const [id, entry] of entries) if (entry.expiresAt <= now) entries.delete(id);
  };

  const store: ReplayStore = {
    maxEntries,
    async consume(scope, nonce, expiresAt, now): Promise<ReplayVerdict> {
      guard('consume nonce');
      // Purging first bounds the map by maxEntries unexpired entries at all times.
      purge(now);
      const id = pairKey(scope, nonce);
      if (entries.has(id)) return 'replayed';
      if (entries.size >= maxEntries) return 'full';
      entries.set(id, { scope, expiresAt });
      return 'ok';
    },
    async has(scope, nonce, now) {
      guard('look up nonce');
      const entry = entries.get(pairKey(scope, nonce));
      return entry !== undefined && entry.expiresAt > now;
    },
    async size(now) {
      guard('count nonces');
      let size = 0;
      for (const entry of entries.values()) if (entry.expiresAt > now) size += 1;
      return size;
    },
    async clear(scope) {
      guard('clear nonces');
      let cleared = 0;
      for (const [id, entry] of entries) {
        if (scope === undefined || entry.scope === scope) {
          entries.delete(id);
          cleared += 1;
        }
      }
      return cleared;
    },
  };
  return { store, reset: () => entries.clear() };
}

/**
 * Create the three stores in memory. Nothing survives the process; use
 * `openSqliteStores` from `lib/store/sqlite/sqlite-stores` for durable storage on Node.
 */
export function createMemoryStores(options?: StoreOptions): Stores {
  const { replayMaxEntries } = resolveStoreOptions(options);
  let closed = false;
  const guard: OpenGuard = (action) => {
    if (closed) throw new Error(`Failed to ${action}: store is closed`);
  };
  const tasks = createMemoryTaskStore(guard);
  const ledger = createMemoryLedger(guard);
  const replay = createMemoryReplayStore(replayMaxEntries, guard);
  const faults = createMemoryFaultStates(guard);
  const journal = createMemoryJournalStore(guard);
  const leases = createMemoryLeases(tasks.records, guard);
  return {
    tasks: tasks.store,
    ledger: ledger.store,
    replay: replay.store,
    faults: faults.store,
    journal: journal.store,
    leases: leases.store,
    ...(options?.shared ? { shared: true } : {}),
    async close() {
      closed = true;
      for (const part of [tasks, ledger, replay, faults, journal, leases]) part.reset();
    },
  };
}
