import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStores } from '../../../lib/store/postgres/postgres-stores';
import { PG_SCHEMA_VERSION } from '../../../lib/store/postgres/schema';
import { freshDatabase, postgresUrl } from '../../helpers/postgres';
import { describeStoreContract, makeTask } from './store-contract';

/** The shared store contract on a real PostgreSQL server (one per run, a fresh database per store). */
// The run's server starts on first need (initdb included): not inside any one test's timeout.
beforeAll(() => postgresUrl(), 120_000);
describeStoreContract('postgres', async (options) => openPostgresStores(await freshDatabase(), options));

describe('openPostgresStores', () => {
  it('shares tasks, receipts and nonces between two instances on one database, and notifies both of a write', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([openPostgresStores(url), openPostgresStores(url)]);
    try {
      const seenByB: string[] = [];
      b.watchTasks((id) => seenByB.push(id));
      // LISTEN is issued on first watch; wait until B hears its own probe write so the channel is live.
      await expect
        .poll(async () => {
          await b.tasks.create(makeTask({ taskId: `probe-${seenByB.length}-${Math.random()}` }));
          return seenByB.length;
        })
        .toBeGreaterThan(0);
      const task = makeTask();
      await a.tasks.create(task);
      expect((await b.tasks.update(task.taskId, (cur) => ({ ...cur, stepIndex: 1 })))?.revision).toBe(1);
      expect((await a.tasks.get(task.taskId))?.stepIndex).toBe(1);
      await expect.poll(() => seenByB.filter((id) => id === task.taskId).length).toBe(2);
      let runs = 0;
      await a.ledger.runOnce('s', 'k', () => ++runs, 1);
      expect(await b.ledger.runOnce('s', 'k', () => ++runs, 2)).toEqual({ value: 1, executed: false, executedAt: 1 });
      expect(await a.replay.consume('s', 'n', 100, 1)).toBe('ok');
      expect(await b.replay.consume('s', 'n', 100, 1)).toBe('replayed');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('executes each of 100 keys exactly once under 1,000 racing calls from three instances', async () => {
    const url = await freshDatabase();
    const fleet = await Promise.all([openPostgresStores(url), openPostgresStores(url), openPostgresStores(url)]);
    try {
      let runs = 0;
      const calls = Array.from({ length: 1000 }, (_, i) => fleet[i % 3]!.ledger.runOnce('charge', `key-${i % 100}`, () => ({ run: ++runs }), i));
      const outcomes = await Promise.all(calls);
      expect(runs).toBe(100);
      expect(outcomes.filter((o) => o.executed)).toHaveLength(100);
      expect(await fleet[0]!.ledger.executions('charge')).toBe(100);
    } finally {
      await Promise.all(fleet.map((s) => s.close()));
    }
  });

  it('applies every one of many racing transitions of one task, none lost', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([openPostgresStores(url), openPostgresStores(url)]);
    try {
      const task = makeTask({ data: { hits: 0 } });
      await a.tasks.create(task);
      const bump = (cur: typeof task) => ({ ...cur, data: { hits: Number(cur.data?.hits) + 1 } });
      await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).tasks.update(task.taskId, bump)));
      const after = await a.tasks.get(task.taskId);
      expect(after?.data).toEqual({ hits: 40 });
      expect(after?.revision).toBe(40);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('creates the schema with a version table once, even when instances start together, and refuses a newer one', async () => {
    const url = await freshDatabase();
    const opened = await Promise.all(Array.from({ length: 4 }, () => openPostgresStores(url)));
    await Promise.all(opened.map((s) => s.close()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query('SELECT version FROM loupe_schema')).rows).toEqual([{ version: PG_SCHEMA_VERSION }]);
      await client.query('UPDATE loupe_schema SET version = version + 1');
    } finally {
      await client.end();
    }
    await expect(openPostgresStores(url)).rejects.toThrow(/schema version \d+ is newer than this Loupe supports/);
  });

  it('says which server it could not reach, without the password', async () => {
    await expect(openPostgresStores('postgres://loupe:secret@127.0.0.1:1/none')).rejects.toThrow(
      /^Failed to open the PostgreSQL store at postgres:\/\/loupe:\*\*\*@127\.0\.0\.1:1\/none: /,
    );
  });
});
