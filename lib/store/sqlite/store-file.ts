/**
 * The store file before and after it is opened: created owner-only (0600; SQLite gives its -wal
 * and -shm files the same mode), refused when it should hold data and is missing or empty (a
 * truncated file must never pass for a new, empty store: the tasks and the charge ledger would
 * be silently gone), and checked with `PRAGMA quick_check` once open.
 */
import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import type { SqliteDatabase } from './connection';

/** Why the file must already hold a store, and how to start over on purpose. */
export interface ExpectedStore {
  /** E.g. "/data/secret exists, so this directory held a store before". */
  because: string;
  /** The command that moves the old files aside. */
  startOver: string;
}

/** SQLite's file header is 100 bytes: anything shorter is not a database. */
const SQLITE_HEADER_BYTES = 100;

function sizeOf(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

/** Refuse a missing or truncated file that should hold a store; create a new one owner-only. */
export function prepareStoreFile(file: string, expected: ExpectedStore | undefined): void {
  const size = sizeOf(file);
  if (expected && (size === undefined || size < SQLITE_HEADER_BYTES)) {
    const what = size === undefined ? 'missing' : `${size} bytes long (truncated)`;
    throw new Error(
      `Failed to open the store: ${file} is ${what}, but ${expected.because}. Starting with an empty store would lose its tasks and charge ledger.\n` +
        `  Fix: restore ${file} from a backup, or start over on purpose: ${expected.startOver}`,
    );
  }
  if (size === undefined) closeSync(openSync(file, 'a', 0o600));
  // Tasks hold tool arguments and elicited inputs: owner-only, also for a file an older Loupe made.
  else chmodSync(file, 0o600);
}

/** Throw a clear error unless SQLite's quick check passes on the open file. */
export function checkStoreIntegrity(db: SqliteDatabase, file: string, startOver: string): void {
  let result: unknown;
  try {
    result = db.pragma('quick_check', { simple: true });
  } catch (e) {
    result = (e as Error).message;
  }
  if (result !== 'ok')
    throw new Error(
      `Failed to open the store: ${file} is damaged (SQLite quick_check: ${String(result).slice(0, 200)}).\n` +
        `  Fix: restore it from a backup, or start over on purpose: ${startOver}`,
    );
}
