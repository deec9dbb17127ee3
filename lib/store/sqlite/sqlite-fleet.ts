/**
 * Fault counters, the journal and task leases over SQLite. A fault step runs in an immediate
 * transaction (the write lock is taken before the read), so processes sharing the file step the
 * counters one after another; the leases are columns of `tasks`, so a lease goes with its task.
 */
import { ACTIVE_TASK_STATUSES } from '../store-helpers';
import type { FaultCounter, FaultStateStore, JournalStore, TaskLeases } from '../types';
import type { SqliteDatabase } from './connection';

const ACTIVE_SQL = ACTIVE_TASK_STATUSES.map((s) => `'${s}'`).join(', ');

/** Create the SQLite FaultStateStore over an open, migrated connection. */
export function createSqliteFaultStates(db: SqliteDatabase): FaultStateStore {
  const read = db.prepare<[string, string], { count: number; prng: number }>('SELECT count, prng FROM fault_counters WHERE scope = ? AND fault_key = ?');
  const write = db.prepare(
    'INSERT INTO fault_counters (scope, fault_key, count, prng) VALUES (?, ?, ?, ?) ON CONFLICT (scope, fault_key) DO UPDATE SET count = excluded.count, prng = excluded.prng',
  );
  return {
    async step(scope, keys, initial, step) {
      const run = db.transaction(() => {
        const rows = keys.map((key, i): FaultCounter => {
          const found = read.get(scope, key);
          return found ? { count: found.count, prng: found.prng } : { count: 0, prng: (initial[i] ?? 0) >>> 0 };
        });
        const value = step(rows);
        for (const [i, row] of rows.entries()) write.run(scope, keys[i], row.count, row.prng >>> 0);
        return value;
      });
      return run.immediate();
    },
    async clear(scope) {
      return (scope === undefined ? db.prepare('DELETE FROM fault_counters').run() : db.prepare('DELETE FROM fault_counters WHERE scope = ?').run(scope))
        .changes;
    },
  };
}

/** Create the SQLite JournalStore. */
export function createSqliteJournalStore(db: SqliteDatabase): JournalStore {
  const insert = db.prepare('INSERT INTO journal (scope, instance, json) VALUES (?, ?, ?)');
  const trim = db.prepare('DELETE FROM journal WHERE scope = ? AND seq <= (SELECT seq FROM journal WHERE scope = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)');
  const newest = db.prepare<[string, number, number], { seq: number; instance: string; json: string }>(
    'SELECT seq, instance, json FROM (SELECT seq, instance, json FROM journal WHERE scope = ? AND seq > ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
  );
  return {
    async append(scope, instance, entry, maxEntries) {
      db.transaction(() => {
        insert.run(scope, instance, JSON.stringify(entry));
        trim.run(scope, scope, maxEntries);
      }).immediate();
    },
    async list(scope, limit, afterSeq = 0) {
      return newest.all(scope, afterSeq, limit).map((row) => ({ seq: row.seq, instance: row.instance, entry: JSON.parse(row.json) as unknown }));
    },
    async clear(scope) {
      return (scope === undefined ? db.prepare('DELETE FROM journal').run() : db.prepare('DELETE FROM journal WHERE scope = ?').run(scope)).changes;
    },
  };
}

/** Create the SQLite TaskLeases over the lease columns of `tasks`. */
export function createSqliteLeases(db: SqliteDatabase): TaskLeases {
  const claim = db.prepare(
    'UPDATE tasks SET lease_owner = ?, lease_until = ? WHERE task_id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)',
  );
  const renew = db.prepare(`UPDATE tasks SET lease_until = ? WHERE lease_owner = ? AND status IN (${ACTIVE_SQL})`);
  const orphans = db
    .prepare<[string, number, number], string>(
      `SELECT task_id FROM tasks WHERE scenario_id = ? AND status IN (${ACTIVE_SQL}) AND (lease_owner IS NULL OR lease_until < ?) ORDER BY created_at, rowid LIMIT ?`,
    )
    .pluck();
  const holder = db.prepare<[string], { owner: string | null; until: number | null }>(
    'SELECT lease_owner AS owner, lease_until AS until FROM tasks WHERE task_id = ?',
  );
  const release = db.prepare('UPDATE tasks SET lease_owner = NULL, lease_until = NULL WHERE task_id = ? AND lease_owner = ?');
  return {
    async claim(taskId, owner, until, now) {
      return claim.run(owner, until, taskId, owner, now).changes > 0;
    },
    async renew(owner, until) {
      return renew.run(until, owner).changes;
    },
    async orphans(scenarioId, now, limit) {
      return orphans.all(scenarioId, now, limit);
    },
    async holder(taskId) {
      const row = holder.get(taskId);
      return row?.owner == null || row.until == null ? undefined : { owner: row.owner, until: row.until };
    },
    async release(taskId, owner) {
      release.run(taskId, owner);
    },
  };
}
