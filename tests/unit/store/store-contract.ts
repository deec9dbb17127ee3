/**
 * Behaviour every Stores implementation must share. Each implementation's test file calls
 * {@link describeStoreContract} with a factory that opens fresh, empty stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreOptions, Stores, TaskRecord } from '../../../lib/store/types';
import { describeFleetContract } from './store-fleet-contract';

/** Opens fresh, empty stores; called once or more per test. */
export type OpenStores = (options?: StoreOptions) => Stores | Promise<Stores>;

let taskCounter = 0;

/** A complete task record with nested data, overridable per test. */
export function makeTask(overrides: Partial<TaskRecord> = {}): TaskRecord {
  taskCounter += 1;
  return {
    taskId: `task-${taskCounter}-${Math.random().toString(36).slice(2)}`,
    principal: 'alice',
    scenarioId: 'demo',
    toolName: 'book_flight',
    args: { from: 'AMS', to: 'SFO', passengers: [{ name: 'Ada', seat: null }] },
    era: 'modern',
    status: 'working',
    createdAt: 1_000,
    lastUpdatedAt: 1_000,
    ttlMs: 60_000,
    pollIntervalMs: 500,
    stepIndex: 0,
    stepStartedAt: 1_000,
    inputResponses: {},
    pollsSinceCancel: 0,
    clientCapabilities: { elicitation: { form: {} } },
    revision: 0,
    ...overrides,
  };
}

const nestedInputRequests = {
  seat: {
    method: 'elicitation/create',
    params: {
      message: 'Pick a seat',
      requestedSchema: { type: 'object', properties: { seat: { type: 'string', enum: ['12A', '12B'] } } },
    },
  },
};

/** Register the shared contract suite for one implementation. */
export function describeStoreContract(name: string, open: OpenStores): void {
  describe(`${name}: store contract`, () => {
    const opened: Stores[] = [];
    const openStores = async (options?: StoreOptions): Promise<Stores> => {
      const stores = await open(options);
      opened.push(stores);
      return stores;
    };
    afterEach(async () => {
      for (const stores of opened.splice(0)) await stores.close();
    });

    describe('TaskStore', () => {
      it('creates and reads back a record, nested fields included', async () => {
        const { tasks } = await openStores();
        const task = makeTask({ status: 'input_required', inputRequests: nestedInputRequests, data: { round: 2 } });
        await tasks.create(task);
        expect(await tasks.get(task.taskId)).toEqual(task);
        expect(await tasks.get('missing')).toBeUndefined();
        expect(await tasks.count()).toBe(1);
      });

      it('refuses a duplicate id and an invalid record', async () => {
        const { tasks } = await openStores();
        const task = makeTask();
        await tasks.create(task);
        await expect(async () => tasks.create({ ...task, principal: 'bob' })).rejects.toThrow(/^Failed to create task: .*already exists/);
        expect((await tasks.get(task.taskId))?.principal).toBe('alice');
        await expect(async () => tasks.create(makeTask({ status: 'bogus' as never }))).rejects.toThrow(/^Failed to create task: unknown status/);
        await expect(async () => tasks.create(makeTask({ taskId: '' }))).rejects.toThrow(/^Failed to create task: taskId/);
        expect(await tasks.count()).toBe(1);
      });

      it('updates transactionally and increments revision on every change', async () => {
        const { tasks } = await openStores();
        const task = makeTask({ revision: 7 });
        await tasks.create(task);
        const first = await tasks.update(task.taskId, (current) => ({ ...current, status: 'input_required', inputRequests: nestedInputRequests }));
        expect(first).toMatchObject({ status: 'input_required', revision: 8, inputRequests: nestedInputRequests });
        // The store owns revision: whatever mutate returns for it is replaced.
        const second = await tasks.update(task.taskId, (current) => {
          current.statusMessage = 'waiting';
          current.revision = 100;
          return current;
        });
        expect(second?.revision).toBe(9);
        expect(await tasks.get(task.taskId)).toEqual(second);
      });

      it('leaves the record unchanged when mutate returns undefined or throws', async () => {
        const { tasks } = await openStores();
        const task = makeTask();
        await tasks.create(task);
        const unchanged = await tasks.update(task.taskId, (current) => {
          current.status = 'failed'; // edits to the copy are discarded when undefined is returned
          return undefined;
        });
        expect(unchanged).toEqual(task);
        expect(await tasks.get(task.taskId)).toEqual(task);
        await expect(
          tasks.update(task.taskId, (current) => {
            current.status = 'failed';
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await tasks.get(task.taskId)).toEqual(task);
        await expect(async () => tasks.update(task.taskId, (current) => ({ ...current, taskId: 'other' }))).rejects.toThrow(/^Failed to update task .*taskId/);
        await expect(async () => tasks.update(task.taskId, (current) => ({ ...current, status: 'nope' as never }))).rejects.toThrow(/^Failed to update task/);
        expect(await tasks.get(task.taskId)).toEqual(task);
      });

      it('returns undefined for an unknown id without calling mutate', async () => {
        const { tasks } = await openStores();
        let called = false;
        expect(
          await tasks.update('missing', (current) => {
            called = true;
            return current;
          }),
        ).toBeUndefined();
        expect(called).toBe(false);
      });

      it('lists in creation order with principal, scenario, active and limit filters', async () => {
        const { tasks } = await openStores();
        const a = makeTask({ createdAt: 3_000 });
        const b = makeTask({ createdAt: 1_000, principal: 'bob', status: 'completed' });
        const c = makeTask({ createdAt: 2_000, scenarioId: 'other', status: 'input_required' });
        const d = makeTask({ createdAt: 2_000, status: 'cancelled' });
        for (const task of [a, b, c, d]) await tasks.create(task);
        const ids = (list: TaskRecord[]) => list.map((task) => task.taskId);
        expect(ids(await tasks.list())).toEqual([b.taskId, c.taskId, d.taskId, a.taskId]);
        expect(ids(await tasks.list({ principal: 'alice' }))).toEqual([c.taskId, d.taskId, a.taskId]);
        expect(ids(await tasks.list({ principal: 'nobody' }))).toEqual([]);
        expect(ids(await tasks.list({ scenarioId: 'demo' }))).toEqual([b.taskId, d.taskId, a.taskId]);
        expect(ids(await tasks.list({ activeOnly: true }))).toEqual([c.taskId, a.taskId]);
        expect(ids(await tasks.list({ principal: 'alice', scenarioId: 'demo', activeOnly: true }))).toEqual([a.taskId]);
        expect(ids(await tasks.list({ limit: 2 }))).toEqual([b.taskId, c.taskId]);
        expect(ids(await tasks.list({ limit: 0 }))).toEqual([]);
        await expect(async () => tasks.list({ limit: -1 })).rejects.toThrow(/^Failed to list tasks: limit/);
      });

      it('reflects updated indexed fields in list and purge', async () => {
        const { tasks } = await openStores();
        const task = makeTask({ ttlMs: null });
        await tasks.create(task);
        await tasks.update(task.taskId, (current) => ({ ...current, status: 'completed', ttlMs: 10, principal: 'bob' }));
        expect(await tasks.list({ activeOnly: true })).toEqual([]);
        expect(await tasks.list({ principal: 'bob' })).toHaveLength(1);
        expect(await tasks.purgeExpired(1_011)).toBe(1);
      });

      it('deletes one task', async () => {
        const { tasks } = await openStores();
        const task = makeTask();
        await tasks.create(task);
        expect(await tasks.delete(task.taskId)).toBe(true);
        expect(await tasks.delete(task.taskId)).toBe(false);
        expect(await tasks.get(task.taskId)).toBeUndefined();
      });

      it('purges only tasks whose createdAt + ttlMs is before now', async () => {
        const { tasks } = await openStores();
        const short = makeTask({ createdAt: 1_000, ttlMs: 100 });
        const long = makeTask({ createdAt: 1_000, ttlMs: 10_000 });
        const forever = makeTask({ createdAt: 0, ttlMs: null });
        for (const task of [short, long, forever]) await tasks.create(task);
        expect(await tasks.purgeExpired(1_100)).toBe(0); // expiry instant itself is not "before now"
        expect(await tasks.purgeExpired(1_101)).toBe(1);
        expect(await tasks.get(short.taskId)).toBeUndefined();
        expect(await tasks.purgeExpired(Number.MAX_SAFE_INTEGER)).toBe(1);
        expect((await tasks.list()).map((task) => task.taskId)).toEqual([forever.taskId]);
      });

      it('clears one scenario or everything and counts', async () => {
        const { tasks } = await openStores();
        for (const scenarioId of ['demo', 'demo', 'other']) await tasks.create(makeTask({ scenarioId }));
        expect(await tasks.count()).toBe(3);
        expect(await tasks.clear('demo')).toBe(2);
        expect(await tasks.clear('demo')).toBe(0);
        expect(await tasks.count()).toBe(1);
        expect(await tasks.clear()).toBe(1);
        expect(await tasks.count()).toBe(0);
      });

      it('isolates stored state from every object the caller holds', async () => {
        const { tasks } = await openStores();
        const task = makeTask({ inputRequests: structuredClone(nestedInputRequests) });
        const original = structuredClone(task);
        await tasks.create(task);
        (task.args.passengers as { name: string }[])[0]!.name = 'Eve';
        (task.inputRequests as Record<string, unknown>).extra = 1;

        const read = (await tasks.get(task.taskId)) as TaskRecord;
        read.clientCapabilities.sampling = {};
        (await tasks.list())[0]!.inputResponses.seat = '12A';

        let handedToMutate: TaskRecord | undefined;
        const returned = (await tasks.update(task.taskId, (current) => {
          handedToMutate = current;
          current.data = { nested: { deep: true } };
          return current;
        })) as TaskRecord;
        (handedToMutate?.data?.nested as Record<string, unknown>).deep = false;
        (returned.data?.nested as Record<string, unknown>).deep = 'changed';

        expect(await tasks.get(task.taskId)).toEqual({ ...original, data: { nested: { deep: true } }, revision: 1 });
      });
    });

    describe('MutationLedger', () => {
      it('executes once per key and returns the same receipt to every retry', async () => {
        const { ledger } = await openStores();
        let runs = 0;
        const execute = () => ({ bookingId: `B${++runs}`, seats: ['12A'] });
        const first = await ledger.runOnce('alice', 'idem-1', execute, 5_000);
        const retry = await ledger.runOnce('alice', 'idem-1', execute, 9_000);
        expect(first).toEqual({ value: { bookingId: 'B1', seats: ['12A'] }, executed: true, executedAt: 5_000 });
        expect(retry).toEqual({ value: { bookingId: 'B1', seats: ['12A'] }, executed: false, executedAt: 5_000 });
        expect(runs).toBe(1);
        first.value.seats.push('mutated');
        expect((await ledger.runOnce('alice', 'idem-1', execute, 9_000)).value.seats).toEqual(['12A']);
      });

      it('isolates scopes and counts executions', async () => {
        const { ledger } = await openStores();
        expect((await ledger.runOnce('alice', 'k', () => 'a', 1)).executed).toBe(true);
        expect(await ledger.runOnce('bob', 'k', () => 'b', 1)).toMatchObject({ value: 'b', executed: true });
        expect((await ledger.runOnce('alice', 'k2', () => 'a2', 1)).executed).toBe(true);
        expect(await ledger.runOnce('alice', 'k', () => 'again', 2)).toMatchObject({ value: 'a', executed: false });
        expect(await ledger.executions()).toBe(3);
        expect(await ledger.executions('alice')).toBe(2);
        expect(await ledger.executions('nobody')).toBe(0);
        expect(await ledger.clear('alice')).toBe(2);
        expect(await ledger.executions()).toBe(1);
        expect(await ledger.clear()).toBe(1);
        expect(await ledger.runOnce('alice', 'k', () => 'fresh', 3)).toMatchObject({ value: 'fresh', executed: true });
      });

      it('records nothing when execute throws, so a retry executes', async () => {
        const { ledger } = await openStores();
        await expect(
          ledger.runOnce(
            's',
            'k',
            () => {
              throw new Error('downstream failed');
            },
            1,
          ),
        ).rejects.toThrow('downstream failed');
        expect(await ledger.executions()).toBe(0);
        expect(await ledger.runOnce('s', 'k', () => 42, 2)).toEqual({ value: 42, executed: true, executedAt: 2 });
      });

      it('keeps an undefined receipt and refuses values that are not JSON', async () => {
        const { ledger } = await openStores();
        expect(await ledger.runOnce('s', 'void', () => undefined, 1)).toEqual({ value: undefined, executed: true, executedAt: 1 });
        expect(await ledger.runOnce('s', 'void', () => 'x', 2)).toEqual({ value: undefined, executed: false, executedAt: 1 });
        await expect(async () => ledger.runOnce('s', 'fn', () => () => 1, 1)).rejects.toThrow(/^Failed to record mutation/);
        await expect(async () => ledger.runOnce('s', 'big', () => 1n, 1)).rejects.toThrow(/^Failed to record mutation/);
        expect(await ledger.executions()).toBe(1);
      });

      it('refuses an execute that returns a promise: the execution must be one synchronous step', async () => {
        const { ledger } = await openStores();
        await expect(ledger.runOnce('s', 'k', () => Promise.resolve(1), 1)).rejects.toThrow(/^Failed to record mutation k: execute returned a promise/);
        expect(await ledger.executions()).toBe(0);
      });

      it('executes once when many calls for one key race, and each gets the one receipt', async () => {
        const { ledger } = await openStores();
        let runs = 0;
        const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => ledger.runOnce('s', `k${i % 4}`, () => ({ run: ++runs }), 1)));
        expect(runs).toBe(4);
        expect(outcomes.filter((o) => o.executed)).toHaveLength(4);
        for (let k = 0; k < 4; k += 1) {
          const values = new Set(outcomes.filter((_, i) => i % 4 === k).map((o) => JSON.stringify(o.value)));
          expect(values.size).toBe(1);
        }
        expect(await ledger.executions()).toBe(4);
      });
    });

    describe('ReplayStore', () => {
      it('accepts a nonce once per scope', async () => {
        const { replay } = await openStores();
        expect(await replay.consume('alice', 'n1', 2_000, 1_000)).toBe('ok');
        expect(await replay.consume('alice', 'n1', 2_000, 1_500)).toBe('replayed');
        expect(await replay.consume('bob', 'n1', 2_000, 1_500)).toBe('ok');
        expect(await replay.has('alice', 'n1', 1_999)).toBe(true);
        expect(await replay.has('alice', 'n2', 1_000)).toBe(false);
        expect(await replay.size(1_000)).toBe(2);
      });

      it('treats entries as gone from their expiry instant', async () => {
        const { replay } = await openStores();
        await replay.consume('s', 'n', 2_000, 1_000);
        expect(await replay.has('s', 'n', 2_000)).toBe(false);
        expect(await replay.size(2_000)).toBe(0);
        expect(await replay.consume('s', 'n', 3_000, 2_000)).toBe('ok');
      });

      it('says full at the configured bound and accepts again once entries expire', async () => {
        const { replay } = await openStores({ replayMaxEntries: 3 });
        expect(replay.maxEntries).toBe(3);
        expect(await replay.consume('s', 'a', 2_000, 1_000)).toBe('ok');
        expect(await replay.consume('s', 'b', 5_000, 1_000)).toBe('ok');
        expect(await replay.consume('t', 'c', 5_000, 1_000)).toBe('ok');
        expect(await replay.consume('s', 'd', 5_000, 1_000)).toBe('full');
        expect(await replay.has('s', 'd', 1_000)).toBe(false);
        expect(await replay.consume('s', 'a', 2_000, 1_000)).toBe('replayed');
        expect(await replay.size(1_000)).toBe(3);
        // 'a' expires at 2,000: purged on the next consume, freeing one slot.
        expect(await replay.consume('s', 'd', 5_000, 2_000)).toBe('ok');
        expect(await replay.consume('s', 'e', 5_000, 2_000)).toBe('full');
        expect(await replay.size(2_000)).toBe(3);
        expect(await replay.consume('s', 'e', 9_000, 5_000)).toBe('ok');
        expect(await replay.size(5_000)).toBe(1);
      });

      it('holds 1000 entries by default', async () => {
        const { replay } = await openStores();
        expect(replay.maxEntries).toBe(1000);
        for (let i = 0; i < 1000; i += 1) expect(await replay.consume('s', `n${i}`, 10_000, 1)).toBe('ok');
        expect(await replay.consume('s', 'one-more', 10_000, 1)).toBe('full');
        expect(await replay.size(1)).toBe(1000);
        // A thousand round trips to a network database on a busy machine.
      }, 90_000);

      it('accepts a nonce once when many consumes of it race', async () => {
        const { replay } = await openStores();
        const verdicts = await Promise.all(Array.from({ length: 20 }, () => replay.consume('s', 'raced', 10_000, 1)));
        expect(verdicts.filter((v) => v === 'ok')).toHaveLength(1);
        expect(verdicts.filter((v) => v === 'replayed')).toHaveLength(19);
      });

      it('clears one scope or everything', async () => {
        const { replay } = await openStores();
        await replay.consume('a', '1', 10, 1);
        await replay.consume('a', '2', 10, 1);
        await replay.consume('b', '1', 10, 1);
        expect(await replay.clear('a')).toBe(2);
        expect(await replay.has('a', '1', 1)).toBe(false);
        expect(await replay.clear()).toBe(1);
        expect(await replay.size(1)).toBe(0);
      });

      it('refuses a bound that is not a positive integer', async () => {
        await expect(openStores({ replayMaxEntries: 0 })).rejects.toThrow(/^Failed to open stores: replayMaxEntries/);
        await expect(openStores({ replayMaxEntries: 2.5 })).rejects.toThrow(/^Failed to open stores: replayMaxEntries/);
      });
    });

    describeFleetContract(openStores);

    it('refuses use after close', async () => {
      const stores = await openStores();
      await stores.close();
      await expect(async () => stores.tasks.count()).rejects.toThrow();
      await expect(async () => stores.ledger.executions()).rejects.toThrow();
      await expect(async () => stores.replay.size(0)).rejects.toThrow();
      await expect(stores.close()).resolves.toBeUndefined();
    });
  });
}
