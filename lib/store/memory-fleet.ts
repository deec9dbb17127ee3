/**
 * In-memory fault counters, journal and task leases: what a fleet shares in PostgreSQL, kept
 * here with the same behaviour so the contract suite holds every backend to it, and so engines
 * sharing one memory store in a test behave like a fleet.
 */
import { ACTIVE_TASK_STATUSES } from './store-helpers';
import type { FaultCounter, FaultStateStore, JournalStore, StoredJournalEntry, TaskLeases, TaskRecord } from './types';

type OpenGuard = (action: string) => void;

/** One map key per (scope, key) pair. */
function pairKey(scope: string, key: string): string {
  return JSON.stringify([scope, key]);
}

/** A store plus the hook close() uses to drop its contents. */
interface Owned<S> {
  store: S;
  reset(): void;
}

/** Fault counters in a map; a step runs synchronously, so it is atomic by construction. */
export function createMemoryFaultStates(guard: OpenGuard): Owned<FaultStateStore> {
  const counters = new Map<string, FaultCounter & { scope: string }>();
  const store: FaultStateStore = {
    async step(scope, keys, initial, step) {
      guard('step fault counters');
      const rows = keys.map((key, i) => {
        const found = counters.get(pairKey(scope, key));
        return found ? { count: found.count, prng: found.prng } : { count: 0, prng: (initial[i] ?? 0) >>> 0 };
      });
      const value = step(rows);
      for (const [i, row] of rows.entries()) counters.set(pairKey(scope, keys[i]!), { scope, count: row.count, prng: row.prng >>> 0 });
      return value;
    },
    async clear(scope) {
      guard('clear fault counters');
      let cleared = 0;
      for (const [id, row] of counters) {
        if (scope === undefined || row.scope === scope) {
          counters.delete(id);
          cleared += 1;
        }
      }
      return cleared;
    },
  };
  return { store, reset: () => counters.clear() };
}

/** Finished journal entries per scope, JSON text so nothing is shared by reference. */
export function createMemoryJournalStore(guard: OpenGuard): Owned<JournalStore> {
  const scopes = new Map<string, { seq: number; instance: string; json: string }[]>();
  let seq = 0;
  const store: JournalStore = {
    async append(scope, instance, entry, maxEntries) {
      guard('append journal entry');
      const list = scopes.get(scope) ?? [];
      list.push({ seq: ++seq, instance, json: JSON.stringify(entry) });
      if (list.length > maxEntries) list.splice(0, list.length - maxEntries);
      scopes.set(scope, list);
    },
    async list(scope, limit, afterSeq = 0) {
      guard('list journal entries');
      const list = (scopes.get(scope) ?? []).filter((row) => row.seq > afterSeq);
      return list
        .slice(Math.max(0, list.length - limit))
        .map((row): StoredJournalEntry => ({ seq: row.seq, instance: row.instance, entry: JSON.parse(row.json) }));
    },
    async clear(scope) {
      guard('clear journal');
      let cleared = 0;
      for (const [key, list] of scopes) {
        if (scope === undefined || key === scope) {
          cleared += list.length;
          scopes.delete(key);
        }
      }
      return cleared;
    },
  };
  return { store, reset: () => scopes.clear() };
}

/** Leases beside the task map; a lease goes with its task. */
export function createMemoryLeases(tasks: ReadonlyMap<string, TaskRecord>, guard: OpenGuard): Owned<TaskLeases> {
  const leases = new Map<string, { owner: string; until: number }>();
  const live = (taskId: string) => {
    const lease = leases.get(taskId);
    if (lease && !tasks.has(taskId)) leases.delete(taskId);
    return tasks.has(taskId) ? lease : undefined;
  };
  const active = (taskId: string) => {
    const status = tasks.get(taskId)?.status;
    return status !== undefined && ACTIVE_TASK_STATUSES.includes(status);
  };
  const store: TaskLeases = {
    async claim(taskId, owner, until, now) {
      guard('claim task lease');
      if (!tasks.has(taskId)) return false;
      const lease = live(taskId);
      if (lease && lease.owner !== owner && lease.until >= now) return false;
      leases.set(taskId, { owner, until });
      return true;
    },
    async renew(owner, until) {
      guard('renew task leases');
      let renewed = 0;
      for (const [taskId, lease] of leases) {
        if (lease.owner !== owner || !live(taskId) || !active(taskId)) continue;
        lease.until = until;
        renewed += 1;
      }
      return renewed;
    },
    async orphans(scenarioId, now, limit) {
      guard('find orphaned tasks');
      const found: TaskRecord[] = [];
      for (const record of tasks.values()) {
        if (record.scenarioId !== scenarioId || !active(record.taskId)) continue;
        const lease = live(record.taskId);
        if (lease === undefined || lease.until < now) found.push(record);
      }
      return found
        .sort((a, b) => a.createdAt - b.createdAt)
        .slice(0, limit)
        .map((record) => record.taskId);
    },
    async holder(taskId) {
      guard('read task lease');
      const lease = live(taskId);
      return lease ? { ...lease } : undefined;
    },
    async release(taskId, owner) {
      guard('release task lease');
      if (leases.get(taskId)?.owner === owner) leases.delete(taskId);
    },
  };
  return { store, reset: () => leases.clear() };
}
