import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { listen } from '../../../lib/adapters/node-http';
import { createInspectorStore, type InspectorStore, type InspectorStoreOptions } from '../../../lib/state/inspector-store';
import { createTaskRunner, type TaskRunner } from '../../../lib/state/task-runner';
import { cancelPending, pollIntervals, visitedStatuses } from '../../../lib/state/tracked-task';

/**
 * The task runner over the real inspector store, talking HTTP to a real mock engine: a task
 * followed to completion with input answered by tasks/update at the server's cadence, a cancel
 * the server ignores for a while followed to its terminal status, a listen whose stream drops
 * re-opened with the plan (refetch included), and a new connection forgetting old tasks.
 */

const form = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Approve?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
};
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

const scenario = ScenarioSchema.parse({
  id: 'runner',
  server: { name: 'runner', version: '1' },
  settings: { keepAliveMs: 100 },
  tools: [
    {
      name: 'report',
      inputSchema: { type: 'object' },
      task: {
        mode: 'required',
        pollIntervalMs: 150,
        steps: [
          { statusMessage: 'drafting', delayMs: 200 },
          { status: 'input_required', inputRequests: { ok: form } },
          { statusMessage: 'writing', delayMs: 200 },
          { result: text('done') },
        ],
      },
    },
    {
      name: 'stubborn',
      inputSchema: { type: 'object' },
      task: {
        mode: 'required',
        pollIntervalMs: 100,
        cancel: { policy: 'ignore', ignorePolls: 2 },
        steps: [{ statusMessage: 'busy', manual: true }, { result: text('finished') }],
      },
    },
    {
      name: 'slow',
      inputSchema: { type: 'object' },
      task: {
        mode: 'required',
        pollIntervalMs: 2_000,
        steps: [{ statusMessage: 'one', delayMs: 400 }, { statusMessage: 'two', delayMs: 400 }, { result: text('slow done') }],
      },
    },
  ],
  faults: [{ name: 'cut-listen', match: { method: 'subscriptions/listen', nth: 1 }, action: { kind: 'drop', afterEvents: 2 } }],
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  which = scenario,
  fetch?: InspectorStoreOptions['fetch'],
  options: InspectorStoreOptions = {},
): Promise<{ store: InspectorStore; runner: TaskRunner; engine: MockEngine; url: string }> {
  const engine = createMockEngine({ scenario: which });
  const server = await listen((req) => engine.fetch(req), '127.0.0.1', 0);
  const url = `http://127.0.0.1:${server.port}/mcp`;
  // The listens here are the tasks' (the scenario's fault drops the first listen): no list-change listen beside them.
  const store = createInspectorStore({ scheduleLint: () => {}, watchListChanges: false, ...(fetch ? { fetch } : {}), ...options });
  const runner = createTaskRunner(store);
  cleanups.push(
    () => engine.close(),
    () => server.close(),
    () => runner.dispose(),
    () => store.getState().connection.disconnect(),
  );
  await store.getState().connection.connect({ url });
  expect(store.getState().connection.status).toBe('connected');
  return { store, runner, engine, url };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function start(store: InspectorStore, runner: TaskRunner, tool: string): Promise<string> {
  const out = await store.getState().connection.session!.callTool(tool, {}, { task: true });
  if (out.type !== 'task') throw new Error(`expected a task, got ${out.type}`);
  runner.adopt(out.task, { form: out.form, toolName: tool });
  return out.task.taskId;
}

describe('task runner', () => {
  it('follows a task through input_required to completed, answering with tasks/update, polling no faster than pollIntervalMs', async () => {
    const { store, runner } = await setup();
    const id = await start(store, runner, 'report');
    const rec = () => store.getState().tasks.byId[id];
    await until(() => rec().snapshot.status === 'input_required');
    expect(Object.keys(rec().snapshot.inputRequests ?? {})).toEqual(['ok']);
    const out = await runner.answer(id, { ok: { action: 'accept', content: { ok: true } } });
    expect(out.type).toBe('complete');
    expect(rec().answered).toHaveProperty('ok');
    await until(() => rec().snapshot.status === 'completed');
    await until(() => rec().end !== undefined);
    expect(visitedStatuses(rec())).toEqual(['working', 'input_required', 'completed']);
    expect(rec().snapshot.result).toMatchObject({ content: [{ text: 'done' }] });
    expect(rec()).toMatchObject({ following: false, end: { kind: 'terminal' } });
    for (const gap of pollIntervals(rec(), 100)) expect(gap).toBeGreaterThanOrEqual(150);
  });

  it('keeps polling after a cancel the server ignores, until the task is cancelled', async () => {
    const { store, runner } = await setup();
    const id = await start(store, runner, 'stubborn');
    const rec = () => store.getState().tasks.byId[id];
    const out = await runner.cancel(id);
    expect(out.type).toBe('complete');
    expect(rec().cancel).toMatchObject({ ack: 'acknowledged' });
    // The ack is not final: the task is still working and still followed.
    expect(rec().snapshot.status).toBe('working');
    expect(cancelPending(rec())).toBe(true);
    await until(() => rec().snapshot.status === 'cancelled');
    expect(cancelPending(rec())).toBe(false);
    expect(rec().pollCount).toBeGreaterThanOrEqual(3);
    await until(() => !rec().following);
  });

  it('re-opens a dropped listen with the same filter, refetches the task, and records the plan', async () => {
    const { store, runner, engine } = await setup();
    const id = await start(store, runner, 'slow');
    runner.setListening(id, true);
    const streams = () => store.getState().streams;
    await until(() => streams().listenOrder.length === 1 && (streams().listens[streams().listenOrder[0]].drops[0]?.resyncedAt ?? 0) > 0);
    const l = streams().listens[streams().listenOrder[0]];
    expect(l.drops[0]).toMatchObject({
      reported: true,
      attempt: 0,
      plan: { delayMs: 250, sendLastEventId: false, refetchTaskIds: [id], listen: { taskIds: [id] } },
    });
    expect(l.subscriptionIds).toHaveLength(2);
    const pollsBefore = store.getState().tasks.byId[id].pollCount;
    // The resync refetches at once, well before the 2 s poll interval would.
    await until(() => store.getState().tasks.byId[id].pollCount > pollsBefore || store.getState().tasks.byId[id].snapshot.status === 'completed', 1_500);
    await until(() => store.getState().tasks.byId[id].snapshot.status === 'completed');
    expect(store.getState().tasks.byId[id].notifications).toBeGreaterThan(0);
    await until(() => !store.getState().tasks.byId[id].listening);
    // The prompt refetch after the re-listen is not held against the poll cadence.
    const card = engine.reportCard();
    expect(card.grades.filter((g) => g.status === 'fail')).toEqual([]);
    expect(card.grades.find((g) => g.id === 'relisten-without-last-event-id')?.status).toBe('pass');
  });

  it('records the dropped listen the same when its frames reach the store after the listener reports (as in a page)', async () => {
    // In a page the timeline hands frames over once per animation frame (or 100 ms in a hidden
    // tab), while the listener reports its drop and resync at once: the re-listen's request frame
    // then comes after the resync that names it.
    const { store, runner } = await setup(scenario, undefined, { scheduleFrames: (flush) => void setTimeout(flush, 120) });
    const id = await start(store, runner, 'slow');
    runner.setListening(id, true);
    const streams = () => store.getState().streams;
    await until(() => store.getState().tasks.byId[id].snapshot.status === 'completed' && !store.getState().tasks.byId[id].listening);
    await until(() => streams().listens[streams().listenOrder[0] ?? '']?.state === 'closed');
    const l = streams().listens[streams().listenOrder[0]];
    expect(l.subscriptionIds).toHaveLength(2);
    expect(l.drops).toHaveLength(1);
    expect(l.drops[0]).toMatchObject({ reported: true, attempt: 0, subscriptionId: l.subscriptionIds[0], plan: { delayMs: 250, refetchTaskIds: [id] } });
    expect(l.drops[0].reopenedAt).toBeGreaterThanOrEqual(l.drops[0].at);
    expect(l.drops[0].resyncedAt).toBeGreaterThanOrEqual(l.drops[0].reopenedAt!);
  });

  it('ends following at a terminal notification without another tasks/get, so the report card passes every grade it saw', async () => {
    const { store, runner, engine } = await setup(ScenarioSchema.parse({ ...scenario, faults: [] }));
    const id = await start(store, runner, 'slow');
    runner.setListening(id, true);
    const rec = () => store.getState().tasks.byId[id];
    await until(() => rec().snapshot.status === 'completed' && rec().end !== undefined);
    expect(rec()).toMatchObject({ end: { kind: 'terminal' } });
    expect(rec().notifications).toBeGreaterThan(0);
    const entries = engine.journal.entries();
    const terminalAt = entries.find((e) => e.method === 'subscriptions/listen')!.frames.find((f) => JSON.stringify(f).includes('"completed"'));
    expect(terminalAt).toBeDefined();
    const polls = entries.filter((e) => e.method === 'tasks/get');
    // The 2 s interval is longer than the task: the notification told the runner, nobody polled.
    expect(polls.filter((p) => p.at >= terminalAt!.at)).toEqual([]);
    const card = engine.reportCard();
    expect(card.grades.find((g) => g.id === 'stops-at-terminal')?.status).toBe('pass');
    expect(card.grades.filter((g) => g.status === 'fail')).toEqual([]);
  });

  it('stops every poll and listen at Disconnect: no request reaches the server after it', async () => {
    let sent = 0;
    const counting: InspectorStoreOptions['fetch'] = (input, init) => {
      sent++;
      return fetch(input, init);
    };
    const { store, runner, engine } = await setup(ScenarioSchema.parse({ ...scenario, faults: [] }), counting);
    const id = await start(store, runner, 'stubborn');
    runner.setListening(id, true);
    const rec = () => store.getState().tasks.byId[id];
    await until(() => rec().pollCount >= 2 && rec().listening);
    store.getState().connection.disconnect();
    const sentBefore = sent;
    expect(rec()).toMatchObject({ following: false, listening: false, end: { kind: 'stopped', detail: 'disconnected' } });
    // Ten poll intervals later nothing more was sent, and the server saw only what was sent before.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(sent).toBe(sentBefore);
    expect(engine.journal.entries().length).toBeLessThanOrEqual(sentBefore);
    expect(engine.journal.entries().filter((e) => e.method === 'tasks/get').length).toBeGreaterThanOrEqual(2);
    // The session is closed for good: a panel that still holds it cannot reach the server either.
    const late = store.getState().connection.session;
    expect(late).toBeUndefined();
  });

  it('forgets the old connection’s tasks on a new connection', async () => {
    const { store, runner, url } = await setup();
    await start(store, runner, 'slow');
    expect(store.getState().tasks.order).toHaveLength(1);
    await store.getState().connection.connect({ url });
    expect(store.getState().tasks.order).toHaveLength(0);
  });
});
