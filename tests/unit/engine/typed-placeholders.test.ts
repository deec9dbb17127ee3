import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { formatIssues, parseScenario } from '../../../lib/scenario/loader';
import { createFakeClock } from '../../helpers/fake-clock';
import { CAPS, callTool, rpc } from '../../helpers/rpc';

/**
 * In structuredContent and _meta, a string that is exactly one placeholder is the value with its
 * JSON type: `n: "{{args.n}}"` with n = 3 is served as 3. It was served as "3", which broke the
 * tool's own outputSchema (an SDK client throws "Structured content does not match the tool's
 * output schema"). Text the protocol wants as text, and longer strings, still render text.
 */

const SCENARIO = `id: typed
server: { name: t, version: "1" }
tools:
  - name: echo
    outputSchema: { type: object, properties: { n: { type: integer } } }
    result:
      _meta: { io.example/count: "{{args.n}}" }
      content: [{ type: text, text: "{{args.n}}" }]
      structuredContent:
        n: "{{args.n}}"
        ok: "{{args.ok}}"
        obj: "{{args.obj}}"
        nothing: "{{args.nothing}}"
        missing: "{{args.missing}}"
        spaced: "{{ args.n }}"
        label: "n = {{args.n}}"
        two: "{{args.n}}{{args.n}}"
        list: ["{{args.n}}", "{{args.ok}}"]
  - name: proto
    result:
      content: [{ type: text, text: "[{{args.toString}}][{{args.__proto__}}]" }]
      structuredContent: { c: "{{args.constructor}}", p: "{{args.__proto__}}" }
  - name: job
    task:
      steps:
        - { statusMessage: "{{args.n}}", delayMs: 10 }
        - result: { content: [], structuredContent: { n: "{{args.n}}", task: "{{taskId}}" } }
`;

let engine: MockEngine | undefined;
afterEach(() => {
  engine?.close();
  engine = undefined;
});

function serve(clock = createFakeClock()): MockEngine {
  const parsed = parseScenario(SCENARIO, 'typed.yaml');
  if (!parsed.ok) throw new Error(formatIssues(parsed.errors));
  engine = createMockEngine({ scenario: parsed.scenario, clock });
  return engine;
}

describe('typed placeholders', () => {
  it('serves an exact placeholder in structuredContent and _meta with its JSON type, and text elsewhere', async () => {
    const args = { n: 3, ok: true, obj: { a: [1, null] }, nothing: null };
    const { body } = await callTool(serve(), 'echo', args);
    expect(body.result.structuredContent).toEqual({
      n: 3,
      ok: true,
      obj: { a: [1, null] },
      nothing: null,
      missing: '',
      spaced: 3,
      label: 'n = 3',
      two: '33',
      list: [3, true],
    });
    expect(body.result._meta).toEqual({ 'io.example/count': 3 });
    expect(body.result.content).toEqual([{ type: 'text', text: '3' }]);
  });

  it('reads only the arguments sent: a name Object.prototype holds renders as missing, and an own "__proto__" as sent', async () => {
    const e = serve();
    const none = await callTool(e, 'proto', {});
    expect(none.body.error).toBeUndefined();
    expect(none.body.result.structuredContent).toEqual({ c: '', p: '' });
    expect(none.body.result.content).toEqual([{ type: 'text', text: '[][]' }]);
    const own = await callTool(e, 'proto', JSON.parse('{"__proto__":{"x":1},"constructor":"mine"}'));
    expect(JSON.stringify(own.body.result.structuredContent)).toBe('{"c":"mine","p":{"x":1}}');
  });

  it('gives every call its own copy of an argument it serves', async () => {
    const e = serve();
    const first = await callTool(e, 'echo', { n: 1, obj: { a: [1] } });
    const second = await callTool(e, 'echo', { n: 2, obj: { a: [2] } });
    expect([first.body.result.structuredContent.obj, second.body.result.structuredContent.obj]).toEqual([{ a: [1] }, { a: [2] }]);
  });

  it('types a task result the same way, while its status message stays text', async () => {
    const clock = createFakeClock();
    const e = serve(clock);
    const created = await callTool(e, 'job', { n: 7 }, { caps: CAPS.tasks });
    expect(created.body.result.statusMessage).toBe('7');
    const taskId: string = created.body.result.taskId;
    clock.advance(20);
    const done = (await rpc(e, 'tasks/get', { taskId }, { caps: CAPS.tasks })).body.result;
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { n: 7, task: taskId } } });
  });
});
