import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSqliteDriver, type SqliteDriver } from '../../../lib/store/sqlite/drivers';
import { configureConnection, SCHEMA_VERSION } from '../../../lib/store/sqlite/schema';
import { openSqliteStores, STORE_FILE_NAME } from '../../../lib/store/sqlite/sqlite-stores';
import type { Stores } from '../../../lib/store/types';
import { describeStoreContract, makeTask } from './store-contract';

/**
 * The SQLite stores on Node's built-in node:sqlite, through the adapter that stands in for
 * better-sqlite3 when its native binding is missing. Node 20 has no node:sqlite, so under it this
 * file only reports the skip; tests/integration/sqlite-fallback.test.ts runs it again on Node 22.
 */

const loaded = loadSqliteDriver('node:sqlite');
const tempDirs: string[] = [];
const openedStores: Stores[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-node-sqlite-'));
  tempDirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const stores of openedStores.splice(0)) stores.close();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

if (!loaded.ok) {
  describe.skip(`node:sqlite (skipped: ${loaded.reason}; the integration test sqlite-fallback runs this file on Node 22)`, () => {
    it('passes the store contract', async () => {});
  });
} else {
  const driver: SqliteDriver = loaded.driver;
  const open = (dir: string, options?: Parameters<typeof openSqliteStores>[1]): Stores => {
    const stores = openSqliteStores(dir, { ...options, driver });
    openedStores.push(stores);
    return stores;
  };

  describeStoreContract('node:sqlite', (options) => open(freshDir(), options));

  describe('openSqliteStores on node:sqlite', () => {
    it('names the driver it loaded', async () => {
      expect(driver.name).toBe('node:sqlite');
    });

    it('creates the data directory and one database file, and reads everything back after close', async () => {
      const dir = join(freshDir(), 'nested', '.loupe');
      const first = open(dir);
      const task = makeTask({ status: 'input_required', inputResponses: { earlier: { action: 'accept', content: { ok: true } } } });
      await first.tasks.create(task);
      await first.ledger.runOnce('alice', 'idem', () => ({ receipt: 'R1' }), 10);
      await first.replay.consume('alice', 'nonce', 50_000, 10);
      first.close();
      expect(existsSync(join(dir, STORE_FILE_NAME))).toBe(true);

      const second = open(dir);
      expect(await second.tasks.get(task.taskId)).toEqual(task);
      expect(await second.ledger.runOnce('alice', 'idem', () => ({ receipt: 'R2' }), 20)).toEqual({
        value: { receipt: 'R1' },
        executed: false,
        executedAt: 10,
      });
      expect(await second.replay.consume('alice', 'nonce', 50_000, 20)).toBe('replayed');
    });

    it('shares state between two connections on the same directory', async () => {
      const dir = freshDir();
      const a = open(dir);
      const b = open(dir);
      const task = makeTask();
      await a.tasks.create(task);
      expect((await b.tasks.update(task.taskId, (current) => ({ ...current, stepIndex: 1 })))?.revision).toBe(1);
      expect((await a.tasks.get(task.taskId))?.stepIndex).toBe(1);
      let runs = 0;
      await a.ledger.runOnce('s', 'k', () => ++runs, 1);
      expect(await b.ledger.runOnce('s', 'k', () => ++runs, 2)).toEqual({ value: 1, executed: false, executedAt: 1 });
      expect(runs).toBe(1);
    });

    it('writes the same schema as better-sqlite3: current version, WAL, synchronous NORMAL, 5 s busy timeout', async () => {
      const dir = freshDir();
      open(dir).close();
      const db = driver.open(join(dir, STORE_FILE_NAME));
      try {
        expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        configureConnection(db);
        expect(db.pragma('synchronous', { simple: true })).toBe(1);
        expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
        const names = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name").pluck().all();
        expect(names).toEqual(expect.arrayContaining(['mutations', 'replay', 'tasks', 'tasks_expires_at', 'replay_expires_at']));
      } finally {
        db.close();
      }
    });

    it('refuses a file written by a newer schema', async () => {
      const dir = freshDir();
      open(dir).close();
      const db = driver.open(join(dir, STORE_FILE_NAME));
      db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      db.close();
      expect(() => open(dir)).toThrow(/^Failed to open store: schema version \d+ is newer/);
    });
  });
}
