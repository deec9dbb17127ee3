import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { createRandomIds } from '../../../lib/engine/runtime';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema, type ScenarioInput } from '../../../lib/scenario/schema';
import { createFakeClock } from '../../helpers/fake-clock';
import { CAPS, callTool, rpc, type RpcBody } from '../../helpers/rpc';

/** Cancel policies, the absolute run-time ceiling, id entropy and the 2025-11-25 experimental tasks. */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
function scenario(tools: ScenarioInput['tools'], extra: Partial<ScenarioInput> = {}) {
  return ScenarioSchema.parse({ id: 'tasks-test', server: { name: 't', version: '1' }, supportedVersions: ['2026-07-28', '2025-11-25'], tools, ...extra });
}
function setup(s: ReturnType<typeof scenario>) {
  const clock = createFakeClock();
  const engine = createMockEngine({ scenario: s, clock });
  engines.push(engine);
  return { engine, clock };
}
const get = (e: MockEngine, taskId: string) => rpc(e, 'tasks/get', { taskId }, { caps: CAPS.tasks });

describe('cancel policies', () => {
  const slow = (cancel: Record<string, unknown>) =>
    scenario([
      {
        name: 'job',
        description: 'slow',
        inputSchema: { type: 'object' },
        task: { steps: [{ statusMessage: 'busy', delayMs: 60_000 }, { result: text('done') }], cancel },
      },
    ]);

  it('honour: the ack is an empty complete result, the task ends cancelled', async () => {
    const { engine } = setup(slow({ policy: 'honour' }));
    const id = (await callTool(engine, 'job', {}, { caps: CAPS.tasks })).body.result.taskId;
    const ack = await rpc(engine, 'tasks/cancel', { taskId: id }, { caps: CAPS.tasks });
    expect(ack.body.result).toEqual({ resultType: 'complete' });
    expect((await get(engine, id)).body.result.status).toBe('cancelled');
  });

  it('ignore for N polls: stays working for N polls after the ack, then cancelled', async () => {
    const { engine } = setup(slow({ policy: 'ignore', ignorePolls: 3 }));
    const id = (await callTool(engine, 'job', {}, { caps: CAPS.tasks })).body.result.taskId;
    await rpc(engine, 'tasks/cancel', { taskId: id }, { caps: CAPS.tasks });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await get(engine, id)).body.result.status);
    expect(seen).toEqual(['working', 'working', 'working', 'cancelled']);
  });

  it('finish anyway: the cancel is acknowledged but the task completes', async () => {
    const { engine, clock } = setup(slow({ policy: 'finish' }));
    const id = (await callTool(engine, 'job', {}, { caps: CAPS.tasks })).body.result.taskId;
    await rpc(engine, 'tasks/cancel', { taskId: id }, { caps: CAPS.tasks });
    expect((await get(engine, id)).body.result.status).toBe('working');
    clock.advance(60_001);
    expect((await get(engine, id)).body.result).toMatchObject({ status: 'completed', result: text('done') });
  });
});

describe('absolute maximum run time', () => {
  it('fails a task that keeps reporting progress past its ceiling', async () => {
    const s = scenario([
      {
        name: 'forever',
        description: 'never ends',
        inputSchema: { type: 'object' },
        task: { maxRunMs: 10_000, steps: [{ progress: ['still going 1', 'still going 2', 'still going 3'], delayMs: 3_600_000 }, { result: text('never') }] },
      },
    ]);
    const { engine, clock } = setup(s);
    const id = (await callTool(engine, 'forever', {}, { caps: CAPS.tasks })).body.result.taskId;
    clock.advance(9_000);
    expect((await get(engine, id)).body.result.status).toBe('working');
    clock.advance(1_001);
    const snap = (await get(engine, id)).body.result;
    expect(snap.status).toBe('failed');
    expect(snap.error.message).toMatch(/maximum run time of 10000 ms/);
  });
});

describe('task ids', () => {
  it('carry at least 128 random bits and never repeat', async () => {
    const { engine } = setup(getBuiltinScenario('demo')!);
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add((await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks })).body.result.taskId);
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{26,}$/); // base64url of 20 bytes = 160 bits
  });

  it('never begin with "-", which a command line reads as an option', () => {
    // A bare base64url id began with "-" 1 time in 64: 5000 ids held at least one nearly surely.
    const ids = createRandomIds();
    const dashed = Array.from({ length: 5000 }, () => ids.taskId()).filter((id) => id.startsWith('-'));
    expect(dashed).toEqual([]);
    expect(ids.taskId()).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{26,}$/);
  });
});

describe('a taskId that is not a string', () => {
  it('is invalid params (-32602 naming taskId), not a header mismatch, when Mcp-Name carries the text of it', async () => {
    const { engine } = setup(scenario([{ name: 'job', description: 'slow', task: { steps: [{ delayMs: 60_000 }, { result: text('done') }] } }]));
    // A client that writes String(taskId) into Mcp-Name: the body, not the header, is what is wrong.
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const res = await rpc(engine, method, { taskId: 5 }, { caps: CAPS.tasks, headers: { 'Mcp-Name': '5' } });
      expect(res.body.error, method).toMatchObject({ code: -32602, message: expect.stringContaining('taskId must be a non-empty string') });
    }
    const call = await rpc(engine, 'tools/call', { name: 7, arguments: {} }, { caps: CAPS.tasks, headers: { 'Mcp-Name': '7' } });
    expect(call.body.error.code).toBe(-32602);
    // A string that differs is still the header's fault.
    const other = await rpc(engine, 'tasks/get', { taskId: 'abc' }, { caps: CAPS.tasks, headers: { 'Mcp-Name': 'xyz' } });
    expect(other.body.error).toMatchObject({ code: -32020, message: "Header mismatch: Mcp-Name header value 'xyz' does not match body value 'abc'" });
  });
});

describe('2025-11-25 experimental tasks', () => {
  const legacyHeaders = { 'MCP-Protocol-Version': '2025-11-25' };
  const s = scenario([
    { name: 'plain', description: 'sync only', inputSchema: { type: 'object' }, result: text('plain') },
    {
      name: 'job',
      description: 'task-capable',
      inputSchema: { type: 'object' },
      task: { steps: [{ statusMessage: 'busy', delayMs: 1_000 }, { result: text('job done') }] },
    },
    {
      name: 'must',
      description: 'task-required',
      inputSchema: { type: 'object' },
      task: { mode: 'required', steps: [{ delayMs: 1_000 }, { error: { code: -32603, message: 'boom' } }] },
    },
  ]);
  const legacy = (e: MockEngine, method: string, params: Record<string, unknown>) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: Math.floor(Math.random() * 1e9), method, params });
    return e
      .fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { Host: '127.0.0.1', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...legacyHeaders },
          body,
        }),
      )
      .then((r) => r.json() as Promise<RpcBody>);
  };

  it('initialize advertises tasks and tools/list carries execution.taskSupport', async () => {
    const { engine } = setup(s);
    const init = await engine
      .fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { Host: '127.0.0.1', 'Content-Type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
          }),
        }),
      )
      .then((r) => r.json() as Promise<RpcBody>);
    expect(init.result).toMatchObject({ protocolVersion: '2025-11-25', capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } });
    expect(init.result).not.toHaveProperty('resultType');
    const list = await legacy(engine, 'tools/list', {});
    const byName = Object.fromEntries(list.result.tools.map((t: { name: string; execution?: unknown }) => [t.name, t]));
    expect(byName.plain.execution).toBeUndefined();
    expect(byName.job.execution).toEqual({ taskSupport: 'optional' });
    expect(byName.must.execution).toEqual({ taskSupport: 'required' });
  });

  it('params.task creates a nested task; tasks/get, tasks/list and tasks/result use the legacy shapes', async () => {
    const { engine, clock } = setup(s);
    const created = await legacy(engine, 'tools/call', { name: 'job', arguments: {}, task: { ttl: 60_000 } });
    expect(created.result.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 1_000 });
    expect(created.result.task).not.toHaveProperty('ttlMs');
    const taskId = created.result.task.taskId;
    expect((await legacy(engine, 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working', ttl: 60_000 });
    expect((await legacy(engine, 'tasks/list', {})).result.tasks.map((t: { taskId: string }) => t.taskId)).toContain(taskId);
    const pending = legacy(engine, 'tasks/result', { taskId });
    clock.advance(1_001);
    const result = await pending;
    expect(result.result).toMatchObject({ content: [{ type: 'text', text: 'job done' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });
  });

  it('tasks/cancel returns the cancelled task; a terminal task answers -32602', async () => {
    const { engine } = setup(s);
    const taskId = (await legacy(engine, 'tools/call', { name: 'job', arguments: {}, task: {} })).result.task.taskId;
    expect((await legacy(engine, 'tasks/cancel', { taskId })).result).toMatchObject({ taskId, status: 'cancelled' });
    expect((await legacy(engine, 'tasks/cancel', { taskId })).error.code).toBe(-32602);
  });

  it('a required tool without params.task and a forbidden tool with it answer -32601', async () => {
    const { engine } = setup(s);
    expect((await legacy(engine, 'tools/call', { name: 'must', arguments: {} })).error.code).toBe(-32601);
    expect((await legacy(engine, 'tools/call', { name: 'plain', arguments: {}, task: {} })).error.code).toBe(-32601);
  });

  it('a failed task surfaces its JSON-RPC error through tasks/result', async () => {
    const { engine, clock } = setup(s);
    const taskId = (await legacy(engine, 'tools/call', { name: 'must', arguments: {}, task: {} })).result.task.taskId;
    clock.advance(1_001);
    const r = await legacy(engine, 'tasks/result', { taskId });
    expect(r.error).toMatchObject({ code: -32603, message: 'boom' });
  });
});
