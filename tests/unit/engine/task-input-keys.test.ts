import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { ScenarioSchema, type ScenarioInput } from '../../../lib/scenario/schema';
import { createFakeClock } from '../../helpers/fake-clock';
import { CAPS, callTool, rpc } from '../../helpers/rpc';

/**
 * Input request keys of a scripted task (ext-tasks tasks.md, Task Update Requests): a key is
 * never sent again once its response was delivered, so a client that remembers answered keys
 * is never left with a question it will not answer; the scenario's templates still reach the
 * answers by the names the scenario gave them.
 */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

const approve = {
  method: 'elicitation/create',
  params: { message: 'Approve?', requestedSchema: { type: 'object', properties: { v: { type: 'boolean' } } } },
};
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

function setup(steps: NonNullable<ScenarioInput['tools'][number]['task']>['steps']) {
  const scenario = ScenarioSchema.parse({
    id: 'keys-test',
    server: { name: 'k', version: '1' },
    tools: [{ name: 'approve', description: 'asks', inputSchema: { type: 'object' }, task: { steps } }],
  });
  const engine = createMockEngine({ scenario, clock: createFakeClock() });
  engines.push(engine);
  return engine;
}

async function start(engine: MockEngine) {
  const taskId = (await callTool(engine, 'approve', {}, { caps: CAPS.formAndTasks })).body.result.taskId as string;
  const get = async () => (await rpc(engine, 'tasks/get', { taskId }, { caps: CAPS.formAndTasks })).body.result;
  const answer = (inputResponses: Record<string, unknown>) => rpc(engine, 'tasks/update', { taskId, inputResponses }, { caps: CAPS.formAndTasks });
  return { get, answer };
}

describe('task input request keys', () => {
  it('asks again after a cancel answer under a fresh key, ignores the answered one, and the template reaches the new answer', async () => {
    const engine = setup([{ statusMessage: 'waiting', inputRequests: { ok: approve } }, { result: text('v={{inputs.ok.content.v}}') }]);
    const { get, answer } = await start(engine);
    expect(Object.keys((await get()).inputRequests)).toEqual(['ok']);
    expect((await answer({ ok: { action: 'cancel' } })).body.result).toEqual({ resultType: 'complete' });
    const again = await get();
    expect(again.status).toBe('input_required');
    expect(Object.keys(again.inputRequests)).toEqual(['ok_2']);
    expect(again.inputRequests.ok_2).toEqual(approve);
    // "ok" was answered: a late answer under it is ignored (tasks.md: already-satisfied keys).
    await answer({ ok: { action: 'accept', content: { v: false } } });
    expect(Object.keys((await get()).inputRequests)).toEqual(['ok_2']);
    await answer({ ok_2: { action: 'accept', content: { v: true } } });
    expect(await get()).toMatchObject({ status: 'completed', result: text('v=true') });
  });

  it('a later step asking a question by the same name sends it under a fresh key; the template sees the later answer', async () => {
    const engine = setup([
      { statusMessage: 'first', inputRequests: { ok: approve } },
      { statusMessage: 'second', inputRequests: { ok: approve } },
      { result: text('v={{inputs.ok.content.v}}') },
    ]);
    const { get, answer } = await start(engine);
    await answer({ ok: { action: 'accept', content: { v: true } } });
    const second = await get();
    expect(second).toMatchObject({ status: 'input_required', statusMessage: 'second' });
    expect(Object.keys(second.inputRequests)).toEqual(['ok_2']);
    await answer({ ok_2: { action: 'accept', content: { v: false } } });
    expect(await get()).toMatchObject({ status: 'completed', result: text('v=false') });
  });
});
