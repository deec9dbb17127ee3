import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { createMemoryStores } from '../../../lib/store/memory';
import { createClientSession, type ClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import type { Frame } from '../../../lib/client/frames';
import type { FetchTarget } from '../../../lib/client/transport';
import type { FollowEvent } from '../../../lib/client/task-follower';
import type { ObservedTask } from '../../../lib/client/task-api';
import { createFakeClock, drive, flushAsync as flush, type FakeClock } from '../../helpers/fake-clock';

/**
 * The task follower with a fake clock shared by the engine and the client: poll cadence,
 * answering input once, stopping at terminal, cancel that keeps polling, the TTL backstop,
 * the wait bound and notifications that wake it early.
 */

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const form = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Approve?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
};

const scenario = ScenarioSchema.parse({
  id: 'follow',
  server: { name: 'follow', version: '1' },
  tools: [
    {
      name: 'report',
      inputSchema: { type: 'object' },
      task: {
        pollIntervalMs: 500,
        steps: [
          { statusMessage: 'drafting', delayMs: 1_200 },
          { status: 'input_required', inputRequests: { ok: form } },
          { statusMessage: 'writing', delayMs: 1_000 },
          { result: text('done') },
        ],
      },
    },
    {
      name: 'stubborn',
      inputSchema: { type: 'object' },
      task: {
        pollIntervalMs: 500,
        cancel: { policy: 'ignore', ignorePolls: 3 },
        steps: [{ statusMessage: 'busy', manual: true }, { result: text('finished') }],
      },
    },
    {
      name: 'stuck',
      inputSchema: { type: 'object' },
      task: { ttlMs: 3_000, pollIntervalMs: 1_000, steps: [{ statusMessage: 'stuck', manual: true }, { result: text('never') }] },
    },
    {
      name: 'slow_poll',
      inputSchema: { type: 'object' },
      task: { pollIntervalMs: 5_000, steps: [{ statusMessage: 'quick', delayMs: 1_200 }, { result: text('quick result') }] },
    },
    {
      // No delay before the result: the task is completed before the creation result is sent.
      name: 'instant',
      inputSchema: { type: 'object' },
      task: { steps: [{ statusMessage: 'starting' }, { result: text('instant result') }] },
    },
  ],
});

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

/**
 * `lateGetMs`: a slow server, whose second `tasks/get` is handled that long after it was sent
 * (the clock moves on before the engine sees it).
 */
function setup(opts: { lateGetMs?: number } = {}): { clock: FakeClock; session: ClientSession; frames: Frame[]; gets: () => number[] } {
  const clock = createFakeClock();
  const engine = createMockEngine({ scenario, stores: createMemoryStores(), clock });
  engines.push(engine);
  const frames: Frame[] = [];
  let getsSeen = 0;
  const late: FetchTarget = {
    fetch: async (req) => {
      const body = await req.clone().text();
      if (opts.lateGetMs && body.includes('"tasks/get"') && ++getsSeen === 2) clock.advance(opts.lateGetMs);
      return engine.fetch(req);
    },
  };
  const transport = createTrackingTransport(createMemoryTransport(late), { sink: (f) => frames.push(f), now: () => clock.now() });
  const session = createClientSession({ transport, era: 'modern', clock, capabilities: { elicitation: { form: {} } } });
  const gets = () => frames.filter((f) => f.kind === 'http-request' && f.method === 'tasks/get').map((f) => f.at);
  return { clock, session, frames, gets };
}

async function start(s: ClientSession, clock: FakeClock, name: string): Promise<ObservedTask> {
  const out = await drive(clock, s.callTool(name, {}, { task: true }));
  if (out.type !== 'task') throw new Error(`expected a task, got ${JSON.stringify(out)}`);
  return out.task as ObservedTask;
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('followTask', () => {
  it('polls no faster than pollIntervalMs, answers each input key once, and stops at the terminal status', async () => {
    const { clock, session, frames, gets } = setup();
    const task = await start(session, clock, 'report');
    const created = clock.now();
    const asked: string[][] = [];
    const statuses: string[] = [];
    const f = session.followTask(task, {
      answer: async (reqs) => {
        asked.push(Object.keys(reqs));
        return { ok: { action: 'accept', content: { ok: true } } };
      },
      onUpdate: (t) => statuses.push(t.status),
    });
    const end = await drive(clock, f.done);
    expect(end.kind).toBe('terminal');
    expect(end.task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    expect(asked).toEqual([['ok']]);
    const updates = frames.filter((x) => x.kind === 'http-request' && x.method === 'tasks/update');
    expect(updates).toHaveLength(1);
    expect(updates[0].body).toMatchObject({ params: { taskId: task.taskId, inputResponses: { ok: { action: 'accept', content: { ok: true } } } } });
    expect(statuses).toContain('input_required');

    const polls = gets();
    expect(polls.length).toBeGreaterThanOrEqual(4);
    expect(polls[0] - created).toBeGreaterThanOrEqual(500);
    for (const g of gaps(polls)) {
      expect(g).toBeGreaterThanOrEqual(500);
      expect(g).toBeLessThan(500 + 100);
    }
    // Nothing more after the terminal status.
    const before = frames.length;
    clock.advance(10_000);
    await flush();
    expect(frames.length).toBe(before);
  });

  it('fetches the result of a task already completed when created (a creation result carries none)', async () => {
    const { clock, session, gets } = setup();
    const task = await start(session, clock, 'instant');
    expect(task.status).toBe('completed');
    expect(task.result).toBeUndefined();
    const end = await drive(clock, session.followTask(task).done);
    expect(end).toMatchObject({ kind: 'terminal', task: { status: 'completed', result: { content: [{ type: 'text', text: 'instant result' }] } } });
    // One tasks/get, at once: there is nothing to wait for.
    expect(gets()).toHaveLength(1);
  });

  it('keeps polling after tasks/cancel until the status is terminal: the ack is not final', async () => {
    const { clock, session, frames, gets } = setup();
    const task = await start(session, clock, 'stubborn');
    const events: FollowEvent[] = [];
    const f = session.followTask(task, { onEvent: (e) => events.push(e) });
    await drive(clock, new Promise((r) => clock.setTimeout(() => r(undefined), 1_100)));
    const ack = await drive(clock, f.cancel());
    expect(ack).toEqual({ type: 'complete', result: { resultType: 'complete' } });
    const ackAt = clock.now();
    const end = await drive(clock, f.done);
    expect(end).toMatchObject({ kind: 'terminal', task: { status: 'cancelled' } });
    const after = gets().filter((t) => t > ackAt);
    // The server ignored the cancel for three polls; the follower saw them all, then the end.
    expect(after.length).toBeGreaterThanOrEqual(4);
    expect(
      events
        .filter((e) => e.type === 'poll')
        .map((e) => (e as { task: ObservedTask }).task.status)
        .slice(-4),
    ).toEqual(['working', 'working', 'working', 'cancelled']);
    for (const g of gaps(gets())) expect(g).toBeGreaterThanOrEqual(500);
    expect(frames.filter((x) => x.kind === 'http-request' && x.method === 'tasks/cancel')).toHaveLength(1);
  });

  it('reports the TTL ending, not an error, when a poll sent before the TTL finds the task purged after it', async () => {
    const { clock, session } = setup({ lateGetMs: 1_500 });
    const task = await start(session, clock, 'stuck');
    const events: FollowEvent[] = [];
    const end = await drive(clock, session.followTask(task, { onEvent: (e) => events.push(e) }).done);
    expect(end).toMatchObject({ kind: 'expired', task: { status: 'working' } });
    // The second poll (due before the TTL) was answered after it: the task was already gone.
    expect(events.filter((e) => e.type === 'poll-failed')).toHaveLength(1);
    expect(JSON.stringify(events.at(-1))).toMatch(/not found/i);
  });

  it('gives up at createdAt + ttlMs without polling past it', async () => {
    const { clock, session, gets } = setup();
    const task = await start(session, clock, 'stuck');
    const ttlEnd = Date.parse(task.createdAt) + 3_000;
    const end = await drive(clock, session.followTask(task).done);
    expect(end).toMatchObject({ kind: 'expired', task: { status: 'working' } });
    expect(clock.now()).toBeGreaterThanOrEqual(ttlEnd);
    expect(clock.now()).toBeLessThan(ttlEnd + 100);
    expect(gets().every((t) => t < ttlEnd)).toBe(true);
    expect(gets()).toHaveLength(2);
  });

  it('bounds the wait and stops at input_required when told to', async () => {
    const a = setup();
    const t1 = await start(a.session, a.clock, 'stuck');
    const end1 = await drive(a.clock, a.session.followTask(t1, { waitMs: 1_500 }).done);
    expect(end1.kind).toBe('timeout');
    expect(a.clock.now() - Date.parse(t1.createdAt)).toBeLessThan(1_600);

    const b = setup();
    const t2 = await start(b.session, b.clock, 'report');
    const end2 = await drive(b.clock, b.session.followTask(t2, { onUnanswered: 'stop' }).done);
    expect(end2).toMatchObject({ kind: 'needs-input', task: { status: 'input_required', inputRequests: { ok: { method: 'elicitation/create' } } } });
  });

  it('wakes on notifications/tasks from a listen without polling faster', async () => {
    const { clock, session, frames, gets } = setup();
    const task = await start(session, clock, 'slow_poll');
    const end = await drive(clock, session.followTask(task, { listen: true }).done);
    expect(end).toMatchObject({ kind: 'terminal', task: { status: 'completed', result: { content: [{ text: 'quick result' }] } } });
    // Completed at 1.2 s: the notification ended the wait long before the 5 s poll.
    expect(clock.now() - Date.parse(task.createdAt)).toBeLessThan(2_000);
    expect(gets()).toHaveLength(0);
    const listen = frames.find((f) => f.kind === 'http-request' && f.method === 'subscriptions/listen')!;
    expect(listen.body).toMatchObject({ params: { notifications: { taskIds: [task.taskId] } } });
    expect(frames.some((f) => f.kind === 'sse-frame' && f.method === 'notifications/tasks' && f.taskId === task.taskId)).toBe(true);
    expect(frames.filter((f) => f.kind === 'sse-close' && f.rpcId === (listen.rpcId as number)).map((f) => f.closeReason)).toEqual(['client-closed']);
  });
});
