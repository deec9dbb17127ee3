/**
 * TaskStore over `loupe_tasks`. A transition is a conditional write on the revision: read the row,
 * run `mutate`, `UPDATE … WHERE revision = <the one read>`; when another instance wrote in
 * between, no row matches and the whole read-mutate-write runs again on the newer record. No lock
 * is held while `mutate` runs, and two writers can never both apply a change to the same revision.
 */
import type { Pool } from 'pg';
import { ACTIVE_TASK_STATUSES, assertTaskRecord, normalizeListLimit, taskExpiresAt } from '../store-helpers';
import type { TaskListFilter, TaskRecord, TaskStore } from '../types';

/** Attempts before an update gives up under contention (each one lost to a concurrent writer). */
const MAX_UPDATE_ATTEMPTS = 100;

/** Channel a task's id is sent on after every write (listen fan-out across instances). */
export const TASK_CHANNEL = 'loupe_task_changed';

function fromJson(json: string, taskId: string): TaskRecord {
  try {
    return JSON.parse(json) as TaskRecord;
  } catch (error) {
    throw new Error(`Failed to read task ${taskId}: stored JSON is corrupt`, { cause: error });
  }
}

/** Bind values in column order: principal, scenario_id, status, created_at, ttl_ms, expires_at, revision, json. */
function columns(record: TaskRecord): unknown[] {
  return [
    record.principal,
    record.scenarioId,
    record.status,
    record.createdAt,
    record.ttlMs ?? null,
    taskExpiresAt(record),
    record.revision,
    JSON.stringify(record),
  ];
}

/** Create the PostgreSQL TaskStore over a migrated database. */
export function createPgTaskStore(pool: Pool, guard: (action: string) => void): TaskStore {
  const read = async (taskId: string): Promise<TaskRecord | undefined> => {
    const row = (await pool.query<{ json: string }>('SELECT json FROM loupe_tasks WHERE task_id = $1', [taskId])).rows[0];
    return row === undefined ? undefined : fromJson(row.json, taskId);
  };
  // Sent after the write commits (a separate statement), so a listener that reads the task sees the write.
  const notify = (taskId: string) => pool.query('SELECT pg_notify($1, $2)', [TASK_CHANNEL, taskId]).then(() => undefined);

  return {
    async create(record) {
      guard('create task');
      assertTaskRecord(record, 'create task');
      const inserted = await pool.query(
        `INSERT INTO loupe_tasks (task_id, principal, scenario_id, status, created_at, ttl_ms, expires_at, revision, json)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (task_id) DO NOTHING`,
        [record.taskId, ...columns(record)],
      );
      if (inserted.rowCount === 0) throw new Error(`Failed to create task: id ${record.taskId} already exists`);
      await notify(record.taskId);
    },
    async get(taskId) {
      guard('get task');
      return read(taskId);
    },
    async update(taskId, mutate) {
      guard('update task');
      for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt += 1) {
        const current = await read(taskId);
        if (current === undefined) return undefined;
        const next = mutate(structuredClone(current));
        if (next === undefined) return current;
        if (next.taskId !== taskId) throw new Error(`Failed to update task ${taskId}: mutate changed the taskId`);
        const stored = { ...next, revision: current.revision + 1 };
        assertTaskRecord(stored, `update task ${taskId}`);
        const written = await pool.query(
          `UPDATE loupe_tasks SET principal = $2, scenario_id = $3, status = $4, created_at = $5, ttl_ms = $6,
             expires_at = $7, revision = $8, json = $9
           WHERE task_id = $1 AND revision = $10`,
          [taskId, ...columns(stored), current.revision],
        );
        if (written.rowCount === 1) {
          await notify(taskId);
          return fromJson(JSON.stringify(stored), taskId);
        }
      }
      throw new Error(`Failed to update task ${taskId}: ${MAX_UPDATE_ATTEMPTS} concurrent writers won in a row`);
    },
    async list(filter: TaskListFilter = {}) {
      guard('list tasks');
      const limit = normalizeListLimit(filter.limit);
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.principal !== undefined) where.push(`principal = $${params.push(filter.principal)}`);
      if (filter.scenarioId !== undefined) where.push(`scenario_id = $${params.push(filter.scenarioId)}`);
      if (filter.activeOnly) where.push(`status = ANY($${params.push([...ACTIVE_TASK_STATUSES])})`);
      const limitSql = limit === undefined ? '' : ` LIMIT $${params.push(limit)}`;
      const rows = await pool.query<{ task_id: string; json: string }>(
        `SELECT task_id, json FROM loupe_tasks ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, seq${limitSql}`,
        params,
      );
      return rows.rows.map((row) => fromJson(row.json, row.task_id));
    },
    async delete(taskId) {
      guard('delete task');
      return ((await pool.query('DELETE FROM loupe_tasks WHERE task_id = $1', [taskId])).rowCount ?? 0) > 0;
    },
    async purgeExpired(now) {
      guard('purge tasks');
      return (await pool.query('DELETE FROM loupe_tasks WHERE expires_at IS NOT NULL AND expires_at < $1', [now])).rowCount ?? 0;
    },
    async clear(scenarioId) {
      guard('clear tasks');
      const result =
        scenarioId === undefined
          ? await pool.query('DELETE FROM loupe_tasks')
          : await pool.query('DELETE FROM loupe_tasks WHERE scenario_id = $1', [scenarioId]);
      return result.rowCount ?? 0;
    },
    async count() {
      guard('count tasks');
      return (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM loupe_tasks')).rows[0]?.n ?? 0;
    },
  };
}
