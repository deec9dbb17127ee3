/**
 * Fault counters, the journal and task leases over PostgreSQL, shared by every instance. A fault
 * step locks its counters' rows (`SELECT … FOR UPDATE`, in key order) for its transaction, so
 * steps on one fault from any instance run one after another and `nth: 2` is the fleet's second
 * matching request. A lease is a conditional write on the task's row: taken only when free,
 * lapsed or already the caller's.
 */
import type { Pool } from 'pg';
import { ACTIVE_TASK_STATUSES } from '../store-helpers';
import type { FaultCounter, FaultStateStore, JournalStore, TaskLeases } from '../types';
import { inTransaction } from './schema';

type Guard = (action: string) => void;

const ACTIVE = [...ACTIVE_TASK_STATUSES];

/** Create the PostgreSQL FaultStateStore. */
export function createPgFaultStates(pool: Pool, guard: Guard): FaultStateStore {
  return {
    async step(scope, keys, initial, step) {
      guard('step fault counters');
      return inTransaction(pool, async (client) => {
        // Rows must exist to be locked; a row another transaction is inserting makes this wait for it.
        await client.query(
          `INSERT INTO loupe_fault_counters (scope, fault_key, count, prng)
           SELECT $1, k, 0, p FROM unnest($2::text[], $3::bigint[]) AS t(k, p) ON CONFLICT DO NOTHING`,
          [scope, keys, keys.map((_, i) => (initial[i] ?? 0) >>> 0)],
        );
        const locked = await client.query<{ fault_key: string; count: number; prng: number }>(
          'SELECT fault_key, count::float8 AS count, prng::float8 AS prng FROM loupe_fault_counters WHERE scope = $1 AND fault_key = ANY($2) ORDER BY fault_key FOR UPDATE',
          [scope, keys],
        );
        const byKey = new Map(locked.rows.map((row) => [row.fault_key, row]));
        const rows = keys.map((key, i): FaultCounter => {
          const row = byKey.get(key);
          return row ? { count: row.count, prng: row.prng } : { count: 0, prng: (initial[i] ?? 0) >>> 0 };
        });
        const value = step(rows);
        await client.query(
          `UPDATE loupe_fault_counters AS f SET count = t.c, prng = t.p
           FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS t(k, c, p) WHERE f.scope = $1 AND f.fault_key = t.k`,
          [scope, keys, rows.map((r) => r.count), rows.map((r) => r.prng >>> 0)],
        );
        return value;
      });
    },
    async clear(scope) {
      guard('clear fault counters');
      const result =
        scope === undefined
          ? await pool.query('DELETE FROM loupe_fault_counters')
          : await pool.query('DELETE FROM loupe_fault_counters WHERE scope = $1', [scope]);
      return result.rowCount ?? 0;
    },
  };
}

/** One append waiting for the next batch. */
interface PendingAppend {
  scope: string;
  instance: string;
  json: string;
  maxEntries: number;
  done: (error?: unknown) => void;
}

/**
 * Create the PostgreSQL JournalStore. Every exchange of every instance is appended, so appends
 * are batched: those made while a batch is being written go together in the next one (one
 * multi-row INSERT, one trim per scope), which keeps the cost per request small under load.
 */
export function createPgJournalStore(pool: Pool, guard: Guard): JournalStore {
  let queue: PendingAppend[] = [];
  let writing = false;
  const write = async (batch: PendingAppend[]) => {
    await pool.query(
      'INSERT INTO loupe_journal (scope, instance, json) SELECT s, i, j FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(s, i, j, n) ORDER BY n',
      [batch.map((a) => a.scope), batch.map((a) => a.instance), batch.map((a) => a.json)],
    );
    const bounds = new Map<string, number>();
    for (const a of batch) bounds.set(a.scope, Math.min(bounds.get(a.scope) ?? a.maxEntries, a.maxEntries));
    for (const [scope, maxEntries] of bounds) {
      await pool.query(
        'DELETE FROM loupe_journal WHERE scope = $1 AND seq <= (SELECT seq FROM loupe_journal WHERE scope = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)',
        [scope, maxEntries],
      );
    }
  };
  const drain = async () => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await write(batch);
        for (const a of batch) a.done();
      } catch (error) {
        for (const a of batch) a.done(error);
      }
    }
    writing = false;
  };
  return {
    append(scope, instance, entry, maxEntries) {
      guard('append journal entry');
      return new Promise<void>((resolve, reject) => {
        queue.push({ scope, instance, json: JSON.stringify(entry), maxEntries, done: (error) => (error === undefined ? resolve() : reject(error)) });
        if (!writing) void drain();
      });
    },
    async list(scope, limit, afterSeq = 0) {
      guard('list journal entries');
      const rows = await pool.query<{ seq: number; instance: string; json: string }>(
        'SELECT seq::float8 AS seq, instance, json FROM (SELECT seq, instance, json FROM loupe_journal WHERE scope = $1 AND seq > $3 ORDER BY seq DESC LIMIT $2) AS newest ORDER BY seq',
        [scope, limit, afterSeq],
      );
      return rows.rows.map((row) => ({ seq: row.seq, instance: row.instance, entry: JSON.parse(row.json) as unknown }));
    },
    async clear(scope) {
      guard('clear journal');
      const result =
        scope === undefined ? await pool.query('DELETE FROM loupe_journal') : await pool.query('DELETE FROM loupe_journal WHERE scope = $1', [scope]);
      return result.rowCount ?? 0;
    },
  };
}

/** Create the PostgreSQL TaskLeases over the lease columns of `loupe_tasks`. */
export function createPgLeases(pool: Pool, guard: Guard): TaskLeases {
  return {
    async claim(taskId, owner, until, now) {
      guard('claim task lease');
      const result = await pool.query(
        'UPDATE loupe_tasks SET lease_owner = $2, lease_until = $3 WHERE task_id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < $4)',
        [taskId, owner, until, now],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async renew(owner, until) {
      guard('renew task leases');
      return (await pool.query('UPDATE loupe_tasks SET lease_until = $2 WHERE lease_owner = $1 AND status = ANY($3)', [owner, until, ACTIVE])).rowCount ?? 0;
    },
    async orphans(scenarioId, now, limit) {
      guard('find orphaned tasks');
      const rows = await pool.query<{ task_id: string }>(
        `SELECT task_id FROM loupe_tasks WHERE scenario_id = $1 AND status = ANY($2) AND (lease_owner IS NULL OR lease_until < $3)
         ORDER BY created_at, seq LIMIT $4`,
        [scenarioId, ACTIVE, now, limit],
      );
      return rows.rows.map((row) => row.task_id);
    },
    async holder(taskId) {
      guard('read task lease');
      const row = (
        await pool.query<{ owner: string | null; until: number | null }>(
          'SELECT lease_owner AS owner, lease_until::float8 AS until FROM loupe_tasks WHERE task_id = $1',
          [taskId],
        )
      ).rows[0];
      return row?.owner == null || row.until == null ? undefined : { owner: row.owner, until: row.until };
    },
    async release(taskId, owner) {
      guard('release task lease');
      await pool.query('UPDATE loupe_tasks SET lease_owner = NULL, lease_until = NULL WHERE task_id = $1 AND lease_owner = $2', [taskId, owner]);
    },
  };
}
