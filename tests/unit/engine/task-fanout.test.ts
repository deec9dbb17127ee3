import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { createTaskWatch } from '../../../lib/engine/task-watch';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createMemoryStores } from '../../../lib/store/memory';
import type { Stores, TaskRecord } from '../../../lib/store/types';
import { createFakeClock, flushAsync, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, buildRequest, callTool, parseSse, rpc } from '../../helpers/rpc';

/**
 * Fan-out between instances that share a store, the way PostgreSQL's LISTEN/NOTIFY gives it: every
 * write announces the task's id to every instance. An instance reads a task on such a notice only
 * when one of its listen streams follows that task, and forgets the task once it ended or its
 * listeners left, so neither its reads nor its memory grow with the store.
 */

/** One shared memory store seen by several "instances", each counting the task reads it makes. */
function sharedStore() {
  const base = createMemoryStores();
  const feed = new Set<(taskId: string) => void>();
  // Sent after the write, like pg_notify after a commit, to every instance (the writer too).
  const notice = (taskId: string) =>
    void Promise.resolve().then(() => {
      for (const f of feed) f(taskId);
    });
  const instance = () => {
    const reads: string[] = [];
    const stores: Stores = {
      ...base,
      tasks: {
        ...base.tasks,
        get: (taskId) => {
          reads.push(taskId);
          return base.tasks.get(taskId);
        },
        create: async (rec) => {
          await base.tasks.create(rec);
          notice(rec.taskId);
        },
        update: async (taskId, mutate) => {
          const after = await base.tasks.update(taskId, mutate);
          notice(taskId);
          return after;
        },
      },
      watchTasks(listener) {
        feed.add(listener);
        return () => feed.delete(listener);
      },
      close: async () => {},
    };
    return { stores, reads };
  };
  return { instance, notice };
}

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function fleet(clock: FakeClock) {
  const shared = sharedStore();
  const start = () => {
    const { stores, reads } = shared.instance();
    const engine = createMockEngine({ scenario: getBuiltinScenario('demo')!, stores, clock, secret: 'fanout-test-secret' });
    engines.push(engine);
    return { engine, reads };
  };
  return { a: start(), b: start(), notice: shared.notice };
}

async function listen(engine: MockEngine, taskId: string) {
  const { request } = buildRequest('subscriptions/listen', { notifications: { taskIds: [taskId] } }, { caps: CAPS.formAndTasks, id: 'l-1' });
  const reader = (await engine.fetch(request)).body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const statuses = () =>
    (parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)) as { method?: string; params?: { status?: string } }[])
      .filter((m) => m.method === 'notifications/tasks')
      .map((m) => m.params?.status);
  return {
    statuses,
    async until(status: string) {
      while (!statuses().includes(status)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`listen ended before ${status}:\n${text}`);
        text += decoder.decode(value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}

describe('fan-out across instances sharing a store', () => {
  it('an instance nobody listens on reads no task when another instance writes one', async () => {
    const clock = createFakeClock();
    const { a, b } = fleet(clock);
    const created = await callTool(a.engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks });
    const taskId: string = created.body.result.taskId;
    await clock.advanceAsync(2_000);
    await flushAsync();
    expect((await rpc(a.engine, 'tasks/get', { taskId }, { caps: CAPS.formAndTasks })).body.result.status).toBe('input_required');
    // A wrote the task twice (created, then its timed step); B heard both notices and read nothing.
    expect(b.reads).toEqual([]);
  });

  it('a listen on B hears A drive the task, B reads only that task, and forgets it once it ended', async () => {
    const clock = createFakeClock();
    const { a, b, notice } = fleet(clock);
    const other = (await callTool(a.engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks })).body.result.taskId as string;
    const taskId = (await callTool(a.engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks })).body.result.taskId as string;
    const stream = await listen(b.engine, taskId);
    await stream.until('working');

    await clock.advanceAsync(2_000);
    await stream.until('input_required');
    const approve = { approve_outline: { action: 'accept', content: { approved: true } } };
    expect((await rpc(a.engine, 'tasks/update', { taskId, inputResponses: approve }, { caps: CAPS.formAndTasks })).body.result).toEqual({
      resultType: 'complete',
    });
    for (let i = 0; i < 20 && !stream.statuses().includes('completed'); i += 1) {
      await clock.advanceAsync(1_000);
      await flushAsync();
    }
    await stream.until('completed');
    // Each status once, in order, although B heard every write twice over (A's own echo included).
    expect(stream.statuses().filter((s, i, all) => s !== all[i - 1])).toEqual(['working', 'input_required', 'working', 'completed']);
    expect(stream.statuses().filter((s) => s === 'completed')).toHaveLength(1);
    expect(b.reads.every((id) => id === taskId)).toBe(true);
    expect(b.reads).not.toContain(other);

    // The task ended: a later notice about it (or any other task) costs B no read, while the stream is still open.
    const readsAtEnd = b.reads.length;
    notice(taskId);
    notice(other);
    await flushAsync();
    expect(b.reads).toHaveLength(readsAtEnd);
    await stream.close();
  });

  it('stops reading a running task on notices once its last listen stream closed', async () => {
    const clock = createFakeClock();
    const { a, b, notice } = fleet(clock);
    const taskId = (await callTool(a.engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks })).body.result.taskId as string;
    const first = await listen(b.engine, taskId);
    const second = await listen(b.engine, taskId);
    await first.until('working');
    await second.until('working');
    await first.close();
    await flushAsync();
    const before = b.reads.length;
    notice(taskId);
    await flushAsync();
    // One stream still follows it: the notice is read.
    expect(b.reads.length).toBe(before + 1);
    await second.close();
    await flushAsync();
    notice(taskId);
    await flushAsync();
    expect(b.reads.length).toBe(before + 1);
  });
});

describe('createTaskWatch', () => {
  const rec = (revision: number, status: TaskRecord['status'] = 'working') => ({ taskId: 't1', revision, status }) as TaskRecord;

  it('announces each revision once, in order, to every watcher', () => {
    const w = createTaskWatch();
    const heard: number[] = [];
    w.watch('t1', (r) => heard.push(r.revision));
    w.watch('t1', (r) => heard.push(r.revision * 10));
    expect(w.announce(rec(1))).toBe(true);
    expect(w.announce(rec(1))).toBe(false);
    expect(w.announce(rec(0))).toBe(false);
    w.announce(rec(2));
    expect(heard).toEqual([1, 10, 2, 20]);
  });

  it('holds only tasks someone watches: pruned when the last watcher leaves, the task ends or is evicted', () => {
    const w = createTaskWatch();
    const stopA = w.watch('a', () => {});
    const stopA2 = w.watch('a', () => {});
    w.watch('b', () => {});
    w.watch('c', () => {});
    expect(w.size).toBe(3);
    stopA();
    expect(w.has('a')).toBe(true);
    stopA2();
    expect(w.has('a')).toBe(false);
    w.announce({ ...rec(3, 'completed'), taskId: 'b' });
    expect(w.has('b')).toBe(false);
    w.forget('c');
    expect(w.size).toBe(0);
  });
});
