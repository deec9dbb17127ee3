import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { builtinScenarioInput } from '../../../lib/scenario/builtins';
import { createMemoryStores } from '../../../lib/store/memory';
import { createClientSession, type ClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import { fingerprint } from '../../../lib/shared/fingerprint';
import type { ObservedTask } from '../../../lib/client/task-api';
import { createTasksSlice } from '../../../lib/state/tasks-slice';
import type { TasksSlice } from '../../../lib/state/tasks-types';
import { pendingInputRequests, visitedStatuses, cancelPending, pollIntervals, expiresAt } from '../../../lib/state/tracked-task';
import { createStreamsSlice } from '../../../lib/state/streams-slice';
import type { StreamsSlice } from '../../../lib/state/streams-types';
import { createFakeClock, drive, type FakeClock } from '../../helpers/fake-clock';
import { reconnectPlan } from '../../../lib/client/reconnect';

/**
 * The tasks and streams slices fed by a real client session against the real engine (frames
 * from the tracking decorator, snapshots from the follower): poll times, status history,
 * pending input, cancel followed to its end, both eras in one shape; SSE streams with their
 * ack, frames, keep-alives and close reasons, and a dropped listen's reconnect plan.
 */

type State = TasksSlice & StreamsSlice;
const newStore = () => createStore<State>()((set, get) => ({ ...createTasksSlice(set, get), ...createStreamsSlice(set, get) }));

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(scenarioInput: unknown): { clock: FakeClock; session: ClientSession; store: ReturnType<typeof newStore> } {
  const clock = createFakeClock();
  const engine = createMockEngine({ scenario: ScenarioSchema.parse(scenarioInput), stores: createMemoryStores(), clock });
  engines.push(engine);
  const store = newStore();
  const transport = createTrackingTransport(createMemoryTransport(engine), {
    now: () => clock.now(),
    sink: (f) => {
      store.getState().tasks.ingest(f);
      store.getState().streams.ingest(f);
    },
  });
  const session = createClientSession({ transport, era: 'modern', clock, capabilities: { elicitation: { form: {} } } });
  return { clock, session, store };
}

const demo = builtinScenarioInput('demo')!;
const dropped = builtinScenarioInput('dropped-listen')!;

describe('tasks slice', () => {
  it('records a task from creation to completion: history, polls on the wire, pending input answered once', async () => {
    const { clock, session, store } = setup(demo);
    const out = await drive(clock, session.callTool('generate_report', { size: 'small' }, { task: true }));
    if (out.type !== 'task') throw new Error(`expected a task, got ${out.type}`);
    const tasks = () => store.getState().tasks;
    tasks().track(out.task, { form: out.form, toolName: 'generate_report', at: clock.now() });
    const id = out.task.taskId;
    const follower = session.followTask(out.task, {
      onUpdate: (t) => tasks().applySnapshot(id, t, 'poll', clock.now()),
      onEvent: (e) => e.type === 'answered' && e.outcome.type === 'complete' && tasks().markAnswered(id, e.keys, clock.now()),
      answer: async (reqs) => {
        expect(Object.keys(pendingInputRequests(tasks().byId[id]))).toEqual(['approve_outline']);
        return Object.fromEntries(Object.keys(reqs).map((k) => [k, { action: 'accept', content: { approved: true } }]));
      },
    });
    const end = await drive(clock, follower.done);
    expect(end.kind).toBe('terminal');
    const r = tasks().byId[id];
    expect(r.fp).toBe(fingerprint(id));
    expect(r.toolName).toBe('generate_report');
    expect(visitedStatuses(r)).toEqual(['working', 'input_required', 'completed']);
    expect(r.snapshot.status).toBe('completed');
    expect(r.snapshot.result).toMatchObject({ structuredContent: { generated: true } });
    // Polls are the tasks/get sends, timed by their frames, never faster than pollIntervalMs.
    expect(r.pollCount).toBeGreaterThanOrEqual(3);
    expect(r.polls).toHaveLength(r.pollCount);
    for (const gap of pollIntervals(r)) expect(gap).toBeGreaterThanOrEqual(r.snapshot.pollIntervalMs ?? 1000);
    expect(expiresAt(r.snapshot)).toBe(Date.parse(r.snapshot.createdAt) + 900_000);
    // Answers belong to their round: leaving input_required forgets them.
    expect(r.answered).toEqual({});
  });

  it('keeps a terminal status final and a cancel pending until the task ends', () => {
    const store = newStore();
    const t = store.getState().tasks;
    const base = { taskId: 'task-abc', createdAt: '2026-07-28T12:00:00Z', lastUpdatedAt: '2026-07-28T12:00:00Z', ttlMs: 60_000 };
    t.track({ ...base, status: 'working' }, { form: 'extension', at: 1 });
    t.markCancelRequested('task-abc', 2);
    t.markCancelAck('task-abc', 'acknowledged');
    expect(cancelPending(store.getState().tasks.byId['task-abc'])).toBe(true);
    t.applySnapshot('task-abc', { ...base, status: 'cancelled' } as ObservedTask, 'poll', 3);
    t.applySnapshot('task-abc', { ...base, status: 'working' } as ObservedTask, 'notification', 4);
    const r = store.getState().tasks.byId['task-abc'];
    expect(r.snapshot.status).toBe('cancelled');
    expect(cancelPending(r)).toBe(false);
    expect(r.cancel).toMatchObject({ requestedAt: 2, ack: 'acknowledged' });
    expect(r.history.map((h) => h.status)).toEqual(['working', 'cancelled']);
  });

  it('normalizes 2025-11-25 tasks to the extension field names', () => {
    const store = newStore();
    store
      .getState()
      .tasks.track(
        { taskId: 'legacy-1', status: 'working', createdAt: '2026-07-28T12:00:00Z', lastUpdatedAt: '2026-07-28T12:00:00Z', ttl: 5000, pollInterval: 250 },
        { form: 'legacy', origin: 'listed', at: 1 },
      );
    const r = store.getState().tasks.byId['legacy-1'];
    expect(r.snapshot).toMatchObject({ ttlMs: 5000, pollIntervalMs: 250 });
    expect(r.snapshot).not.toHaveProperty('ttl');
    expect(r).toMatchObject({ form: 'legacy', origin: 'listed' });
  });
});

describe('streams slice', () => {
  it('records each request stream with its frames, response and close reason', async () => {
    const { clock, session, store } = setup(demo);
    const out = await drive(clock, session.callTool('generate_report', { size: 'small' }, { task: true }));
    expect(out.type).toBe('task');
    const s = store.getState().streams;
    // Every request above was a POST; those answered over SSE have a stream record.
    for (const id of s.order) {
      const r = s.byId[id];
      expect(r.closedAt).toBeDefined();
      if (r.responded) expect(r.closeReason).toBe('complete');
      expect(r.httpStatus).toBe(200);
    }
  });

  it('follows a dropped listen: drop, plan (same filter, refetch, no Last-Event-ID, 250 ms × 2ⁿ), re-open, ack', async () => {
    const { clock, session, store } = setup(dropped);
    const out = await drive(clock, session.callTool('build_project', { project: 'loupe' }, { task: true }));
    if (out.type !== 'task') throw new Error('expected a task');
    const resyncs: number[] = [];
    const handle = session.listen(
      { taskIds: [out.task.taskId] },
      {
        onDrop: ({ reason, attempt, plan }) => store.getState().streams.noteListenDrop(handle.subscriptionId!, { at: clock.now(), reason, attempt, plan }),
        onResync: () => {
          resyncs.push(clock.now());
          store.getState().streams.noteListenResync(handle.subscriptionId!, clock.now());
        },
      },
    );
    await drive(
      clock,
      new Promise<void>((r) => {
        const t = setInterval(() => {
          if (resyncs.length < 2) return;
          clearInterval(t);
          r();
        }, 1);
      }),
      25,
      20_000,
    );
    const lastId = handle.subscriptionId!;
    handle.close();
    await drive(clock, handle.done);
    store.getState().streams.noteListenClosed(lastId);
    const s = store.getState().streams;
    expect(s.listenOrder).toHaveLength(1);
    const l = s.listens[s.listenOrder[0]];
    expect(l.filter).toEqual({ taskIds: [out.task.taskId] });
    expect(l.subscriptionIds.length).toBeGreaterThanOrEqual(3);
    expect(l.drops.length).toBeGreaterThanOrEqual(2);
    const [first, second] = l.drops;
    for (const d of [first, second]) {
      expect(d.reported).toBe(true);
      expect(d.plan.sendLastEventId).toBe(false);
      expect(d.plan.retryInFlightMutation).toBe(false);
      expect(d.plan.listen).toEqual({ taskIds: [out.task.taskId] });
      expect(d.plan.refetchTaskIds).toEqual([out.task.taskId]);
      expect(d.reopenedAt).toBeGreaterThanOrEqual(d.at);
      expect(d.resyncedAt).toBeDefined();
    }
    expect(first.plan.delayMs).toBe(250);
    expect(l.state).toBe('closed');
    const streams = l.streamIds.map((id) => s.byId[id]);
    // A dropped stream ends without its final response (the mock closes the body; a network cut errors it).
    expect(streams.slice(0, 2).every((r) => r.ack && (r.closeReason === 'network-error' || r.closeReason === 'server-closed'))).toBe(true);
    expect(['client-closed', 'network-error', 'server-closed']).toContain(streams[streams.length - 1].closeReason);
    // Labels carry fingerprints only.
    expect(JSON.stringify(streams.map((r) => r.recent))).not.toContain(out.task.taskId);
  });

  it('derives the plan from frames alone when no listener reports it, and flags an unsafe request in flight', () => {
    const store = newStore();
    const s = () => store.getState().streams;
    const base = { connectionId: 'c', direction: 'in' as const, bytes: 0 };
    s().ingest({
      ...base,
      seq: 0,
      at: 0,
      direction: 'out',
      kind: 'http-request',
      exchangeId: 'c:1',
      conversationId: 'listen-1',
      rpcId: 1,
      method: 'subscriptions/listen',
      body: { params: { notifications: { taskIds: ['t1'] } } },
    });
    s().ingest({ ...base, seq: 1, at: 1, kind: 'http-response', exchangeId: 'c:1', httpStatus: 200, method: 'subscriptions/listen' });
    s().ingest({
      ...base,
      seq: 2,
      at: 1,
      kind: 'sse-open',
      exchangeId: 'c:1',
      streamId: 'c:1',
      rpcId: 1,
      conversationId: 'listen-1',
      method: 'subscriptions/listen',
    });
    s().ingest({
      ...base,
      seq: 3,
      at: 2,
      kind: 'sse-frame',
      exchangeId: 'c:1',
      streamId: 'c:1',
      rpcId: 1,
      method: 'notifications/subscriptions/acknowledged',
      body: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: ['t1'] } } },
    });
    s().ingest({ ...base, seq: 4, at: 3, kind: 'sse-comment', exchangeId: 'c:1', streamId: 'c:1', raw: 'keep-alive' });
    s().ingest({
      ...base,
      seq: 5,
      at: 4,
      direction: 'out',
      kind: 'http-request',
      exchangeId: 'c:2',
      rpcId: 2,
      method: 'tools/call',
      body: { params: { name: 'charge', arguments: {} } },
    });
    s().ingest({
      ...base,
      seq: 6,
      at: 5,
      kind: 'sse-close',
      exchangeId: 'c:1',
      streamId: 'c:1',
      rpcId: 1,
      closeReason: 'network-error',
      errorText: 'socket hang up',
    });
    const l = s().listens['listen-1'];
    expect(l.state).toBe('reconnecting');
    expect(l.drops[0]).toMatchObject({
      reason: 'socket hang up',
      attempt: 0,
      reported: false,
      plan: { delayMs: 250, sendLastEventId: false, refetchTaskIds: ['t1'] },
    });
    expect(l.drops[0].plan.note).toMatch(/not re-sent/);
    const stream = s().byId['c:1'];
    expect(stream).toMatchObject({ httpStatus: 200, frames: 1, keepAlives: 1, closeReason: 'network-error', ack: { at: 2 } });
  });
  it('keeps one drop when the listener reports it before the frames of the cut stream arrive', () => {
    const store = newStore();
    const s = () => store.getState().streams;
    const base = { connectionId: 'c', direction: 'in' as const, bytes: 0 };
    const listen = (seq: number, rpcId: number, at: number) => {
      s().ingest({
        ...base,
        seq,
        at,
        direction: 'out',
        kind: 'http-request',
        exchangeId: `c:${rpcId}`,
        conversationId: 'listen-1',
        rpcId,
        method: 'subscriptions/listen',
        body: { params: { notifications: { taskIds: ['t1'] } } },
      });
    };
    listen(0, 1, 0);
    const stream = { ...base, exchangeId: 'c:1', streamId: 'c:1', rpcId: 1, conversationId: 'listen-1', method: 'subscriptions/listen' };
    s().ingest({ ...stream, seq: 1, at: 1, kind: 'sse-open' });
    s().ingest({
      ...stream,
      seq: 2,
      at: 2,
      kind: 'sse-frame',
      method: 'notifications/subscriptions/acknowledged',
      body: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: ['t1'] } } },
    });
    // The listener sees its stream end, reports the drop, re-listens and refetches at once...
    const plan = reconnectPlan({ previousSubscriptionId: 1, filter: { taskIds: ['t1'] }, attempt: 0, unsafeMutationInFlight: false });
    s().noteListenDrop(1, { at: 5, reason: 'the server closed the stream', attempt: 0, plan });
    // ...while the frames of the cut stream and of the re-listen reach the slice only afterwards.
    s().ingest({ ...stream, seq: 3, at: 5, kind: 'sse-close', closeReason: 'server-closed' });
    s().ingest({ ...stream, seq: 4, at: 5, kind: 'error', errorText: 'the server closed the stream without a response' });
    listen(5, 2, 300);
    s().noteListenResync(2, 320);
    const l = s().listens['listen-1'];
    expect(l.drops).toHaveLength(1);
    expect(l.drops[0]).toMatchObject({ reported: true, reason: 'the server closed the stream', reopenedAt: 300, resyncedAt: 320 });
  });
});
