/**
 * {@link SqliteDatabase} over Node's built-in `node:sqlite` (Node 22.13 and later): the fallback
 * when better-sqlite3's native binding is missing. It supplies just what the stores use
 * (statements with `pluck`, pragmas, immediate transactions that nest as savepoints, and
 * better-sqlite3's error codes) so the stores run unchanged on either driver.
 */
import type { SqliteDatabase, SqliteStatement, SqliteTransaction } from './connection';

/** The subset of `node:sqlite`'s `StatementSync` used here (Node 20's types do not have it). */
interface NodeStatement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Record<string, unknown>[];
}

/** The subset of `node:sqlite`'s `DatabaseSync` used here. */
interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
}

/** The `node:sqlite` module, as far as this adapter needs it. */
export interface NodeSqliteModule {
  DatabaseSync: new (path: string) => NodeDatabase;
}

// node:sqlite reports every failure as ERR_SQLITE_ERROR with the extended result code in
// `errcode`; the stores (like better-sqlite3) tell failures apart by these names.
const CODE_NAMES = new Map<number, string>([
  [5, 'SQLITE_BUSY'],
  [6, 'SQLITE_LOCKED'],
  [8, 'SQLITE_READONLY'],
  [10, 'SQLITE_IOERR'],
  [11, 'SQLITE_CORRUPT'],
  [13, 'SQLITE_FULL'],
  [14, 'SQLITE_CANTOPEN'],
  [19, 'SQLITE_CONSTRAINT'],
  [26, 'SQLITE_NOTADB'],
  [1555, 'SQLITE_CONSTRAINT_PRIMARYKEY'],
  [2067, 'SQLITE_CONSTRAINT_UNIQUE'],
]);

/** Re-throw a node:sqlite error with better-sqlite3's `code` (e.g. SQLITE_CONSTRAINT_PRIMARYKEY). */
function withSqliteCode(error: unknown): never {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  const name = typeof errcode === 'number' ? CODE_NAMES.get(errcode) : undefined;
  if (name === undefined) throw error;
  throw Object.assign(new Error((error as Error).message, { cause: error }), { code: name });
}

function firstColumn(row: Record<string, unknown> | undefined): unknown {
  return row === undefined ? undefined : Object.values(row)[0];
}

function adaptStatement<P extends unknown[], R>(statement: NodeStatement): SqliteStatement<P, R> {
  let pluck = false;
  const adapted: SqliteStatement<P, R> = {
    run: (...params) => {
      try {
        // Counts are numbers unless the statement reads big integers, which these never do.
        return { changes: Number(statement.run(...params).changes) };
      } catch (error) {
        return withSqliteCode(error);
      }
    },
    get: (...params) => {
      try {
        const row = statement.get(...params);
        return (pluck ? firstColumn(row) : row) as R | undefined;
      } catch (error) {
        return withSqliteCode(error);
      }
    },
    all: (...params) => {
      try {
        const rows = statement.all(...params);
        return (pluck ? rows.map(firstColumn) : rows) as R[];
      } catch (error) {
        return withSqliteCode(error);
      }
    },
    pluck: () => {
      pluck = true;
      return adapted;
    },
  };
  return adapted;
}

/** Open `file` with node:sqlite behind the better-sqlite3 subset the stores use. */
export function openNodeSqliteDatabase(sqlite: NodeSqliteModule, file: string): SqliteDatabase {
  const db = new sqlite.DatabaseSync(file);
  let open = true;
  // Transactions opened through this adapter and not yet finished; above zero, a new one is a savepoint.
  let depth = 0;
  const exec = (sql: string) => {
    try {
      db.exec(sql);
    } catch (error) {
      withSqliteCode(error);
    }
  };

  function transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> {
    const runIn =
      (begin: string) =>
      (...args: A): R => {
        const nested = depth > 0;
        exec(nested ? 'SAVEPOINT loupe_nested' : begin);
        depth += 1;
        try {
          const result = fn(...args);
          exec(nested ? 'RELEASE loupe_nested' : 'COMMIT');
          return result;
        } catch (error) {
          try {
            exec(nested ? 'ROLLBACK TO loupe_nested; RELEASE loupe_nested' : 'ROLLBACK');
          } catch {
            // SQLite already rolled back on its own (e.g. SQLITE_FULL); the original error says why.
          }
          throw error;
        } finally {
          depth -= 1;
        }
      };
    return Object.assign(runIn('BEGIN'), { immediate: runIn('BEGIN IMMEDIATE') });
  }

  return {
    get open() {
      return open;
    },
    prepare<P extends unknown[], R>(sql: string) {
      try {
        return adaptStatement<P, R>(db.prepare(sql));
      } catch (error) {
        return withSqliteCode(error);
      }
    },
    exec,
    pragma(source, options) {
      const rows = adaptStatement<[], Record<string, unknown>>(db.prepare(`PRAGMA ${source}`)).all();
      return options?.simple ? firstColumn(rows[0]) : rows;
    },
    transaction,
    close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}
