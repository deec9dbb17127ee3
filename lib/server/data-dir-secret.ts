import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../engine/runtime';
import { makeDataDir } from '../store/sqlite/make-dir';
import type { ExpectedStore } from '../store/sqlite/store-file';
import { STORE_FILE_NAME } from '../store/sqlite/sqlite-stores';

/**
 * A data directory's HMAC secret (`<dataDir>/secret`, signs requestState) and what it says about
 * the store beside it: the secret is written right after the first store, so while it is there a
 * missing or truncated `loupe.sqlite3` is data lost, never a first start.
 */

/** The secret's file in a data directory. */
const secretFile = (dataDir: string) => path.join(dataDir, 'secret');
/** randomToken(32) is 43 characters; anything much shorter was cut off by a failed write. */
const MIN_SECRET_CHARS = 32;

/** The data directory's secret, or undefined when it is missing, empty or cut short. */
function readSecret(dataDir: string): string | undefined {
  try {
    const secret = fs.readFileSync(secretFile(dataDir), 'utf8').trim();
    return secret.length >= MIN_SECRET_CHARS ? secret : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `dataDir` held a store before (its secret is there), and how to start over on purpose:
 * what every opening of a data directory's SQLite store passes on (see store-file.ts).
 */
export function expectedStore(dataDir: string): ExpectedStore | undefined {
  if (!readSecret(dataDir)) return undefined;
  return {
    because: `${secretFile(dataDir)} exists, so this data directory held a store before`,
    startOver: `move both ${path.join(dataDir, STORE_FILE_NAME)} and ${secretFile(dataDir)} aside (your scenarios and recordings stay)`,
  };
}

/**
 * Read or create the per-data-directory HMAC secret (mode 0600). A new one is written to a
 * temporary file, synced, then linked into place, so a full disk leaves no secret rather than an
 * empty one, and of two processes starting at once the second reads the first's. A secret cut
 * short is replaced: it signs only short-lived requestState, so nothing durable is lost.
 */
export function loadSecret(dataDir: string): string {
  const existing = readSecret(dataDir);
  if (existing) return existing;
  const file = secretFile(dataDir);
  makeDataDir(dataDir);
  const secret = randomToken(32);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, secret);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Another process won the race, or a broken secret is in the way: use or replace it.
      const theirs = readSecret(dataDir);
      if (theirs) return theirs;
      fs.renameSync(tmp, file);
    }
    return secret;
  } catch (e) {
    throw new Error(`Failed to write ${file}: ${(e as Error).message}`, { cause: e });
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
