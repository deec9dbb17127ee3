import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { createFaultInjector, createSharedFaultInjector } from '../../../lib/engine/faults';
import { FaultSchema } from '../../../lib/scenario/fault-schema';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { createMemoryStores } from '../../../lib/store/memory';
import type { Stores } from '../../../lib/store/types';
import { createFakeClock, flushAsync, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, buildRequest, callTool, parseSse, rpc } from '../../helpers/rpc';

/**
 * A fleet in one process: engines sharing one memory store marked shared behave as instances
 * sharing PostgreSQL do (fault counters and PRNG states, the journal, task leases), on a fake clock.
 */

const scenario = (faults: unknown[]) =>
  ScenarioSchema.parse({
    id: 'fleet',
    name: 'Fleet',
    server: { name: 'fleet', version: '1.0.0' },
    tools: [
      { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' }, result: { content: [{ type: 'text', text: 'hi' }] } },
      {
        name: 'pay',
        description: 'A side effect',
        inputSchema: { type: 'object', properties: { amount: { type: 'integer' }, idempotencyKey: { type: 'string' } } },
        result: { content: [{ type: 'text', text: 'paid' }] },
      },
      {
        name: 'job',
        description: 'A task',
        inputSchema: { type: 'object' },
        task: { mode: 'required', steps: [{ statusMessage: 'Working', delayMs: 1_000 }, { result: { content: [{ type: 'text', text: 'done' }] } }] },
      },
    ],
    faults,
  });

const opened: { engines: MockEngine[]; stores: Stores }[] = [];
afterEach(async () => {
  for (const { engines, stores } of opened.splice(0)) {
    for (const engine of engines) engine.close();
    await stores.close();
  }
});

function fleetOf(n: number, faults: unknown[], clock: FakeClock = createFakeClock()) {
  const stores = createMemoryStores({ shared: true });
  const s = scenario(faults);
  const engines = Array.from({ length: n }, () => createMockEngine({ scenario: s, stores, clock, leaseMs: 900 }));
  opened.push({ engines, stores });
  return { engines, stores, clock };
}

describe('fault counters of a fleet', () => {
  it('fire on the same requests, spread over instances, as on one instance with the same seed', async () => {
    const f = FaultSchema.parse({ name: 'coin', match: { probability: 0.4 }, action: { kind: 'latency', distribution: 'uniform', min: 0, max: 9 } });
    const local = createFaultInjector([f], 'seed');
    const stores = createMemoryStores({ shared: true });
    const a = createSharedFaultInjector([f], 'seed', stores.faults, 'sc', () => {});
    const b = createSharedFaultInjector([f], 'seed', stores.faults, 'sc', () => {});
    const alone: unknown[] = [];
    const spread: unknown[] = [];
    for (let i = 0; i < 40; i += 1) {
      alone.push(local.plan({ method: 'tools/list' })?.delayMs);
      spread.push((await (i % 3 ? a : b).plan({ method: 'tools/list' }))?.delayMs);
    }
    expect(spread).toEqual(alone);
    expect(alone.filter((d) => d !== undefined).length).toBeGreaterThan(5);
    await stores.close();
  });

  it('count nth over every instance: the second tools/list fails wherever it lands', async () => {
    const { engines } = fleetOf(2, [{ match: { method: 'tools/list', nth: 2 }, action: { kind: 'http-status', status: 503 } }]);
    // The fault answers a bare 503 (no JSON), so the requests are built by hand.
    const list = (e: MockEngine) =>
      e.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'mcp-method': 'tools/list', 'mcp-protocol-version': '2026-07-28' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/list',
            params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
          }),
        }),
      );
    expect((await list(engines[0]!)).status).toBe(200);
    expect((await list(engines[1]!)).status).toBe(503);
    expect((await list(engines[0]!)).status).toBe(200);
  });
});

describe('the journal of a fleet', () => {
  it('grades both instances on either report card, renumbered in time order', async () => {
    const { engines, clock } = fleetOf(2, []);
    const grade = (card: { grades: { id: string }[] }) => card.grades.find((g) => g.id === 'idempotency-keys');
    await rpc(engines[1]!, 'tools/list');
    clock.advance(5);
    // The same payment without a key, once on each instance.
    await callTool(engines[0]!, 'pay', { amount: 5 }, { caps: CAPS.none });
    clock.advance(5);
    await callTool(engines[1]!, 'pay', { amount: 5 }, { caps: CAPS.none });
    await flushAsync();
    expect(grade(engines[1]!.reportCard())).toMatchObject({ status: 'pass', evidence: [2] });
    // Fleet seqs in time order: B's tools/list #1, A's pay #2, B's pay #3.
    expect(grade(await engines[1]!.fleetReportCard())).toMatchObject({ status: 'fail', evidence: [2, 3] });
    expect(grade(await engines[0]!.fleetReportCard())).toMatchObject({ status: 'fail', evidence: [2, 3] });
    // reset clears the fleet's journal with the counters.
    await engines[1]!.reset();
    expect(grade(await engines[0]!.fleetReportCard())).toMatchObject({ status: 'not-observed' });
  });
});

describe('instance faults', () => {
  it('instance-down: every request to that instance fails for the window, the others serve', async () => {
    const { engines, clock } = fleetOf(2, [{ match: { method: 'tools/call', tool: 'echo', nth: 1 }, action: { kind: 'instance-down', ms: 1_000 } }]);
    const echo = (e: MockEngine) => callTool(e, 'echo', {}, { caps: CAPS.none });
    // Response.error(): the network error a fetch() of a dead instance gives (status 0, no body).
    expect((await echo(engines[0]!)).status).toBe(0);
    expect((await rpc(engines[0]!, 'tools/list')).status).toBe(0);
    expect((await echo(engines[1]!)).body.result.content[0].text).toBe('hi');
    clock.advance(1_000);
    expect((await echo(engines[0]!)).body.result.content[0].text).toBe('hi');
    // The cut request is journaled as dropped, with the fault's name.
    expect(engines[0]!.journal.entries()[0]).toMatchObject({ method: 'tools/call', end: 'dropped', fault: 'instance-down#1' });
  });

  it('instance-skew: a lagging instance answers the state it last served, or not found, until the window ends', async () => {
    const { engines, clock } = fleetOf(2, [{ name: 'lag', match: { method: 'tasks/get', nth: 3 }, action: { kind: 'instance-skew', ms: 2_000 } }]);
    const [a, b] = [engines[0]!, engines[1]!];
    const created = await callTool(a, 'job', {}, { caps: CAPS.tasks });
    const taskId = created.body.result.taskId as string;
    const other = (await callTool(a, 'job', {}, { caps: CAPS.tasks })).body.result.taskId as string;
    const get = async (e: MockEngine, id: string) => (await rpc(e, 'tasks/get', { taskId: id }, { caps: CAPS.tasks })).body;
    expect((await get(b, taskId)).result.status).toBe('working');
    expect((await get(a, taskId)).result.status).toBe('working');
    await clock.advanceAsync(1_000);
    // The third tasks/get of the fleet lands on B: B lags. It served taskId as working, never `other`.
    expect((await get(b, taskId)).result.status).toBe('working');
    expect((await get(b, other)).error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    expect((await get(a, taskId)).result.status).toBe('completed');
    clock.advance(2_000);
    expect((await get(b, taskId)).result.status).toBe('completed');
    expect((await get(b, other)).result.status).toBe('completed');
  });
});

/** A 2025-11-25 connection to an engine (its message face), initialized; `call` sends one request and resolves with its response. */
async function legacyPeer(engine: MockEngine) {
  const face = engine.connect();
  let next = 0;
  // biome-ignore lint/suspicious/noExplicitAny: responses of several methods, asserted on at run time
  const call = (method: string, params: Record<string, unknown> = {}): Promise<any> =>
    new Promise((resolve) => {
      const id = ++next;
      void face({ jsonrpc: '2.0', id, method, params }, (m) => {
        const msg = m as { id?: unknown };
        if (msg.id === id) resolve(m);
      });
    });
  await call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } });
  return call;
}

/** The first task status a listen stream on `engine` sends for `taskId`. */
async function firstListenStatus(engine: MockEngine, taskId: string): Promise<string | undefined> {
  const { request } = buildRequest('subscriptions/listen', { notifications: { taskIds: [taskId] } }, { caps: CAPS.tasks, id: 'l-1' });
  const reader = (await engine.fetch(request)).body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const frames = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)) as { method?: string; params?: { status?: string } }[];
    const status = frames.find((m) => m.method === 'notifications/tasks')?.params?.status;
    if (status) {
      await reader.cancel();
      return status;
    }
    const { done, value } = await reader.read();
    if (done) return undefined;
    text += decoder.decode(value, { stream: true });
  }
}

describe('instance-skew: every read a lagging replica answers', () => {
  it("a listen stream's first snapshot is the lagging instance's stale one; the others and the window's end show the task as it is", async () => {
    const { engines, clock } = fleetOf(2, [{ match: { method: 'tasks/get', nth: 2 }, action: { kind: 'instance-skew', ms: 2_000 } }]);
    const [a, b] = [engines[0]!, engines[1]!];
    const taskId = (await callTool(a, 'job', {}, { caps: CAPS.tasks })).body.result.taskId as string;
    const get = async (e: MockEngine) => (await rpc(e, 'tasks/get', { taskId }, { caps: CAPS.tasks })).body;
    expect((await get(b)).result.status).toBe('working');
    await clock.advanceAsync(1_000);
    // The fleet's second tasks/get makes B lag: it still shows the task working.
    expect((await get(b)).result.status).toBe('working');
    expect(await firstListenStatus(b, taskId)).toBe('working');
    expect(await firstListenStatus(a, taskId)).toBe('completed');
    clock.advance(2_000);
    expect(await firstListenStatus(b, taskId)).toBe('completed');
  });

  it("2025-11-25's tasks/get, tasks/list and tasks/result answer from the stale view; tasks/cancel goes to the primary", async () => {
    const { engines, clock } = fleetOf(2, [{ match: { method: 'tasks/get', nth: 2 }, action: { kind: 'instance-skew', ms: 2_000 } }]);
    const [a, b] = [engines[0]!, engines[1]!];
    const [onA, onB] = [await legacyPeer(a), await legacyPeer(b)];
    const job = async () => (await onA('tools/call', { name: 'job', arguments: {}, task: {} })).result.task.taskId as string;
    const seen = await job();
    expect((await onB('tasks/list')).result.tasks.map((t: { taskId: string; status: string }) => [t.taskId, t.status])).toEqual([[seen, 'working']]);
    const unseen = await job();
    const cancelled = await job();
    await clock.advanceAsync(1_000);
    // Faults match HTTP requests: two tasks/get of the fleet over HTTP, the second on B, make B lag.
    for (const e of [a, b]) await rpc(e, 'tasks/get', { taskId: 'no-such-task' }, { caps: CAPS.tasks });
    expect((await onB('tasks/get', { taskId: seen })).result.status).toBe('working');
    expect((await onB('tasks/list')).result.tasks.map((t: { taskId: string; status: string }) => [t.taskId, t.status])).toEqual([[seen, 'working']]);
    expect((await onB('tasks/result', { taskId: unseen })).error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    expect((await onB('tasks/get', { taskId: unseen })).error).toMatchObject({ code: -32602 });
    // A write is the primary's: B cancels a task it never saw, and A sees it ended (completed before the cancel landed).
    expect((await onB('tasks/cancel', { taskId: cancelled })).error).toMatchObject({ message: expect.stringContaining('already completed') });
    clock.advance(2_000);
    const statuses = (await onB('tasks/list')).result.tasks.map((t: { status: string }) => t.status);
    expect(statuses).toEqual(['completed', 'completed', 'completed']);
    expect((await onB('tasks/result', { taskId: unseen })).result.content).toEqual([{ type: 'text', text: 'done' }]);
  });
});

describe('task leases', () => {
  it('the creator runs the timed step; when it dies another instance adopts the task and finishes it', async () => {
    const { engines, stores, clock } = fleetOf(2, []);
    const [a, b] = [engines[0]!, engines[1]!];
    const taskId = (await callTool(a, 'job', {}, { caps: CAPS.tasks })).body.result.taskId as string;
    await flushAsync();
    const creator = (await stores.leases.holder(taskId))?.owner;
    expect(creator).toBeDefined();
    // A dies before its timer fires: its timers and renewals stop.
    a.close();
    // B polls nothing; its lease keeper finds the lapsed lease, adopts the task and runs the step.
    for (let t = 0; t < 4_000; t += 100) await clock.advanceAsync(100);
    expect((await b.tasks.get(taskId))?.status).toBe('completed');
    expect((await stores.leases.holder(taskId))?.owner).not.toBe(creator);
  });
});
