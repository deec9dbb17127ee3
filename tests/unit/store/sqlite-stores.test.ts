import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { configureConnection, SCHEMA_VERSION } from '../../../lib/store/sqlite/schema';
import { openSqliteStores, STORE_FILE_NAME } from '../../../lib/store/sqlite/sqlite-stores';
import type { Stores } from '../../../lib/store/types';
import { describeStoreContract, makeTask } from './store-contract';

const tempDirs: string[] = [];
const openedStores: Stores[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-store-'));
  tempDirs.push(dir);
  return dir;
}

function open(dir: string, options?: Parameters<typeof openSqliteStores>[1]): Stores {
  const stores = openSqliteStores(dir, options);
  openedStores.push(stores);
  return stores;
}

afterEach(() => {
  for (const stores of openedStores.splice(0)) stores.close();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeStoreContract('sqlite', (options) => open(freshDir(), options));

describe('openSqliteStores', () => {
  it('creates the data directory recursively and one database file in it', async () => {
    const dir = join(freshDir(), 'nested', '.loupe');
    open(dir).tasks.create(makeTask());
    expect(existsSync(join(dir, STORE_FILE_NAME))).toBe(true);
  });

  it('reads everything back intact from a new instance after close', async () => {
    const dir = freshDir();
    const first = open(dir);
    const waiting = makeTask({
      status: 'input_required',
      ttlMs: null,
      inputRequests: {
        seat: {
          method: 'elicitation/create',
          params: { message: 'Seat?', requestedSchema: { type: 'object', properties: { seat: { enum: ['1A', '1B'] } } } },
        },
        confirm: { method: 'elicitation/create', params: { message: 'Sure?', nested: [[1, { deep: [true, null] }]] } },
      },
      inputResponses: { earlier: { action: 'accept', content: { ok: true } } },
      data: { mrtr: { rounds: [1, 2] } },
    });
    const done = makeTask({ status: 'completed', result: { content: [{ type: 'text', text: 'booked ✓' }] } });
    await first.tasks.create(waiting);
    await first.tasks.create(done);
    const updated = await first.tasks.update(done.taskId, (current) => ({ ...current, statusMessage: 'finished' }));
    await first.ledger.runOnce('alice', 'idem', () => ({ receipt: 'R1' }), 10);
    await first.replay.consume('alice', 'nonce', 50_000, 10);
    first.close();

    const second = open(dir);
    expect(await second.tasks.get(waiting.taskId)).toEqual(waiting);
    expect(await second.tasks.get(done.taskId)).toEqual(updated);
    expect((await second.tasks.list({ activeOnly: true })).map((task) => task.taskId)).toEqual([waiting.taskId]);
    expect(await second.ledger.runOnce('alice', 'idem', () => ({ receipt: 'R2' }), 20)).toEqual({
      value: { receipt: 'R1' },
      executed: false,
      executedAt: 10,
    });
    expect(await second.replay.consume('alice', 'nonce', 50_000, 20)).toBe('replayed');
  });

  it('shares state between two instances open on the same directory', async () => {
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
    expect(await a.replay.consume('s', 'n', 100, 1)).toBe('ok');
    expect(await b.replay.consume('s', 'n', 100, 1)).toBe('replayed');
  });

  it('writes the current schema version in WAL mode and reopens without migrating again', async () => {
    const dir = freshDir();
    open(dir).close();
    open(dir).close();
    const db = new Database(join(dir, STORE_FILE_NAME), { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const names = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name").pluck().all();
      expect(names).toEqual(
        expect.arrayContaining(['mutations', 'replay', 'tasks', 'tasks_expires_at', 'tasks_scenario_id', 'tasks_status', 'replay_expires_at']),
      );
    } finally {
      db.close();
    }
  });

  it('refuses a file written by a newer schema', async () => {
    const dir = freshDir();
    open(dir).close();
    const db = new Database(join(dir, STORE_FILE_NAME));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => open(dir)).toThrow(/^Failed to open store: schema version \d+ is newer/);
  });

  it('fails with a clear message when the directory cannot be created', async () => {
    const dir = freshDir();
    open(dir).close();
    // The database file is in the way of a directory that would have to be created under it.
    expect(() => openSqliteStores(join(dir, STORE_FILE_NAME, 'sub'))).toThrow(/^Failed to open store at .*ENOTDIR/);
  });

  it('configures WAL, synchronous NORMAL and a 5 s busy timeout on each connection', async () => {
    const db = new Database(join(freshDir(), 'probe.sqlite3'));
    try {
      configureConnection(db);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      db.close();
    }
  });
});
