/**
 * Durable stores in one SQLite file, `<dataDir>/loupe.sqlite3`, through better-sqlite3 or
 * node:sqlite (`drivers.ts`). Node only: import this module explicitly; `lib/store` (the index)
 * deliberately does not re-export it so the engine and the in-memory store stay bundleable for
 * browsers and MSW.
 */
import { join } from 'node:path';
import { resolveStoreOptions } from '../store-helpers';
import type { StoreOptions, Stores } from '../types';
import type { SqliteDatabase } from './connection';
import { loadSqliteDriver, type SqliteDriver } from './drivers';
import { makeDataDir } from './make-dir';
import { configureConnection, migrateSchema } from './schema';
import { checkStoreIntegrity, prepareStoreFile, type ExpectedStore } from './store-file';
import { createSqliteFaultStates, createSqliteJournalStore, createSqliteLeases } from './sqlite-fleet';
import { createSqliteLedger } from './sqlite-ledger';
import { createSqliteReplayStore } from './sqlite-replay-store';
import { createSqliteTaskStore } from './sqlite-task-store';

/** File name of the store inside the data directory. */
export const STORE_FILE_NAME = 'loupe.sqlite3';

/** Store options plus the driver to open the file with. */
interface SqliteStoreOptions extends StoreOptions {
  /** Default: better-sqlite3, failing when its native binding does not load. */
  driver?: SqliteDriver;
  /** Set when the directory held a store before: a missing or truncated file is then refused. */
  expected?: ExpectedStore;
}

function betterSqlite3(): SqliteDriver {
  const loaded = loadSqliteDriver('better-sqlite3');
  if (!loaded.ok) throw new Error(`Failed to open store: ${loaded.reason}`);
  return loaded.driver;
}

/**
 * Open (creating if needed) the SQLite stores in `dataDir`, which is created recursively. The
 * schema is migrated to the current version on open. Several instances, in one process or many,
 * may open the same directory: writes serialise on SQLite's lock, waiting up to the busy timeout.
 * Call `close()` when done; later calls on the stores throw.
 */
export function openSqliteStores(dataDir: string, options?: SqliteStoreOptions): Stores {
  const { replayMaxEntries } = resolveStoreOptions(options);
  const driver = options?.driver ?? betterSqlite3();
  const file = join(dataDir, STORE_FILE_NAME);
  let db: SqliteDatabase;
  try {
    // Owner-only: tasks hold tool arguments and elicited inputs. The mode applies only to
    // directories this call creates.
    makeDataDir(dataDir);
    prepareStoreFile(file, options?.expected);
    db = driver.open(file);
  } catch (error) {
    if ((error as Error).message.startsWith('Failed to open the store')) throw error;
    throw new Error(`Failed to open store at ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    checkStoreIntegrity(db, file, options?.expected?.startOver ?? `mv ${file} ${file}.damaged`);
    configureConnection(db);
    migrateSchema(db);
    return {
      tasks: createSqliteTaskStore(db),
      ledger: createSqliteLedger(db),
      replay: createSqliteReplayStore(db, replayMaxEntries),
      faults: createSqliteFaultStates(db),
      journal: createSqliteJournalStore(db),
      leases: createSqliteLeases(db),
      async close() {
        // Closing the last connection also checkpoints the WAL back into the main file.
        if (db.open) db.close();
      },
    };
  } catch (error) {
    db.close();
    if ((error as Error).message.startsWith('Failed to open')) throw error;
    // A full disk or an I/O error while setting the file up: say which file, not just SQLite's words.
    throw new Error(`Failed to open store at ${file}: ${(error as Error).message}`, { cause: error });
  }
}
