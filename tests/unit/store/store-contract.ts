/**
 * Behaviour every Stores implementation must share. Each implementation's test file calls
 * {@link describeStoreContract} with a factory that opens fresh, empty stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreOptions, Stores, TaskRecord } from '../../../lib/store/types';

/** Opens fresh, empty stores; called once or more per test. */
export type OpenStores = (options?: StoreOptions) => Stores;

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
    const openStores: OpenStores = (options) => {
      const stores = open(options);
      opened.push(stores);
      return stores;
    };
    afterEach(() => {
      for (const stores of opened.splice(0)) stores.close();
    });

    describe('TaskStore', () => {
      it('creates and reads back a record, nested fields included', () => {
        const { tasks } = openStores();
        const task = makeTask({ status: 'input_required', inputRequests: nestedInputRequests, data: { round: 2 } });
        tasks.create(task);
        expect(tasks.get(task.taskId)).toEqual(task);
        expect(tasks.get('missing')).toBeUndefined();
        expect(tasks.count()).toBe(1);
      });

      it('refuses a duplicate id and an invalid record', () => {
        const { tasks } = openStores();
        const task = makeTask();
        tasks.create(task);
        expect(() => tasks.create({ ...task, principal: 'bob' })).toThrow(/^Failed to create task: .*already exists/);
        expect(tasks.get(task.taskId)?.principal).toBe('alice');
        expect(() => tasks.create(makeTask({ status: 'bogus' as never }))).toThrow(/^Failed to create task: unknown status/);
        expect(() => tasks.create(makeTask({ taskId: '' }))).toThrow(/^Failed to create task: taskId/);
        expect(tasks.count()).toBe(1);
      });

      it('updates transactionally and increments revision on every change', () => {
        const { tasks } = openStores();
        const task = makeTask({ revision: 7 });
        tasks.create(task);
        const first = tasks.update(task.taskId, (current) => ({ ...current, status: 'input_required', inputRequests: nestedInputRequests }));
        expect(first).toMatchObject({ status: 'input_required', revision: 8, inputRequests: nestedInputRequests });
        // The store owns revision: whatever mutate returns for it is replaced.
        const second = tasks.update(task.taskId, (current) => {
          current.statusMessage = 'waiting';
          current.revision = 100;
          return current;
        });
        expect(second?.revision).toBe(9);
        expect(tasks.get(task.taskId)).toEqual(second);
      });

      it('leaves the record unchanged when mutate returns undefined or throws', () => {
        const { tasks } = openStores();
        const task = makeTask();
        tasks.create(task);
        const unchanged = tasks.update(task.taskId, (current) => {
          current.status = 'failed'; // edits to the copy are discarded when undefined is returned
          return undefined;
        });
        expect(unchanged).toEqual(task);
        expect(tasks.get(task.taskId)).toEqual(task);
        expect(() =>
          tasks.update(task.taskId, (current) => {
            current.status = 'failed';
            throw new Error('boom');
          }),
        ).toThrow('boom');
        expect(tasks.get(task.taskId)).toEqual(task);
        expect(() => tasks.update(task.taskId, (current) => ({ ...current, taskId: 'other' }))).toThrow(/^Failed to update task .*taskId/);
        expect(() => tasks.update(task.taskId, (current) => ({ ...current, status: 'nope' as never }))).toThrow(/^Failed to update task/);
        expect(tasks.get(task.taskId)).toEqual(task);
      });

      it('returns undefined for an unknown id without calling mutate', () => {
        const { tasks } = openStores();
        let called = false;
        expect(
          tasks.update('missing', (current) => {
            called = true;
            return current;
          }),
        ).toBeUndefined();
        expect(called).toBe(false);
      });

      it('lists in creation order with principal, scenario, active and limit filters', () => {
        const { tasks } = openStores();
        const a = makeTask({ createdAt: 3_000 });
        const b = makeTask({ createdAt: 1_000, principal: 'bob', status: 'completed' });
        const c = makeTask({ createdAt: 2_000, scenarioId: 'other', status: 'input_required' });
        const d = makeTask({ createdAt: 2_000, status: 'cancelled' });
        for (const task of [a, b, c, d]) tasks.create(task);
        const ids = (list: TaskRecord[]) => list.map((task) => task.taskId);
        expect(ids(tasks.list())).toEqual([b.taskId, c.taskId, d.taskId, a.taskId]);
        expect(ids(tasks.list({ principal: 'alice' }))).toEqual([c.taskId, d.taskId, a.taskId]);
        expect(ids(tasks.list({ principal: 'nobody' }))).toEqual([]);
        expect(ids(tasks.list({ scenarioId: 'demo' }))).toEqual([b.taskId, d.taskId, a.taskId]);
        expect(ids(tasks.list({ activeOnly: true }))).toEqual([c.taskId, a.taskId]);
        expect(ids(tasks.list({ principal: 'alice', scenarioId: 'demo', activeOnly: true }))).toEqual([a.taskId]);
        expect(ids(tasks.list({ limit: 2 }))).toEqual([b.taskId, c.taskId]);
        expect(ids(tasks.list({ limit: 0 }))).toEqual([]);
        expect(() => tasks.list({ limit: -1 })).toThrow(/^Failed to list tasks: limit/);
      });

      it('reflects updated indexed fields in list and purge', () => {
        const { tasks } = openStores();
        const task = makeTask({ ttlMs: null });
        tasks.create(task);
        tasks.update(task.taskId, (current) => ({ ...current, status: 'completed', ttlMs: 10, principal: 'bob' }));
        expect(tasks.list({ activeOnly: true })).toEqual([]);
        expect(tasks.list({ principal: 'bob' })).toHaveLength(1);
        expect(tasks.purgeExpired(1_011)).toBe(1);
      });

      it('deletes one task', () => {
        const { tasks } = openStores();
        const task = makeTask();
        tasks.create(task);
        expect(tasks.delete(task.taskId)).toBe(true);
        expect(tasks.delete(task.taskId)).toBe(false);
        expect(tasks.get(task.taskId)).toBeUndefined();
      });

      it('purges only tasks whose createdAt + ttlMs is before now', () => {
        const { tasks } = openStores();
        const short = makeTask({ createdAt: 1_000, ttlMs: 100 });
        const long = makeTask({ createdAt: 1_000, ttlMs: 10_000 });
        const forever = makeTask({ createdAt: 0, ttlMs: null });
        for (const task of [short, long, forever]) tasks.create(task);
        expect(tasks.purgeExpired(1_100)).toBe(0); // expiry instant itself is not "before now"
        expect(tasks.purgeExpired(1_101)).toBe(1);
        expect(tasks.get(short.taskId)).toBeUndefined();
        expect(tasks.purgeExpired(Number.MAX_SAFE_INTEGER)).toBe(1);
        expect(tasks.list().map((task) => task.taskId)).toEqual([forever.taskId]);
      });

      it('clears one scenario or everything and counts', () => {
        const { tasks } = openStores();
        for (const scenarioId of ['demo', 'demo', 'other']) tasks.create(makeTask({ scenarioId }));
        expect(tasks.count()).toBe(3);
        expect(tasks.clear('demo')).toBe(2);
        expect(tasks.clear('demo')).toBe(0);
        expect(tasks.count()).toBe(1);
        expect(tasks.clear()).toBe(1);
        expect(tasks.count()).toBe(0);
      });

      it('isolates stored state from every object the caller holds', () => {
        const { tasks } = openStores();
        const task = makeTask({ inputRequests: structuredClone(nestedInputRequests) });
        const original = structuredClone(task);
        tasks.create(task);
        (task.args.passengers as { name: string }[])[0].name = 'Eve';
        (task.inputRequests as Record<string, unknown>).extra = 1;

        const read = tasks.get(task.taskId) as TaskRecord;
        read.clientCapabilities.sampling = {};
        tasks.list()[0].inputResponses.seat = '12A';

        let handedToMutate: TaskRecord | undefined;
        const returned = tasks.update(task.taskId, (current) => {
          handedToMutate = current;
          current.data = { nested: { deep: true } };
          return current;
        }) as TaskRecord;
        (handedToMutate?.data?.nested as Record<string, unknown>).deep = false;
        (returned.data?.nested as Record<string, unknown>).deep = 'changed';

        expect(tasks.get(task.taskId)).toEqual({ ...original, data: { nested: { deep: true } }, revision: 1 });
      });
    });

    describe('MutationLedger', () => {
      it('executes once per key and returns the same receipt to every retry', () => {
        const { ledger } = openStores();
        let runs = 0;
        const execute = () => ({ bookingId: `B${++runs}`, seats: ['12A'] });
        const first = ledger.runOnce('alice', 'idem-1', execute, 5_000);
        const retry = ledger.runOnce('alice', 'idem-1', execute, 9_000);
        expect(first).toEqual({ value: { bookingId: 'B1', seats: ['12A'] }, executed: true, executedAt: 5_000 });
        expect(retry).toEqual({ value: { bookingId: 'B1', seats: ['12A'] }, executed: false, executedAt: 5_000 });
        expect(runs).toBe(1);
        first.value.seats.push('mutated');
        expect(ledger.runOnce('alice', 'idem-1', execute, 9_000).value.seats).toEqual(['12A']);
      });

      it('isolates scopes and counts executions', () => {
        const { ledger } = openStores();
        expect(ledger.runOnce('alice', 'k', () => 'a', 1).executed).toBe(true);
        expect(ledger.runOnce('bob', 'k', () => 'b', 1)).toMatchObject({ value: 'b', executed: true });
        expect(ledger.runOnce('alice', 'k2', () => 'a2', 1).executed).toBe(true);
        expect(ledger.runOnce('alice', 'k', () => 'again', 2)).toMatchObject({ value: 'a', executed: false });
        expect(ledger.executions()).toBe(3);
        expect(ledger.executions('alice')).toBe(2);
        expect(ledger.executions('nobody')).toBe(0);
        expect(ledger.clear('alice')).toBe(2);
        expect(ledger.executions()).toBe(1);
        expect(ledger.clear()).toBe(1);
        expect(ledger.runOnce('alice', 'k', () => 'fresh', 3)).toMatchObject({ value: 'fresh', executed: true });
      });

      it('records nothing when execute throws, so a retry executes', () => {
        const { ledger } = openStores();
        expect(() =>
          ledger.runOnce(
            's',
            'k',
            () => {
              throw new Error('downstream failed');
            },
            1,
          ),
        ).toThrow('downstream failed');
        expect(ledger.executions()).toBe(0);
        expect(ledger.runOnce('s', 'k', () => 42, 2)).toEqual({ value: 42, executed: true, executedAt: 2 });
      });

      it('keeps an undefined receipt and refuses values that are not JSON', () => {
        const { ledger } = openStores();
        expect(ledger.runOnce('s', 'void', () => undefined, 1)).toEqual({ value: undefined, executed: true, executedAt: 1 });
        expect(ledger.runOnce('s', 'void', () => 'x', 2)).toEqual({ value: undefined, executed: false, executedAt: 1 });
        expect(() => ledger.runOnce('s', 'fn', () => () => 1, 1)).toThrow(/^Failed to record mutation/);
        expect(() => ledger.runOnce('s', 'big', () => 1n, 1)).toThrow(/^Failed to record mutation/);
        expect(ledger.executions()).toBe(1);
      });

      it('refuses a re-entrant call for the key being executed', () => {
        const { ledger } = openStores();
        expect(() => ledger.runOnce('s', 'k', () => ledger.runOnce('s', 'k', () => 1, 1), 1)).toThrow(/^Failed to run mutation k: re-entrant/);
        expect(ledger.executions()).toBe(0);
        const outer = ledger.runOnce('s', 'outer', () => ledger.runOnce('s', 'inner', () => 1, 1).value + 1, 1);
        expect(outer.value).toBe(2);
        expect(ledger.executions()).toBe(2);
      });
    });

    describe('ReplayStore', () => {
      it('accepts a nonce once per scope', () => {
        const { replay } = openStores();
        expect(replay.consume('alice', 'n1', 2_000, 1_000)).toBe('ok');
        expect(replay.consume('alice', 'n1', 2_000, 1_500)).toBe('replayed');
        expect(replay.consume('bob', 'n1', 2_000, 1_500)).toBe('ok');
        expect(replay.has('alice', 'n1', 1_999)).toBe(true);
        expect(replay.has('alice', 'n2', 1_000)).toBe(false);
        expect(replay.size(1_000)).toBe(2);
      });

      it('treats entries as gone from their expiry instant', () => {
        const { replay } = openStores();
        replay.consume('s', 'n', 2_000, 1_000);
        expect(replay.has('s', 'n', 2_000)).toBe(false);
        expect(replay.size(2_000)).toBe(0);
        expect(replay.consume('s', 'n', 3_000, 2_000)).toBe('ok');
      });

      it('says full at the configured bound and accepts again once entries expire', () => {
        const { replay } = openStores({ replayMaxEntries: 3 });
        expect(replay.maxEntries).toBe(3);
        expect(replay.consume('s', 'a', 2_000, 1_000)).toBe('ok');
        expect(replay.consume('s', 'b', 5_000, 1_000)).toBe('ok');
        expect(replay.consume('t', 'c', 5_000, 1_000)).toBe('ok');
        expect(replay.consume('s', 'd', 5_000, 1_000)).toBe('full');
        expect(replay.has('s', 'd', 1_000)).toBe(false);
        expect(replay.consume('s', 'a', 2_000, 1_000)).toBe('replayed');
        expect(replay.size(1_000)).toBe(3);
        // 'a' expires at 2,000: purged on the next consume, freeing one slot.
        expect(replay.consume('s', 'd', 5_000, 2_000)).toBe('ok');
        expect(replay.consume('s', 'e', 5_000, 2_000)).toBe('full');
        expect(replay.size(2_000)).toBe(3);
        expect(replay.consume('s', 'e', 9_000, 5_000)).toBe('ok');
        expect(replay.size(5_000)).toBe(1);
      });

      it('holds 1000 entries by default', () => {
        const { replay } = openStores();
        expect(replay.maxEntries).toBe(1000);
        for (let i = 0; i < 1000; i += 1) expect(replay.consume('s', `n${i}`, 10_000, 1)).toBe('ok');
        expect(replay.consume('s', 'one-more', 10_000, 1)).toBe('full');
        expect(replay.size(1)).toBe(1000);
      });

      it('clears one scope or everything', () => {
        const { replay } = openStores();
        replay.consume('a', '1', 10, 1);
        replay.consume('a', '2', 10, 1);
        replay.consume('b', '1', 10, 1);
        expect(replay.clear('a')).toBe(2);
        expect(replay.has('a', '1', 1)).toBe(false);
        expect(replay.clear()).toBe(1);
        expect(replay.size(1)).toBe(0);
      });

      it('refuses a bound that is not a positive integer', () => {
        expect(() => openStores({ replayMaxEntries: 0 })).toThrow(/^Failed to open stores: replayMaxEntries/);
        expect(() => openStores({ replayMaxEntries: 2.5 })).toThrow(/^Failed to open stores: replayMaxEntries/);
      });
    });

    it('refuses use after close', () => {
      const stores = openStores();
      stores.close();
      expect(() => stores.tasks.count()).toThrow();
      expect(() => stores.ledger.executions()).toThrow();
      expect(() => stores.replay.size(0)).toThrow();
      expect(() => stores.close()).not.toThrow();
    });
  });
}
