/**
 * The two ways Loupe can reach SQLite, loaded on demand so a broken one is a value to report
 * rather than a crash at start-up. better-sqlite3 is a native addon: installs that skip its build
 * script (`--ignore-scripts`, pnpm's default) leave it without a binding, and only calling it
 * shows that. `node:sqlite` is built into Node 22.13 and later.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from './connection';
import { type NodeSqliteModule, openNodeSqliteDatabase } from './node-sqlite';

/** Names of the drivers, as shown to users. */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

/** A driver that loaded: opens (creating if needed) a database file. */
export interface SqliteDriver {
  name: SqliteDriverName;
  open(file: string): SqliteDatabase;
}

/**
 * The driver, or why it cannot be used (one line, for a message to the user); `missing` when the
 * package is not installed at all (npm leaves an optional dependency out when its build fails, or
 * under --omit=optional), which a rebuild cannot fix.
 */
export type DriverLoad = { ok: true; driver: SqliteDriver } | { ok: false; reason: string; missing?: boolean };

/**
 * better-sqlite3's own `Database` is the connection: the interface is its subset. Its `prepare`
 * is typed with a conditional return TypeScript cannot relate to a generic signature, so that one
 * member is asserted; the assignment checks the rest.
 */
function asConnection(db: BetterSqlite3.Database): SqliteDatabase {
  const checked: Omit<SqliteDatabase, 'prepare'> = db;
  return checked as SqliteDatabase;
}

/** The first line of an error, without the list of paths `bindings` appends after "Tried:". */
function firstLine(error: unknown): string {
  const line = ((error as Error | null)?.message ?? String(error)).split('\n')[0] ?? '';
  return line.replace(/[.\s]*Tried:\s*$/, '');
}

/**
 * better-sqlite3, loaded with require at call time (a static import would fail the whole program
 * when the package is absent). Its binding loads on the first `new Database()`, so one in-memory
 * database proves it works before any file is touched.
 */
function loadBetterSqlite3(): DriverLoad {
  let Database: typeof BetterSqlite3;
  try {
    Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    new Database(':memory:').close();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException | null)?.code === 'MODULE_NOT_FOUND' && /'better-sqlite3'/.test(firstLine(error));
    return { ok: false, reason: `better-sqlite3 did not load (${firstLine(error)})`, missing };
  }
  return { ok: true, driver: { name: 'better-sqlite3', open: (file) => asConnection(new Database(file)) } };
}

/**
 * node:sqlite, if this Node has it. Node 22 flags it experimental and prints a warning on load;
 * Loupe uses only its stable core (prepare, run, get, all, exec), so that one warning is held back.
 */
function loadNodeSqlite(): DriverLoad {
  const emitWarning = process.emitWarning;
  let sqlite: NodeSqliteModule | undefined;
  try {
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
      if (type === 'ExperimentalWarning' && String(warning).includes('SQLite')) return;
      (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
    sqlite = process.getBuiltinModule?.('node:sqlite') as NodeSqliteModule | undefined;
  } catch (error) {
    return { ok: false, reason: `node:sqlite did not load (${firstLine(error)})` };
  } finally {
    process.emitWarning = emitWarning;
  }
  if (sqlite === undefined) return { ok: false, reason: `Node ${process.version} has no node:sqlite (it needs Node 22.13 or later)` };
  const module = sqlite;
  return { ok: true, driver: { name: 'node:sqlite', open: (file) => openNodeSqliteDatabase(module, file) } };
}

/** Load one driver by name. */
export function loadSqliteDriver(name: SqliteDriverName): DriverLoad {
  return name === 'better-sqlite3' ? loadBetterSqlite3() : loadNodeSqlite();
}
