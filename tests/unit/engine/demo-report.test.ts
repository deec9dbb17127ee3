import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { createMemoryStores } from '../../../lib/store/memory';
import { openSqliteStores } from '../../../lib/store/sqlite/sqlite-stores';
import type { Stores } from '../../../lib/store/types';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, TASKS_EXTENSION, buildRequest, callTool, rpc, type RpcOptions } from '../../helpers/rpc';

/** generate_report: a task that drafts, asks approve_outline, writes three sections and completes. */

const opened: { engine: MockEngine; stores: Stores }[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const { engine, stores } of opened.splice(0)) {
    engine.close();
    stores.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(options: { clock?: FakeClock; stores?: Stores; scenario?: ReturnType<typeof getBuiltinScenario> } = {}) {
  const clock = options.clock ?? createFakeClock();
  const stores = options.stores ?? createMemoryStores();
  const engine = createMockEngine({ scenario: options.scenario ?? getBuiltinScenario('demo')!, stores, clock });
  opened.push({ engine, stores });
  return { engine, stores, clock };
}

const both = (o: RpcOptions = {}): RpcOptions => ({ caps: CAPS.formAndTasks, ...o });

async function start(engine: MockEngine, size = 'large', o: RpcOptions = {}) {
  const r = await callTool(engine, 'generate_report', { size }, both(o));
  expect(r.status).toBe(200);
  return r.body.result as Record<string, unknown> & { taskId: string };
}

const get = (engine: MockEngine, taskId: string, o: RpcOptions = {}) => rpc(engine, 'tasks/get', { taskId }, both(o));
const update = (engine: MockEngine, taskId: string, response: unknown, o: RpcOptions = {}) =>
  rpc(engine, 'tasks/update', { taskId, inputResponses: { approve_outline: response } }, both(o));

async function toInputRequired(engine: MockEngine, clock: FakeClock) {
  const task = await start(engine);
  clock.advance(1_501);
  const snap = (await get(engine, task.taskId)).body.result;
  expect(snap.status).toBe('input_required');
  return task.taskId;
}

describe('generate_report', () => {
  it('without the tasks extension answers 400 with -32021 naming the extension', async () => {
    const { engine } = setup();
    for (const caps of [CAPS.none, CAPS.form]) {
      const r = await callTool(engine, 'generate_report', { size: 'small' }, { caps });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe(-32021);
      expect(r.body.error.message).toContain(TASKS_EXTENSION);
      expect(r.body.error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    }
  });

  it('with the extension returns a working task handle with the seed defaults', async () => {
    const { engine, clock } = setup();
    const task = await start(engine);
    expect(task).toEqual({
      resultType: 'task',
      taskId: expect.any(String),
      status: 'working',
      statusMessage: 'Drafting outline for a large report',
      createdAt: new Date(clock.now()).toISOString(),
      lastUpdatedAt: new Date(clock.now()).toISOString(),
      ttlMs: 900_000,
      pollIntervalMs: 1_000,
    });
    expect(task.taskId.length).toBeGreaterThanOrEqual(22);
    // Persisted before the reply: an immediate tasks/get finds it.
    const snap = await get(engine, task.taskId);
    expect(snap.body.result).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'working' });
  });

  it('runs working → input_required → working (progress) → completed on accept', async () => {
    const { engine, clock } = setup();
    const task = await start(engine);
    clock.advance(1_499);
    expect((await get(engine, task.taskId)).body.result.status).toBe('working');
    clock.advance(2);
    const asking = await get(engine, task.taskId);
    expect(asking.body.result).toMatchObject({
      resultType: 'complete',
      status: 'input_required',
      statusMessage: 'Waiting for the outline to be approved',
      inputRequests: {
        approve_outline: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: expect.stringContaining('large report'),
            requestedSchema: { type: 'object', properties: { approved: { type: 'boolean', title: 'Approve the outline?' } }, required: ['approved'] },
          },
        },
      },
    });
    expect(Object.keys(asking.body.result.inputRequests)).toEqual(['approve_outline']);
    // The same key reappears on every poll until it is answered.
    expect((await get(engine, task.taskId)).body.result.inputRequests).toEqual(asking.body.result.inputRequests);

    const ack = await update(engine, task.taskId, { action: 'accept', content: { approved: true } });
    expect(ack.status).toBe(200);
    expect(ack.body.result).toEqual({ resultType: 'complete' });

    const writing = (await get(engine, task.taskId)).body.result;
    expect(writing).toMatchObject({ status: 'working', statusMessage: 'Writing section 1 of 3' });
    expect(writing.inputRequests).toBeUndefined();
    clock.advance(600);
    expect((await get(engine, task.taskId)).body.result.statusMessage).toBe('Writing section 2 of 3');
    clock.advance(500);
    expect((await get(engine, task.taskId)).body.result.statusMessage).toBe('Writing section 3 of 3');
    clock.advance(500);
    const done = (await get(engine, task.taskId)).body.result;
    expect(done).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      statusMessage: 'Report ready',
      result: {
        content: [{ type: 'text', text: expect.stringContaining('Report ready: "Notes report (large)" with 3 sections') }],
        structuredContent: { generated: true, title: 'Notes report (large)', size: 'large', sections: 3 },
      },
    });
    expect(done.result.content[0].text).toContain('Outline approved: true');
    expect(done.result.isError).toBeUndefined();
    expect(done.error).toBeUndefined();
  });

  it('advances on its own timers without polling', async () => {
    const { engine, clock } = setup();
    const task = await start(engine);
    const changes: string[] = [];
    engine.on((e) => {
      if (e.type === 'task:changed') changes.push((e.data as { status: string }).status);
    });
    await clock.advanceAsync(1_600);
    expect(changes).toContain('input_required');
    expect((await engine.tasks.get(task.taskId))?.status).toBe('input_required');
  });

  it('pushes every progress message on its own timers (what listen streams see)', async () => {
    const { engine, clock } = setup();
    const taskId = await toInputRequired(engine, clock);
    const messages: string[] = [];
    engine.on((e) => {
      if (e.type === 'task:changed') messages.push(String((e.data as { statusMessage?: string }).statusMessage));
    });
    await update(engine, taskId, { action: 'accept', content: { approved: true } });
    await clock.advanceAsync(1_600);
    expect(messages).toEqual(['Writing section 1 of 3', 'Writing section 2 of 3', 'Writing section 3 of 3', 'Report ready']);
  });

  it('schedules from the injected clock, not the wall clock (no timer spin when the clock runs ahead)', async () => {
    const base = createFakeClock(Date.UTC(2100, 0, 1));
    let scheduled = 0;
    const clock: FakeClock = {
      ...base,
      setTimeout: (fn, ms) => {
        scheduled++;
        return base.setTimeout(fn, ms);
      },
    };
    const { engine } = setup({ clock });
    const task = await start(engine);
    base.advance(1_501);
    await update(engine, task.taskId, { action: 'accept', content: { approved: true } });
    scheduled = 0;
    base.advance(1_600);
    expect((await get(engine, task.taskId)).body.result.status).toBe('completed');
    expect(scheduled).toBeLessThan(10);
  });

  it('accept continues whatever the checkbox says, and the report records the answer', async () => {
    const { engine, clock } = setup();
    const taskId = await toInputRequired(engine, clock);
    await update(engine, taskId, { action: 'accept', content: { approved: false } });
    clock.advance(1_600);
    const done = (await get(engine, taskId)).body.result;
    expect(done.status).toBe('completed');
    expect(done.result.content[0].text).toContain('Outline approved: false');
  });

  it('decline completes with the refusal result', async () => {
    const { engine, clock } = setup();
    const taskId = await toInputRequired(engine, clock);
    expect((await update(engine, taskId, { action: 'decline' })).body.result).toEqual({ resultType: 'complete' });
    const done = (await get(engine, taskId)).body.result;
    expect(done).toMatchObject({
      status: 'completed',
      result: {
        content: [{ type: 'text', text: 'Report not generated: the outline was declined.' }],
        structuredContent: { generated: false, reason: 'declined' },
      },
    });
    expect(done.result.isError).toBeUndefined();
  });

  it('cancel (the elicitation answer) leaves it waiting for the outline, asked again under a fresh key', async () => {
    const { engine, clock } = setup();
    const taskId = await toInputRequired(engine, clock);
    expect((await update(engine, taskId, { action: 'cancel' })).body.result).toEqual({ resultType: 'complete' });
    clock.advance(10_000);
    const still = (await get(engine, taskId)).body.result;
    expect(still.status).toBe('input_required');
    // tasks.md: a key whose response was delivered is never sent again.
    expect(Object.keys(still.inputRequests)).toEqual(['approve_outline_2']);
    await rpc(engine, 'tasks/update', { taskId, inputResponses: { approve_outline_2: { action: 'accept', content: { approved: true } } } }, both({}));
    expect((await get(engine, taskId)).body.result.status).toBe('working');
  });

  it('refuses an answer that does not match requestedSchema with -32602', async () => {
    const { engine, clock } = setup();
    const taskId = await toInputRequired(engine, clock);
    const r = await update(engine, taskId, { action: 'accept', content: { approved: 'yes' } });
    expect(r.body.error.code).toBe(-32602);
    expect((await get(engine, taskId)).body.result.status).toBe('input_required');
  });

  it('tasks/cancel acknowledges, then the task is cancelled (working and input_required)', async () => {
    const { engine, clock } = setup();
    const working = await start(engine);
    const ack = await rpc(engine, 'tasks/cancel', { taskId: working.taskId }, both());
    expect(ack.body.result).toEqual({ resultType: 'complete' });
    expect((await get(engine, working.taskId)).body.result.status).toBe('cancelled');

    const asking = await toInputRequired(engine, clock);
    expect((await rpc(engine, 'tasks/cancel', { taskId: asking }, both())).body.result).toEqual({ resultType: 'complete' });
    const snap = (await get(engine, asking)).body.result;
    expect(snap.status).toBe('cancelled');
    expect(snap.inputRequests).toBeUndefined();
    // Cancel on a terminal task is the same idempotent ack.
    expect((await rpc(engine, 'tasks/cancel', { taskId: asking }, both())).body.result).toEqual({ resultType: 'complete' });
  });

  it('tasks methods need the extension, Mcp-Name must equal the taskId, and foreign principals see not found', async () => {
    const { engine } = setup();
    const task = await start(engine, 'small', { headers: { Authorization: 'Bearer owner' } });
    const noExt = await rpc(engine, 'tasks/get', { taskId: task.taskId }, { caps: CAPS.form, headers: { Authorization: 'Bearer owner' } });
    expect(noExt.status).toBe(400);
    expect(noExt.body.error.code).toBe(-32021);

    const { request } = buildRequest('tasks/get', { taskId: task.taskId }, both({ headers: { Authorization: 'Bearer owner' } }));
    expect(request.headers.get('Mcp-Name')).toBe(task.taskId);
    const mismatch = await rpc(engine, 'tasks/get', { taskId: task.taskId }, both({ headers: { Authorization: 'Bearer owner', 'Mcp-Name': 'someone-else' } }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe(-32020);

    const stranger = await get(engine, task.taskId, { headers: { Authorization: 'Bearer stranger' } });
    const unknown = await get(engine, 'no-such-task', { headers: { Authorization: 'Bearer stranger' } });
    expect(stranger.body.error).toEqual(unknown.body.error);
    expect(stranger.body.error.code).toBe(-32602);
  });

  it('expires 900 s after creation', async () => {
    const { engine, clock } = setup();
    const task = await start(engine);
    clock.advance(899_999);
    expect((await get(engine, task.taskId)).body.result.status).toBe('input_required');
    clock.advance(1);
    expect((await get(engine, task.taskId)).body.error.code).toBe(-32602);
  });

  it('survives a restart on the SQLite store (a new instance reloads it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-report-'));
    dirs.push(dir);
    const clock = createFakeClock();
    const first = setup({ clock, stores: openSqliteStores(dir) });
    const task = await start(first.engine);
    first.engine.close();
    first.stores.close();
    opened.splice(0);

    const second = setup({ clock, stores: openSqliteStores(dir) });
    clock.advance(1_501);
    expect((await get(second.engine, task.taskId)).body.result.status).toBe('input_required');
    await update(second.engine, task.taskId, { action: 'accept', content: { approved: true } });
    clock.advance(1_501);
    expect((await get(second.engine, task.taskId)).body.result).toMatchObject({ status: 'completed', result: { structuredContent: { sections: 3 } } });
  });
});

describe('an isError tool result completes the task', () => {
  it('a toolError step ends in completed with isError: true, not failed', async () => {
    const scenario = ScenarioSchema.parse({
      id: 'tool-error',
      server: { name: 'tool-error', version: '1.0.0' },
      tools: [
        {
          name: 'flaky_report',
          inputSchema: { type: 'object', properties: {}, required: [] },
          task: {
            mode: 'required',
            steps: [{ statusMessage: 'Working', delayMs: 1_000 }, { toolError: { content: [{ type: 'text', text: 'The report could not be written.' }] } }],
          },
        },
      ],
    });
    const { engine, clock } = setup({ scenario });
    const task = (await callTool(engine, 'flaky_report', {}, { caps: CAPS.tasks })).body.result;
    expect(task.resultType).toBe('task');
    clock.advance(1_001);
    const snap = (await rpc(engine, 'tasks/get', { taskId: task.taskId }, { caps: CAPS.tasks })).body.result;
    expect(snap).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'The report could not be written.' }] } });
    expect(snap.error).toBeUndefined();
  });
});
