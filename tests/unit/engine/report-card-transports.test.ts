import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import type { Grade, ReportCard } from '../../../lib/engine/report-card';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { reportCardToJUnit } from '../../../lib/server/report-card-junit';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, callTool, rpc } from '../../helpers/rpc';

/**
 * The report card beyond 2026-07-28 over HTTP: a client on stdio (the message face journals each
 * message) and a 2025-11-25 client over HTTP (nested task on creation, `pollInterval`,
 * tasks/result). The rules that rest on JSON-RPC traffic grade them; the ones that rest on HTTP
 * headers or on 2026-07-28 say what they saw instead of "nothing was seen", and never fail a
 * client for a header its transport or era does not have.
 */

const demo = getBuiltinScenario('demo')!;
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const scenario = ScenarioSchema.parse({
  ...demo,
  tools: [
    ...demo.tools,
    { name: 'job', description: 'Two timed steps, then done', task: { steps: [{ statusMessage: 'Working', delayMs: 1_500 }, { result: text('done') }] } },
    { name: 'long_job', description: 'Runs for a minute', task: { steps: [{ statusMessage: 'Working', delayMs: 60_000 }, { result: text('done') }] } },
  ],
});
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': CAPS.formAndTasks };

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});
function setup(s = scenario): { engine: MockEngine; clock: FakeClock } {
  const clock = createFakeClock();
  const engine = createMockEngine({ scenario: s, clock });
  engines.push(engine);
  return { engine, clock };
}
const grades = (card: ReportCard) => Object.fromEntries(card.grades.map((g) => [g.id, g])) as Record<string, Grade>;
// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages the tests reach into
type Message = Record<string, any>;

/** A stdio connection: every message the server wrote, and a request helper that returns its answer. */
function stdio(engine: MockEngine) {
  const face = engine.connect();
  const sent: Message[] = [];
  const send = (m: unknown) => sent.push(m as Message);
  const request = async (id: string | number, method: string, params: Record<string, unknown>, meta: Record<string, unknown> | null = META) => {
    await face({ jsonrpc: '2.0', id, method, params: meta ? { ...params, _meta: meta } : params }, send);
    return sent.find((m) => m.id === id && ('result' in m || 'error' in m))!;
  };
  return { face, sent, send, request };
}

describe('report card: a 2026-07-28 client over stdio', () => {
  it('journals each message (marked stdio, no headers or status) and grades its polling; Mcp-Name and Retry-After say stdio has no such header', async () => {
    const { engine, clock } = setup();
    const s = stdio(engine);
    const created = (await s.request('create', 'tools/call', { name: 'job', arguments: {} })).result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    let status = 'working';
    for (let i = 0; status !== 'completed' && i < 10; i++) {
      clock.advance(created.pollIntervalMs);
      status = (await s.request(`poll-${i}`, 'tasks/get', { taskId: created.taskId })).result.status;
    }
    expect(status).toBe('completed');

    const entries = engine.journal.entries();
    expect(entries.length).toBeGreaterThan(2);
    for (const e of entries) expect(e).toMatchObject({ transport: 'stdio', requestHeaders: {}, status: undefined, principal: `${scenario.id}:stdio` });
    expect(entries[0]!.responseBody).toMatchObject({ id: 'create', result: { resultType: 'task' } });

    const g = grades(engine.reportCard());
    expect(g['poll-cadence']!.status).toBe('pass');
    expect(g['stops-at-terminal']!.status).toBe('pass');
    expect(g['extension-declared']!.status).toBe('pass');
    expect(g['mcp-name']).toMatchObject({
      status: 'not-observed',
      detail: expect.stringMatching(/^\d+ tasks requests came over stdio, which carries no Mcp-Name header\.$/),
    });
    expect(g['honours-retry-after']).toMatchObject({
      status: 'not-observed',
      detail: expect.stringContaining('over stdio, which has no HTTP status or Retry-After header'),
    });
    expect(engine.reportCard().warning).toBeUndefined();
  });

  it('fails a stdio client that polls too fast and takes a cancel ack as final, never for a missing header', async () => {
    const { engine, clock } = setup();
    const s = stdio(engine);
    const { taskId } = (await s.request('create', 'tools/call', { name: 'long_job', arguments: {} })).result;
    await s.request('p1', 'tasks/get', { taskId });
    clock.advance(100);
    await s.request('p2', 'tasks/get', { taskId });
    expect((await s.request('cancel', 'tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete' });
    clock.advance(10_000);
    const g = grades(engine.reportCard());
    expect(g['poll-cadence']).toMatchObject({ status: 'fail', detail: expect.stringContaining('100 ms after') });
    expect(g['cancel-ack-not-final']!.status).toBe('fail');
    expect(g['mcp-name']!.status).toBe('not-observed');
    expect(g['relisten-without-last-event-id']!.status).toBe('not-observed');
  });

  it("journals what the server sent while answering as the request's frames, and the client's own response as an entry", async () => {
    const { engine } = setup();
    const s = stdio(engine);
    await s.request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: CAPS.form, clientInfo: { name: 'old', version: '1' } }, null);
    // Answer the server's request the way a 2025-11-25 client does: a response with its id.
    const answering = (m: unknown) => {
      s.send(m);
      const msg = m as Message;
      if (msg.method === 'elicitation/create') void s.face({ jsonrpc: '2.0', id: msg.id, result: { action: 'accept', content: { confirm: true } } }, s.send);
    };
    await s.face({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_note', arguments: { noteId: 'note-2' } } }, answering);
    const ask = s.sent.find((m) => m.method === 'elicitation/create')!;
    const entries = engine.journal.entries();
    const callEntry = entries.find((e) => e.id === 2)!;
    expect(callEntry.frames.map((f) => (f.message as Message).method)).toEqual(['elicitation/create']);
    expect(callEntry.responseBody).toMatchObject({ id: 2, result: { structuredContent: { deleted: true } } });
    expect(entries.some((e) => e.method === undefined && (e.requestBody as Message).id === ask.id)).toBe(true);
  });
});

/** A 2025-11-25 session over HTTP: initialize, then requests under its Mcp-Session-Id. */
async function legacyHttp(engine: MockEngine) {
  let session = '';
  let n = 0;
  const post = async (method: string, params: Record<string, unknown>) => {
    const res = await engine.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          Host: '127.0.0.1',
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(session ? { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }),
      }),
    );
    session ||= res.headers.get('mcp-session-id') ?? '';
    const body = await res.text();
    return JSON.parse(res.headers.get('content-type')?.includes('event-stream') ? /^data: (.+)$/m.exec(body)![1]! : body) as Message;
  };
  await post('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sdk-1', version: '1' } });
  expect(session).not.toBe('');
  return post;
}

describe('report card: a 2025-11-25 client over HTTP', () => {
  it('grades poll cadence (pollInterval) and the stop at terminal; the 2026-07-28 rules say what came instead of "nothing was seen"', async () => {
    const { engine, clock } = setup();
    const post = await legacyHttp(engine);
    const created = (await post('tools/call', { name: 'job', arguments: {}, task: { ttl: 60_000 } })).result;
    expect(created.task).toMatchObject({ status: 'working', pollInterval: expect.any(Number) });
    expect(created).not.toHaveProperty('resultType');
    let task: Message = created.task;
    let polls = 0;
    while (task.status !== 'completed' && polls < 10) {
      clock.advance(task.pollInterval);
      task = (await post('tasks/get', { taskId: task.taskId })).result;
      polls++;
    }
    expect(task.status).toBe('completed');
    expect((await post('tasks/result', { taskId: task.taskId })).result).toMatchObject(text('done'));
    // A cancel in this era is answered with the cancelled task: no follow-up is owed.
    const other = (await post('tools/call', { name: 'long_job', arguments: {}, task: {} })).result.task;
    expect((await post('tasks/cancel', { taskId: other.taskId })).result).toMatchObject({ status: 'cancelled' });
    clock.advance(10_000);

    const card = engine.reportCard();
    const g = grades(card);
    expect(g['poll-cadence']).toMatchObject({ status: 'pass', detail: expect.stringContaining('polls checked') });
    expect(g['stops-at-terminal']).toMatchObject({ status: 'pass', detail: expect.stringContaining('2 tasks') });
    expect(g['mcp-name']).toMatchObject({
      status: 'not-observed',
      detail: `${polls + 1} tasks requests came from a 2025-11-25 client; this rule is about 2026-07-28 clients.`,
    });
    expect(g['extension-declared']).toMatchObject({
      status: 'not-observed',
      detail: expect.stringContaining('came from a 2025-11-25 client, which opts in per call with params.task'),
    });
    expect(g['cancel-ack-not-final']).toMatchObject({
      status: 'not-observed',
      detail: expect.stringContaining('1 tasks/cancel came from a 2025-11-25 client'),
    });
    expect(card.warning).toBeUndefined();
  });

  it('fails a 2025-11-25 client that polls faster than the pollInterval it was given', async () => {
    const { engine, clock } = setup();
    const post = await legacyHttp(engine);
    const { task } = (await post('tools/call', { name: 'long_job', arguments: {}, task: {} })).result;
    await post('tasks/get', { taskId: task.taskId });
    clock.advance(50);
    await post('tasks/get', { taskId: task.taskId });
    expect(grades(engine.reportCard())['poll-cadence']).toMatchObject({ status: 'fail', detail: expect.stringContaining('50 ms after') });
  });
});

describe('report card: a 2026-07-28 request is graded as one, whatever else it carries', () => {
  it('takes the era from _meta, as the server did: a stale params.task or a 2025-11-25 header makes no 2025-11-25 client', async () => {
    const { engine } = setup();
    // A task-only tool without the extension, with a leftover 2025-11-25 opt-in: refused -32021 and never retried.
    const call = await rpc(engine, 'tools/call', { name: 'generate_report', arguments: { size: 'small' }, task: { ttl: 60_000 } }, { caps: CAPS.form });
    expect(call.body.error.code).toBe(-32021);
    const created = await callTool(engine, 'job', {}, { caps: CAPS.formAndTasks });
    const taskId = created.body.result.taskId as string;
    // _meta says 2026-07-28, the header 2025-11-25: the server answered it as 2026-07-28 (-32020).
    const mixed = await rpc(engine, 'tasks/get', { taskId }, { caps: CAPS.formAndTasks, headers: { 'MCP-Protocol-Version': '2025-11-25' } });
    expect(mixed.body.error.code).toBe(-32020);

    const g = grades(engine.reportCard());
    expect(g['extension-declared']).toMatchObject({ status: 'fail', detail: expect.stringContaining('first: tools/call generate_report') });
    expect(g['extension-declared'].detail).not.toContain('2025-11-25');
    expect(g['mcp-name'].detail).not.toContain('2025-11-25');
    expect(g['mcp-name']).toMatchObject({ status: 'pass', evidence: [expect.any(Number)] });
  });
});

describe('report card: Mcp-Name beside a taskId that is no string', () => {
  it('does not blame the header when the body has no taskId string to mirror (the server answered -32602)', async () => {
    const { engine } = setup();
    const taskId = (await callTool(engine, 'job', {}, { caps: CAPS.formAndTasks })).body.result.taskId as string;
    const invalid = await rpc(engine, 'tasks/get', { taskId: 5 }, { caps: CAPS.formAndTasks, headers: { 'Mcp-Name': '5' } });
    expect(invalid.body.error.code).toBe(-32602);
    expect((await rpc(engine, 'tasks/get', { taskId }, { caps: CAPS.formAndTasks })).body.result.taskId).toBe(taskId);
    expect(grades(engine.reportCard())['mcp-name']).toMatchObject({ status: 'pass', detail: 'All 1 tasks request carried Mcp-Name equal to params.taskId.' });
  });
});

describe('report card: a card that graded nothing', () => {
  it('says so in `warning` when requests were journaled, and in the JUnit properties and system-out; an empty journal has none', async () => {
    const { engine } = setup();
    expect(engine.reportCard().warning).toBeUndefined();
    await callTool(engine, 'echo', { text: 'hi' });
    const post = await legacyHttp(engine);
    await post('tools/list', {});
    const card = engine.reportCard();
    expect(card.grades.every((g) => g.status === 'not-observed')).toBe(true);
    expect(card.warning).toBe(
      "the report card graded nothing: 3 requests were journaled (2 from a 2025-11-25 client) (tools/call, initialize, tools/list), but none exercised a rule it grades; each grade's detail says what it looked for.",
    );
    const xml = reportCardToJUnit(card, 'demo');
    expect(xml).toContain('<property name="mcp-loupe.warning" value="the report card graded nothing: 3 requests were journaled');
    expect(xml).toMatch(/<system-out>mcp-loupe: the report card graded nothing: .*<\/system-out>\n {2}<\/testsuite>/);
    // Still skipped, not failed: nothing was wrong, nothing was graded.
    expect(xml).toContain('failures="0"');
  });
});
