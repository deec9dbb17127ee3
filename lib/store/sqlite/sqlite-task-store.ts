/**
 * TaskStore over the `tasks` table. Statements are prepared once per store; every write either
 * autocommits (one statement) or runs in an immediate transaction, so it is durable when the
 * method returns and concurrent writers, in this process or another, serialise on the write lock.
 */
import type { SqliteDatabase, SqliteStatement } from './connection';
import { ACTIVE_TASK_STATUSES, assertTaskRecord, normalizeListLimit, taskExpiresAt } from '../store-helpers';
import type { TaskListFilter, TaskRecord, TaskStore } from '../types';

/** Bind parameters of the insert and update statements. */
interface TaskRow {
  taskId: string;
  principal: string;
  scenarioId: string;
  status: string;
  createdAt: number;
  ttlMs: number | null;
  expiresAt: number | null;
  revision: number;
  json: string;
}

function toRow(record: TaskRecord): TaskRow {
  return {
    taskId: record.taskId,
    principal: record.principal,
    scenarioId: record.scenarioId,
    status: record.status,
    createdAt: record.createdAt,
    ttlMs: record.ttlMs ?? null,
    expiresAt: taskExpiresAt(record),
    revision: record.revision,
    json: JSON.stringify(record),
  };
}

function fromJson(json: string, taskId: string): TaskRecord {
  try {
    return JSON.parse(json) as TaskRecord;
  } catch (error) {
    throw new Error(`Failed to read task ${taskId}: stored JSON is corrupt`, { cause: error });
  }
}

function isPrimaryKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Create the SQLite TaskStore over an open, migrated connection. */
export function createSqliteTaskStore(db: SqliteDatabase): TaskStore {
  const insertTask = db.prepare<[TaskRow]>(
    `INSERT INTO tasks (task_id, principal, scenario_id, status, created_at, ttl_ms, expires_at, revision, json)
     VALUES (@taskId, @principal, @scenarioId, @status, @createdAt, @ttlMs, @expiresAt, @revision, @json)`,
  );
  const replaceTask = db.prepare<[TaskRow]>(
    `UPDATE tasks SET principal = @principal, scenario_id = @scenarioId, status = @status,
       created_at = @createdAt, ttl_ms = @ttlMs, expires_at = @expiresAt, revision = @revision, json = @json
     WHERE task_id = @taskId`,
  );
  const selectJson = db.prepare<[string], string>('SELECT json FROM tasks WHERE task_id = ?').pluck();
  const deleteTask = db.prepare<[string]>('DELETE FROM tasks WHERE task_id = ?');
  const deleteExpired = db.prepare<[number]>('DELETE FROM tasks WHERE expires_at IS NOT NULL AND expires_at < ?');
  const deleteAll = db.prepare<[]>('DELETE FROM tasks');
  const deleteScenario = db.prepare<[string]>('DELETE FROM tasks WHERE scenario_id = ?');
  const countAll = db.prepare<[], number>('SELECT COUNT(*) FROM tasks').pluck();

  // One statement per combination of filters (at most eight), each prepared on first use, so
  // every query stays a plain conjunction that SQLite can serve from an index.
  const listStatements = new Map<string, SqliteStatement<[Record<string, unknown>], { task_id: string; json: string }>>();
  const activeList = ACTIVE_TASK_STATUSES.map((status) => `'${status}'`).join(', ');
  const listStatement = (filter: TaskListFilter) => {
    const byPrincipal = filter.principal !== undefined;
    const byScenario = filter.scenarioId !== undefined;
    const activeOnly = filter.activeOnly === true;
    const cacheKey = `${Number(byPrincipal)}${Number(byScenario)}${Number(activeOnly)}`;
    let statement = listStatements.get(cacheKey);
    if (statement === undefined) {
      const where = [
        byPrincipal ? 'principal = @principal' : '',
        byScenario ? 'scenario_id = @scenarioId' : '',
        activeOnly ? `status IN (${activeList})` : '',
      ].filter(Boolean);
      // rowid breaks createdAt ties in insertion order, matching the in-memory store.
      statement = db.prepare(
        `SELECT task_id, json FROM tasks ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY created_at, rowid LIMIT @limit`,
      );
      listStatements.set(cacheKey, statement);
    }
    return statement;
  };

  const read = (taskId: string): TaskRecord | undefined => {
    const json = selectJson.get(taskId);
    return json === undefined ? undefined : fromJson(json, taskId);
  };

  // mutate runs inside the transaction: no other writer can slip in between read and write, and
  // if mutate throws the transaction rolls back, leaving the record untouched.
  const updateTransaction = db.transaction((taskId: string, mutate: (current: TaskRecord) => TaskRecord | undefined): TaskRecord | undefined => {
    const json = selectJson.get(taskId);
    if (json === undefined) return undefined;
    const current = fromJson(json, taskId);
    // mutate gets its own parse of the row, so editing it in place cannot alter `current`.
    const next = mutate(fromJson(json, taskId));
    if (next === undefined) return current;
    if (next.taskId !== taskId) throw new Error(`Failed to update task ${taskId}: mutate changed the taskId`);
    const stored = { ...next, revision: current.revision + 1 };
    assertTaskRecord(stored, `update task ${taskId}`);
    const row = toRow(stored);
    replaceTask.run(row);
    // Parsing the written JSON hands back a fresh copy that shares nothing with `next`.
    return fromJson(row.json, taskId);
  });

  return {
    async create(record) {
      assertTaskRecord(record, 'create task');
      try {
        insertTask.run(toRow(record));
      } catch (error) {
        if (isPrimaryKeyViolation(error)) {
          throw new Error(`Failed to create task: id ${record.taskId} already exists`, { cause: error });
        }
        throw error;
      }
    },
    get: async (taskId) => read(taskId),
    async update(taskId, mutate) {
      return updateTransaction.immediate(taskId, mutate);
    },
    async list(filter: TaskListFilter = {}) {
      const limit = normalizeListLimit(filter.limit);
      const rows = listStatement(filter).all({
        ...(filter.principal !== undefined && { principal: filter.principal }),
        ...(filter.scenarioId !== undefined && { scenarioId: filter.scenarioId }),
        // A negative LIMIT means "no limit" to SQLite.
        limit: limit ?? -1,
      });
      return rows.map((row) => fromJson(row.json, row.task_id));
    },
    async delete(taskId) {
      return deleteTask.run(taskId).changes > 0;
    },
    async purgeExpired(now) {
      return deleteExpired.run(now).changes;
    },
    async clear(scenarioId) {
      return (scenarioId === undefined ? deleteAll.run() : deleteScenario.run(scenarioId)).changes;
    },
    async count() {
      return countAll.get() as number;
    },
  };
}
