/**
 * The part of better-sqlite3's API the SQLite stores use, as an interface. better-sqlite3's
 * `Database` satisfies it as is; `node-sqlite.ts` implements it over Node's built-in `node:sqlite`.
 * Keeping the stores on this subset means one set of SQL and one store implementation, whichever
 * driver loaded.
 */

/** What `run()` reports; the stores read `changes` only. */
interface SqliteRunResult {
  changes: number;
}

/**
 * A prepared statement. Parameters are positional (`?`), or one object bound by name to
 * `@name` placeholders. After `pluck()`, `get`/`all` return the first column instead of a row.
 */
export interface SqliteStatement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): SqliteRunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  pluck(): this;
}

/** A function wrapped in a transaction; nested calls become savepoints. */
export interface SqliteTransaction<A extends unknown[], R> {
  (...args: A): R;
  /** Run in a `BEGIN IMMEDIATE` transaction: take the write lock before the first read. */
  immediate(...args: A): R;
}

/** An open connection. */
export interface SqliteDatabase {
  readonly open: boolean;
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): SqliteStatement<P, R>;
  exec(sql: string): unknown;
  /** Run `PRAGMA <source>`; with `simple`, return the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>;
  close(): unknown;
}
