import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { loadScenarioFile } from '../../../lib/scenario/files';
import { formatIssues } from '../../../lib/scenario/loader';
import type { Scenario } from '../../../lib/scenario/schema';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock';
import { callTool, rpc, TASKS_EXTENSION } from '../../helpers/rpc';

/**
 * Every tool of examples/, called with arguments its inputSchema accepts and answered "accept"
 * wherever it asks, ends in a result whose structuredContent matches the tool's own outputSchema
 * (checked with ajv, as SDK clients do). The examples used to serve "3" for an integer and "true"
 * for a boolean, which such a client refuses.
 */

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '../../../examples');
const CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {}, extensions: { [TASKS_EXTENSION]: {}, 'io.modelcontextprotocol/ui': {} } };
type Json = Record<string, unknown>;

/** A value the JSON Schema `schema` accepts, for the simple schemas the examples use. */
function sample(schema: Json): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 3;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, sample(v)]));
    default:
      return schema.format === 'email' ? 'ada@example.com' : 'sample';
  }
}

/** An accepting answer to one input request. */
function answer(request: Json): unknown {
  const params = (request.params ?? {}) as Json;
  if (request.method === 'sampling/createMessage') return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
  if (request.method === 'roots/list') return { roots: [] };
  if (params.mode === 'url') return { action: 'accept' };
  return { action: 'accept', content: sample((params.requestedSchema ?? { type: 'object' }) as Json) };
}
const answers = (requests: Record<string, Json>) => Object.fromEntries(Object.entries(requests).map(([k, r]) => [k, answer(r)]));

/** Follows a task to its end: time passes, input is answered, a manual step is advanced. */
async function followTask(engine: MockEngine, clock: FakeClock, taskId: string): Promise<Json> {
  for (let i = 0; i < 20; i++) {
    const task = (await rpc(engine, 'tasks/get', { taskId }, { caps: CAPS })).body.result as Json;
    if (task.status === 'completed') return task.result as Json;
    if (task.status !== 'working' && task.status !== 'input_required') throw new Error(`task ended ${String(task.status)}`);
    if (task.status === 'input_required')
      await rpc(engine, 'tasks/update', { taskId, inputResponses: answers(task.inputRequests as Record<string, Json>) }, { caps: CAPS });
    else if (i % 2 === 1)
      await engine.tasks.control(taskId, { kind: 'advance' }); // still working after time passed: a manual step
    else clock.advance(30_000);
  }
  throw new Error('the task did not end');
}

/** Calls `tool` until it answers with a result, through MRTR rounds and tasks. */
async function finalResult(engine: MockEngine, clock: FakeClock, tool: Scenario['tools'][number]): Promise<Json> {
  const args = sample(tool.inputSchema) as Json;
  let extra: Json = {};
  for (let round = 0; round < 10; round++) {
    const { body } = await callTool(engine, tool.name, args, { caps: CAPS, extra });
    if (body.error) throw new Error(`${tool.name}: ${JSON.stringify(body.error)}`);
    const result = body.result as Json;
    if (result.resultType === 'task') return followTask(engine, clock, result.taskId as string);
    if (result.resultType !== 'input_required') return result;
    extra = { requestState: result.requestState, inputResponses: answers(result.inputRequests as Record<string, Json>) };
  }
  throw new Error(`${tool.name} kept asking`);
}

describe('examples/ tools against their own outputSchema', () => {
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  let withSchema = 0;

  for (const file of files) {
    it(`${file}: every tool answers, and structuredContent matches its outputSchema`, async () => {
      const parsed = loadScenarioFile(join(EXAMPLES, file));
      if (!parsed.ok) throw new Error(formatIssues(parsed.errors));
      // The faults example's faults are its point elsewhere (examples.test.ts); here only its tools are.
      const clock = createFakeClock();
      const engine = createMockEngine({ scenario: { ...parsed.scenario, faults: [] }, clock });
      try {
        for (const tool of parsed.scenario.tools) {
          const result = await finalResult(engine, clock, tool);
          expect([tool.name, Array.isArray(result.content)]).toEqual([tool.name, true]);
          if (!tool.outputSchema) continue;
          withSchema++;
          const validate = ajv.compile(tool.outputSchema);
          validate(result.structuredContent);
          expect([tool.name, result.structuredContent, validate.errors ?? []]).toEqual([tool.name, result.structuredContent, []]);
        }
      } finally {
        engine.close();
      }
    });
  }

  it('covers the examples that declare an outputSchema', () => {
    expect(withSchema).toBe(3);
  });
});
