import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { LINT_RULES, lintAll, type Exchange, type Lint, type LintId } from '../../../lib/protocol/lints';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import type { Scenario } from '../../../lib/scenario/schema';
import { createMemoryStores } from '../../../lib/store/memory';
import { createFakeClock } from '../../helpers/fake-clock';
import { CAPS } from '../../helpers/rpc';
import { capture, errorOf, resultOf, type CaptureOptions } from './capture';
import { createSchemaValidator } from '../../../lib/client/schema-validator';

/**
 * The mocks must speak the spec they lint: a representative session against each built-in
 * scenario (discover, lists, reads, MRTR rounds, task lifecycles, listen streams) produces no
 * error-level lint, the demo's full replay store included (-31023, outside the reserved range).
 */

const CLIENT_INFO = { 'io.modelcontextprotocol/clientInfo': { name: 'loupe-lint-test', version: '1.0.0' } };
const ALL_CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

/** A recording client: every exchange is kept with the fake clock's time. */
function session(scenario: Scenario) {
  const clock = createFakeClock();
  const engine = createMockEngine({
    scenario,
    stores: createMemoryStores({ replayMaxEntries: scenario.settings.replayStoreMaxEntries }),
    clock,
    secret: 'lint-test',
  });
  engines.push(engine);
  const log: Exchange[] = [];
  const send = async (method: string, params: Record<string, unknown> = {}, o: CaptureOptions = {}) => {
    const ex = await capture(engine, method, params, { at: clock.now(), ...o, meta: { ...CLIENT_INFO, ...(o.meta ?? {}) } });
    log.push(ex);
    return ex;
  };
  /** Start a request that needs the clock to move (progress, listen), advance, then await it. */
  const during = async <T>(pending: Promise<T>, ms: number[]) => {
    for (const step of ms) {
      await new Promise((r) => setTimeout(r, 5));
      clock.advance(step);
    }
    return pending;
  };
  return { engine, clock, log, send, during };
}

const errorsOf = (lints: Lint[][]) => lints.flatMap((l, i) => l.filter((x) => x.severity === 'error').map((x) => ({ exchange: i, ...x })));
const serverSide = (lints: Lint[][]) =>
  lints.flatMap((l, i) => l.filter((x) => LINT_RULES[x.id as LintId].party === 'server' && x.severity !== 'info').map((x) => ({ exchange: i, ...x })));

describe('lints on the demo mock', () => {
  it('a representative session has no error-level lint, the full replay store (-31023) included', async () => {
    const base = getBuiltinScenario('demo')!;
    const { log, send, during, clock } = session({ ...base, settings: { ...base.settings, replayStoreMaxEntries: 2 } });
    await send('server/discover');
    for (const m of ['tools/list', 'resources/list', 'prompts/list']) await send(m);
    await send('resources/read', { uri: 'notes://index' });
    await send('prompts/get', { name: 'summarize_notes', arguments: { style: 'bullet points' } });
    await send('completion/complete', { ref: { type: 'ref/prompt', name: 'summarize_notes' }, argument: { name: 'style', value: 'b' } });
    await send('tools/call', { name: 'echo', arguments: { text: 'héllo' } });
    await send('tools/call', { name: 'search_notes', arguments: {} });
    await send('tools/call', { name: 'workspace_read', arguments: { workspaceUri: 'file:///workspace/demo', path: 'README.md' } });
    for (const id of ['a', 'b'])
      await send('tools/call', { name: 'charge', arguments: { account: 'acct-7', amountCents: 1200, idempotencyKey: 'k-1' } }, { id: `charge-${id}` });

    // MRTR: accept, decline, then a third confirmation that finds the replay store full.
    const answers = [{ action: 'accept', content: { confirm: true } }, { action: 'decline' }, { action: 'accept', content: { confirm: true } }];
    for (const [i, answer] of answers.entries()) {
      const noteId = `note-${i + 1}`;
      const ask = await send('tools/call', { name: 'delete_note', arguments: { noteId } }, { caps: CAPS.form, id: `del-${i}` });
      expect(resultOf(ask).resultType).toBe('input_required');
      const state = resultOf(ask).requestState;
      const retry = await send(
        'tools/call',
        { name: 'delete_note', arguments: { noteId }, inputResponses: { confirm_delete: answer }, requestState: state },
        { caps: CAPS.form, id: `del-${i}-retry` },
      );
      if (i < 2) expect(resultOf(retry).resultType).toBe('complete');
      else expect(errorOf(retry).code).toBe(-31023);
    }

    // A task with a listen stream, polls at the advertised cadence, an approval and completion.
    const created = await send('tools/call', { name: 'generate_report', arguments: { size: 'small' } }, { caps: CAPS.formAndTasks });
    const taskId = resultOf(created).taskId as string;
    expect(resultOf(created).resultType).toBe('task');
    const done = (frames: unknown[]) => frames.some((f) => (f as { params?: { status?: string } }).params?.status === 'completed');
    const listen = send('subscriptions/listen', { notifications: { taskIds: [taskId], toolsListChanged: true } }, { caps: CAPS.formAndTasks, until: done });
    await new Promise((r) => setTimeout(r, 5));
    const poll = () => send('tasks/get', { taskId }, { caps: CAPS.formAndTasks });
    clock.advance(1_000);
    await poll();
    clock.advance(1_000);
    const asking = await poll();
    expect(resultOf(asking).status).toBe('input_required');
    await send('tasks/update', { taskId, inputResponses: { approve_outline: { action: 'accept', content: { approved: true } } } }, { caps: CAPS.formAndTasks });
    await poll();
    await during(Promise.resolve(), [1_000, 1_000]);
    const finished = await poll();
    expect(resultOf(finished).status).toBe('completed');
    expect((await listen).frames!.length).toBeGreaterThan(2);

    // A second task, cancelled and followed to its terminal status.
    const second = await send('tools/call', { name: 'generate_report', arguments: { size: 'large' } }, { caps: CAPS.formAndTasks });
    const secondId = resultOf(second).taskId as string;
    await send('tasks/cancel', { taskId: secondId }, { caps: CAPS.formAndTasks });
    clock.advance(1_000);
    const after = await send('tasks/get', { taskId: secondId }, { caps: CAPS.formAndTasks });
    expect(['cancelled', 'working']).toContain(resultOf(after).status);

    const lints = lintAll(log, {}, { validateSchema: createSchemaValidator() });
    // 2026-07-28 lets only the spec emit -32020..-32099: the full store's code sits outside it.
    expect(errorsOf(lints)).toEqual([]);
    expect(serverSide(lints)).toEqual([]);
  });

  it('answers to deliberately broken requests blame only the client', async () => {
    const { log, send } = session(getBuiltinScenario('demo')!);
    await send('tasks/list', {}, { caps: CAPS.tasks });
    await send('ping');
    await send('tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'Mcp-Name': 'other' } });
    await send('tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'MCP-Protocol-Version': null } });
    await send('tools/call', { name: 'generate_report', arguments: { size: 'small' } });
    await send('tasks/get', { taskId: 'nope' });
    const lints = lintAll(log, {}, { validateSchema: createSchemaValidator() });
    expect(serverSide(lints)).toEqual([]);
    const ids = lints.map((l) => l.filter((x) => x.severity === 'error').map((x) => x.id));
    expect(ids).toEqual([['tasks-removed-method'], [], ['header-mismatch'], ['header-missing'], [], ['task-method-undeclared']]);
    expect(lints[1].map((l) => l.id)).toContain('removed-method');
  });
});

describe('lints on the conformance mock', () => {
  it('a representative session has no error-level lint', async () => {
    const { log, send, during, clock } = session(getBuiltinScenario('conformance')!);
    await send('server/discover');
    for (const m of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) await send(m);
    await send('resources/read', { uri: 'test://static-text' });
    await send('resources/read', { uri: 'test://template/7/data' });
    await send('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    await send('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'te' } });
    await send('tools/call', { name: 'test_header_param', arguments: { region: 'us-west1' } }, { headers: { 'Mcp-Param-Region': 'us-west1' } });
    await during(send('tools/call', { name: 'test_tool_with_progress', arguments: {} }, { meta: { progressToken: 'p-1' } }), [60, 60, 60]);
    await during(send('tools/call', { name: 'test_tool_with_logging', arguments: {} }, { meta: { 'io.modelcontextprotocol/logLevel': 'info' } }), [10]);
    await send('tools/call', { name: 'test_logging_tool', arguments: {} });
    await send('tools/call', { name: 'test_missing_capability', arguments: {} });

    // MRTR: every kind, several keys, two rounds, and a prompt.
    const mrtr = async (method: string, target: Record<string, unknown>, answer: (requests: Record<string, { method: string }>) => Record<string, unknown>) => {
      let ex = await send(method, target, { caps: ALL_CAPS });
      for (let round = 0; resultOf(ex)?.resultType === 'input_required' && round < 3; round++) {
        const r = resultOf(ex);
        ex = await send(method, { ...target, inputResponses: answer(r.inputRequests), requestState: r.requestState }, { caps: ALL_CAPS });
      }
      expect(resultOf(ex).resultType).toBe('complete');
    };
    const answerAll = (requests: Record<string, { method: string }>) =>
      Object.fromEntries(
        Object.entries(requests).map(([k, req]) => [
          k,
          req.method === 'elicitation/create'
            ? {
                action: 'accept',
                content: k === 'confirm' ? { ok: true } : k === 'step2' ? { color: 'blue' } : k === 'user_context' ? { context: 'c' } : { name: 'Ada' },
              }
            : req.method === 'sampling/createMessage'
              ? { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'human', stopReason: 'endTurn' }
              : { roots: [{ uri: 'file:///work', name: 'work' }] },
        ]),
      );
    for (const tool of ['elicitation', 'sampling', 'list_roots', 'request_state', 'multiple_inputs', 'multi_round', 'capabilities']) {
      await mrtr('tools/call', { name: `test_input_required_result_${tool}`, arguments: {} }, answerAll);
    }
    await mrtr('prompts/get', { name: 'test_input_required_result_prompt' }, answerAll);

    // Tasks: completed, tool error, protocol error, input through tasks/update, MRTR then task.
    const tasks = { caps: CAPS.formAndTasks };
    const follow = async (taskId: string, steps: number, answer?: Record<string, unknown>) => {
      for (let i = 0; i < steps; i++) {
        clock.advance(500);
        const snap = await send('tasks/get', { taskId }, tasks);
        if (resultOf(snap).status === 'input_required' && answer) await send('tasks/update', { taskId, inputResponses: answer }, tasks);
        if (['completed', 'failed', 'cancelled'].includes(resultOf(snap).status)) return resultOf(snap);
      }
      throw new Error(`task ${taskId} did not finish`);
    };
    const start = async (name: string, args: Record<string, unknown> = {}) =>
      resultOf(await send('tools/call', { name, arguments: args }, tasks)).taskId as string;
    expect((await follow(await start('slow_compute', { seconds: 1, label: 'x' }), 6)).status).toBe('completed');
    expect((await follow(await start('failing_job'), 6)).result.isError).toBe(true);
    expect((await follow(await start('protocol_error_job'), 6)).error.code).toBe(-32603);
    const confirm = await start('confirm_delete', { filename: 'a.txt' });
    const listen = send('subscriptions/listen', { notifications: { taskIds: [confirm], toolsListChanged: true } }, { ...tasks, until: (f) => f.length >= 2 });
    await new Promise((r) => setTimeout(r, 5));
    expect((await follow(confirm, 6, { confirm: { action: 'accept', content: { confirm: true } } })).status).toBe('completed');
    await listen;
    const round1 = await send('tools/call', { name: 'test_tool_with_task', arguments: {} }, tasks);
    const round2 = await send(
      'tools/call',
      {
        name: 'test_tool_with_task',
        arguments: {},
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: resultOf(round1).requestState,
      },
      tasks,
    );
    expect((await follow(resultOf(round2).taskId, 6)).status).toBe('completed');

    // Listen for list changes, then trigger one.
    const changes = send('subscriptions/listen', { notifications: { toolsListChanged: true, promptsListChanged: true } }, { until: (f) => f.length >= 2 });
    await new Promise((r) => setTimeout(r, 5));
    await send('tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    expect((await changes).frames).toHaveLength(2);

    const lints = lintAll(log, {}, { validateSchema: createSchemaValidator() });
    expect(errorsOf(lints)).toEqual([]);
    expect(serverSide(lints)).toEqual([]);
  });
});
