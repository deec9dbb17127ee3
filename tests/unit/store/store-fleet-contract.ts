/**
 * The parts of the stores a fleet shares (fault counters with their PRNG state, the journal, task
 * leases): behaviour every backend must share. Registered from describeStoreContract.
 */
import { describe, expect, it } from 'vitest';
import type { Stores } from '../../../lib/store/types';
import { makeTask } from './store-contract';

/** Register the fleet parts of the contract, inside an implementation's describe. */
export function describeFleetContract(openStores: () => Promise<Stores>): void {
  describe('fault counters', () => {
    it('start at zero with the given PRNG state, keep what a step wrote, per scope and key', async () => {
      const { faults } = await openStores();
      const seen = await faults.step('s', ['a', 'b'], [7, 9], (rows) => {
        const copy = rows.map((r) => ({ ...r }));
        rows[0]!.count += 1;
        rows[0]!.prng = 0xffff_fff0;
        rows[1]!.count += 3;
        return copy;
      });
      expect(seen).toEqual([
        { count: 0, prng: 7 },
        { count: 0, prng: 9 },
      ]);
      expect(await faults.step('s', ['b', 'a'], [0, 0], (rows) => rows.map((r) => ({ ...r })))).toEqual([
        { count: 3, prng: 9 },
        { count: 1, prng: 0xffff_fff0 },
      ]);
      expect(await faults.step('other', ['a'], [5], (rows) => rows[0])).toEqual({ count: 0, prng: 5 });
    });

    it('run racing steps on one key one after another: no count is lost', async () => {
      const { faults } = await openStores();
      const counts = await Promise.all(
        Array.from({ length: 20 }, () =>
          faults.step('s', ['k'], [1], (rows) => {
            rows[0]!.count += 1;
            return rows[0]!.count;
          }),
        ),
      );
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('write nothing when the step throws, and clear one scope or all', async () => {
      const { faults } = await openStores();
      await faults.step('s', ['k'], [1], (rows) => {
        rows[0]!.count = 5;
      });
      await expect(
        faults.step('s', ['k'], [1], (rows) => {
          rows[0]!.count = 99;
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await faults.step('s', ['k'], [1], (rows) => rows[0]!.count)).toBe(5);
      await faults.step('t', ['k'], [1], () => undefined);
      expect(await faults.clear('s')).toBe(1);
      expect(await faults.step('s', ['k'], [1], (rows) => rows[0]!.count)).toBe(0);
      expect(await faults.clear()).toBe(2);
    });
  });

  describe('journal', () => {
    it('lists the newest entries of a scope in append order, keeps at most maxEntries, and clears', async () => {
      const { journal } = await openStores();
      for (let i = 1; i <= 5; i += 1) await journal.append('s', i % 2 ? 'A' : 'B', { seq: i, body: { n: [i] } }, 4);
      await journal.append('t', 'A', { seq: 1 }, 4);
      const listed = await journal.list('s', 10);
      expect(listed.map(({ instance, entry }) => ({ instance, entry }))).toEqual(
        [2, 3, 4, 5].map((i) => ({ instance: i % 2 ? 'A' : 'B', entry: { seq: i, body: { n: [i] } } })),
      );
      // The store numbers the fleet's entries itself, rising in append order, and lists those after a seq.
      const seqs = listed.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(4);
      expect((await journal.list('s', 2)).map((e) => (e.entry as { seq: number }).seq)).toEqual([4, 5]);
      expect((await journal.list('s', 10, seqs[1])).map((e) => (e.entry as { seq: number }).seq)).toEqual([4, 5]);
      expect((await journal.list('s', 1, seqs[1])).map((e) => (e.entry as { seq: number }).seq)).toEqual([5]);
      expect(await journal.list('s', 10, seqs[3])).toEqual([]);
      expect(await journal.clear('s')).toBe(4);
      expect(await journal.list('s', 10)).toEqual([]);
      expect(await journal.list('t', 10)).toHaveLength(1);
    });

    it('keeps every one of many racing appends, and the bound', async () => {
      const { journal } = await openStores();
      await Promise.all(Array.from({ length: 30 }, (_, i) => journal.append('s', 'A', { seq: i }, 25)));
      const kept = (await journal.list('s', 100)).map((e) => (e.entry as { seq: number }).seq);
      expect(kept).toHaveLength(25);
      expect(new Set(kept).size).toBe(25);
    });
  });

  describe('task leases', () => {
    it('go to the first claimant until they lapse, then to whoever claims; renewals keep them', async () => {
      const { tasks, leases } = await openStores();
      const task = makeTask({ scenarioId: 'sc' });
      await tasks.create(task);
      expect(await leases.claim('nope', 'A', 100, 0)).toBe(false);
      expect(await leases.orphans('sc', 0, 10)).toEqual([task.taskId]);
      expect(await leases.claim(task.taskId, 'A', 100, 0)).toBe(true);
      expect(await leases.claim(task.taskId, 'B', 150, 50)).toBe(false);
      expect(await leases.claim(task.taskId, 'A', 120, 50)).toBe(true);
      expect(await leases.orphans('sc', 100, 10)).toEqual([]);
      expect(await leases.renew('A', 300)).toBe(1);
      expect(await leases.holder(task.taskId)).toEqual({ owner: 'A', until: 300 });
      // A task update leaves the lease alone.
      await tasks.update(task.taskId, (cur) => ({ ...cur, stepIndex: 1 }));
      expect(await leases.holder(task.taskId)).toEqual({ owner: 'A', until: 300 });
      // A dies: nothing renews, the lease lapses, B takes the task over.
      expect(await leases.orphans('sc', 301, 10)).toEqual([task.taskId]);
      expect(await leases.orphans('other', 301, 10)).toEqual([]);
      expect(await leases.claim(task.taskId, 'B', 400, 301)).toBe(true);
      expect(await leases.renew('A', 999)).toBe(0);
      await leases.release(task.taskId, 'A');
      expect(await leases.holder(task.taskId)).toEqual({ owner: 'B', until: 400 });
      await leases.release(task.taskId, 'B');
      expect(await leases.holder(task.taskId)).toBeUndefined();
    });

    it('are not orphans once their task ended, and one racing claim wins', async () => {
      const { tasks, leases } = await openStores();
      const done = makeTask({ scenarioId: 'sc', status: 'completed' });
      const live = makeTask({ scenarioId: 'sc' });
      await tasks.create(done);
      await tasks.create(live);
      expect(await leases.orphans('sc', 0, 10)).toEqual([live.taskId]);
      const wins = await Promise.all(['A', 'B', 'C', 'D'].map((owner) => leases.claim(live.taskId, owner, 100, 0)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    });
  });
}
