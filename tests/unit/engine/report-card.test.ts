import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { createJournal, type JournalEntry } from '../../../lib/engine/journal';
import { gradeClient, GRADE_IDS, ReportCardSchema, type Grade, type ReportCard } from '../../../lib/engine/report-card';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, buildRequest, callTool, rpc, type RpcOptions } from '../../helpers/rpc';

/**
 * The client report card, graded from the mock's journal. Clients are driven through
 * engine.fetch on a fake clock, so "too fast" and "waited long enough" are exact.
 */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(id = 'demo') {
  const clock = createFakeClock();
  const engine = createMockEngine({ scenario: getBuiltinScenario(id)!, clock });
  engines.push(engine);
  return { engine, clock };
}

const tasksCaps: RpcOptions = { caps: CAPS.formAndTasks };
const grades = (card: ReportCard) => Object.fromEntries(card.grades.map((g) => [g.id, g])) as Record<string, Grade>;
const statuses = (card: ReportCard) => Object.fromEntries(card.grades.map((g) => [g.id, g.status]));
/** The seq of the journal entry whose request had this JSON-RPC id. */
const seqOf = (engine: MockEngine, id: string | number) => engine.journal.entries().find((e) => e.id === id)!.seq;

async function startReport(engine: MockEngine, id: string) {
  const r = await callTool(engine, 'generate_report', { size: 'small' }, { ...tasksCaps, id });
  expect(r.body.result.resultType).toBe('task');
  return r.body.result.taskId as string;
}
const poll = (engine: MockEngine, taskId: string, o: RpcOptions = {}) => rpc(engine, 'tasks/get', { taskId }, { ...tasksCaps, ...o });

/** Poll every pollIntervalMs until a terminal status, like a well-behaved client. */
async function pollUntilTerminal(engine: MockEngine, clock: FakeClock, taskId: string, onInput?: () => Promise<void>) {
  for (let i = 0; i < 20; i++) {
    clock.advance(1_000);
    const s = (await poll(engine, taskId)).body.result;
    if (['completed', 'failed', 'cancelled'].includes(s.status)) return s.status as string;
    if (s.status === 'input_required' && onInput) await onInput();
  }
  throw new Error('task never finished');
}

describe('report card: a well-behaved client', () => {
  it('passes every grade it exercised, each linked to journal entries', async () => {
    const { engine, clock } = setup();
    // Nothing in tools/list says generate_report runs only as a task: -32021, then a retry with the extension.
    const refused = await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.form, id: 'no-ext' });
    expect(refused.body.error.code).toBe(-32021);
    const a = await startReport(engine, 'create-a');
    const status = await pollUntilTerminal(engine, clock, a, async () => {
      await rpc(engine, 'tasks/update', { taskId: a, inputResponses: { approve_outline: { action: 'accept', content: { approved: true } } } }, tasksCaps);
    });
    expect(status).toBe('completed');

    const b = await startReport(engine, 'create-b');
    clock.advance(1_000);
    await poll(engine, b);
    const ack = await rpc(engine, 'tasks/cancel', { taskId: b }, { ...tasksCaps, id: 'cancel-b' });
    expect(ack.body.result).toEqual({ resultType: 'complete' });
    expect(await pollUntilTerminal(engine, clock, b)).toBe('cancelled');

    for (const id of ['charge-1', 'charge-2']) await callTool(engine, 'charge', { account: 'acct-7', amountCents: 500, idempotencyKey: 'order-42' }, { id });

    const ask = await callTool(engine, 'delete_note', { noteId: 'note-2' }, { caps: CAPS.form, id: 'delete-1' });
    expect(ask.body.result.resultType).toBe('input_required');
    const done = await callTool(
      engine,
      'delete_note',
      { noteId: 'note-2' },
      {
        caps: CAPS.form,
        id: 'delete-2',
        extra: { requestState: ask.body.result.requestState, inputResponses: { confirm_delete: { action: 'accept', content: { confirm: true } } } },
      },
    );
    expect(done.body.result.structuredContent).toMatchObject({ deleted: true });

    const card = engine.reportCard();
    expect(ReportCardSchema.parse(card)).toEqual(card);
    expect(card.generatedAt).toBe(new Date(clock.now()).toISOString());
    expect(card.grades.map((g) => g.id)).toEqual([...GRADE_IDS]);
    expect(statuses(card)).toEqual({
      'poll-cadence': 'pass',
      'mcp-name': 'pass',
      'extension-declared': 'pass',
      'stops-at-terminal': 'pass',
      'cancel-ack-not-final': 'pass',
      'relisten-without-last-event-id': 'not-observed',
      'idempotency-keys': 'pass',
      'request-state-echo': 'pass',
      'honours-retry-after': 'not-observed',
    });
    const g = grades(card);
    const known = new Set(engine.journal.entries().map((e) => e.seq));
    for (const grade of card.grades) {
      expect(grade.specRef).toMatch(/2026-07-28/);
      for (const seq of grade.evidence) expect(known.has(seq), `${grade.id} cites #${seq}`).toBe(true);
      if (grade.status === 'pass') expect(grade.evidence.length, grade.id).toBeGreaterThan(0);
    }
    expect(g['extension-declared'].evidence).toEqual(expect.arrayContaining([seqOf(engine, 'no-ext'), seqOf(engine, 'create-a')]));
    expect(g['extension-declared'].detail).toContain('retried with the extension');
    expect(g['cancel-ack-not-final'].evidence).toContain(seqOf(engine, 'cancel-b'));
    expect(g['idempotency-keys'].evidence).toEqual([seqOf(engine, 'charge-1'), seqOf(engine, 'charge-2')]);
    expect(g['request-state-echo'].evidence).toEqual([seqOf(engine, 'delete-1'), seqOf(engine, 'delete-2')]);
  });
});

describe('report card: a deliberately bad client', () => {
  it('fails exactly poll cadence, Mcp-Name, idempotency keys and cancel ack, and no other grade', async () => {
    const { engine, clock } = setup();
    const a = await startReport(engine, 'create');
    await poll(engine, a, { id: 'poll-1' });
    clock.advance(100);
    await poll(engine, a, { id: 'poll-2' });
    clock.advance(100);
    // The engine rejects a tasks request without Mcp-Name (-32020); the journal still grades it.
    const noName = await poll(engine, a, { id: 'poll-3', headers: { 'Mcp-Name': null } });
    expect(noName.status).toBe(400);
    expect(noName.body.error.code).toBe(-32020);
    // A retried charge without an idempotency key charges twice.
    for (const id of ['charge-1', 'charge-2']) {
      const r = await callTool(engine, 'charge', { account: 'acct-7', amountCents: 500 }, { id });
      expect(r.body.result.structuredContent).toMatchObject({ replayed: false });
    }
    // Treats the cancel ack as final: never looks at the task again.
    expect((await rpc(engine, 'tasks/cancel', { taskId: a }, { ...tasksCaps, id: 'cancel' })).body.result).toEqual({ resultType: 'complete' });
    clock.advance(10_000);

    const card = engine.reportCard();
    expect(statuses(card)).toEqual({
      'poll-cadence': 'fail',
      'mcp-name': 'fail',
      'extension-declared': 'pass',
      'stops-at-terminal': 'not-observed',
      'cancel-ack-not-final': 'fail',
      'relisten-without-last-event-id': 'not-observed',
      'idempotency-keys': 'fail',
      'request-state-echo': 'not-observed',
      'honours-retry-after': 'not-observed',
    });
    const g = grades(card);
    expect(g['poll-cadence'].evidence).toEqual([seqOf(engine, 'poll-1'), seqOf(engine, 'poll-2'), seqOf(engine, 'poll-3')]);
    expect(g['poll-cadence'].detail).toMatch(/100 ms after .* pollIntervalMs was 1000/);
    expect(g['mcp-name'].evidence).toEqual([seqOf(engine, 'poll-3')]);
    expect(g['idempotency-keys'].evidence).toEqual([seqOf(engine, 'charge-1'), seqOf(engine, 'charge-2')]);
    expect(g['idempotency-keys'].detail).toContain('without an idempotencyKey');
    expect(g['cancel-ack-not-final'].evidence).toEqual([seqOf(engine, 'cancel')]);
    // Task ids are bearer tokens: details show a fingerprint, never the whole id.
    for (const grade of card.grades) expect(grade.detail).not.toContain(a);
  });

  it('waits before judging a cancel ack, then fails a client that never looks again', async () => {
    const { engine, clock } = setup();
    const a = await startReport(engine, 'create');
    await rpc(engine, 'tasks/cancel', { taskId: a }, tasksCaps);
    clock.advance(500);
    expect(grades(engine.reportCard())['cancel-ack-not-final']).toMatchObject({ status: 'not-observed', detail: expect.stringContaining('Waiting') });
    clock.advance(5_000);
    expect(grades(engine.reportCard())['cancel-ack-not-final'].status).toBe('fail');
  });
});

describe('report card: single grades', () => {
  it('fails polling after a terminal status and tolerates 10% timer jitter', async () => {
    const { engine, clock } = setup('conformance');
    const r = await callTool(engine, 'test_simple_text', {}, tasksCaps);
    expect(r.status).toBe(200);
    const task = await callTool(engine, 'failing_job', {}, { ...tasksCaps, id: 'job' });
    const taskId = task.body.result.taskId as string;
    const interval = task.body.result.pollIntervalMs as number;
    await poll(engine, taskId);
    // 92% of the interval: within the tolerated jitter.
    clock.advance(Math.ceil(interval * 0.92));
    let n = 0;
    let status = (await poll(engine, taskId, { id: `p${n}` })).body.result.status;
    while (status === 'working' && n < 10) {
      clock.advance(interval);
      status = (await poll(engine, taskId, { id: `p${++n}` })).body.result.status;
    }
    expect(status).toBe('completed');
    const terminal = `p${n}`;
    let card = engine.reportCard();
    expect(statuses(card)).toMatchObject({ 'poll-cadence': 'pass', 'stops-at-terminal': 'pass' });
    clock.advance(interval);
    await poll(engine, taskId, { id: 'late' });
    card = engine.reportCard();
    expect(grades(card)['stops-at-terminal']).toMatchObject({ status: 'fail', evidence: [seqOf(engine, terminal), seqOf(engine, 'late')] });
  });

  it('fails a task-only tool call without the extension that is never retried; an optional task tool run inline is fine', async () => {
    const conf = setup('conformance').engine;
    expect((await callTool(conf, 'slow_compute', { seconds: 0 }, { caps: CAPS.none })).status).toBe(200);
    expect(grades(conf.reportCard())['extension-declared'].status).toBe('not-observed');

    const { engine } = setup();
    await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.form, id: 'bare' });
    expect(grades(engine.reportCard())['extension-declared']).toMatchObject({ status: 'fail', evidence: [seqOf(engine, 'bare')] });
    // The detail agrees with its count: one request "was", two "were".
    expect(grades(engine.reportCard())['extension-declared'].detail).toMatch(
      /^1 request needed the tasks extension without declaring it and was never retried/,
    );
    await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.form, id: 'bare-2' });
    expect(grades(engine.reportCard())['extension-declared'].detail).toMatch(
      /^2 requests needed the tasks extension without declaring it and were never retried/,
    );
  });

  it('fails an altered requestState and one sent when none was issued', async () => {
    const { engine } = setup();
    const ask = await callTool(engine, 'delete_note', { noteId: 'note-3' }, { caps: CAPS.form });
    const state = ask.body.result.requestState as string;
    const answer = { confirm_delete: { action: 'accept', content: { confirm: true } } };
    const altered = await callTool(
      engine,
      'delete_note',
      { noteId: 'note-3' },
      {
        caps: CAPS.form,
        id: 'altered',
        extra: { requestState: `${state.slice(0, 10)}${state[10] === 'x' ? 'y' : 'x'}${state.slice(11)}`, inputResponses: answer },
      },
    );
    expect(altered.body.error.code).toBe(-32602);
    expect(grades(engine.reportCard())['request-state-echo']).toMatchObject({ status: 'fail', evidence: [seqOf(engine, 'altered')] });

    const other = setup().engine;
    await callTool(other, 'echo', { text: 'hi' }, { id: 'invented', extra: { requestState: 'made-up' } });
    expect(grades(other.reportCard())['request-state-echo']).toMatchObject({ status: 'fail', detail: expect.stringContaining('never issued') });
  });

  it('fails any listen that sends Last-Event-ID', async () => {
    const { engine } = setup();
    const { request } = buildRequest(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      { id: 'resume', headers: { 'Last-Event-ID': '42' } },
    );
    const res = await engine.fetch(request);
    await res.body?.cancel();
    expect(grades(engine.reportCard())['relisten-without-last-event-id']).toMatchObject({ status: 'fail', evidence: [seqOf(engine, 'resume')] });
  });

  it('passes a re-listen with the same filters after a dropped stream, and fails a client that never comes back', async () => {
    const scenario = ScenarioSchema.parse({
      ...getBuiltinScenario('demo')!,
      faults: [{ match: { method: 'subscriptions/listen', nth: 1 }, action: { kind: 'drop', afterEvents: 1 } }],
    });
    const clock = createFakeClock();
    const engine = createMockEngine({ scenario, clock });
    engines.push(engine);
    const listen = async (id: string) => {
      const res = await engine.fetch(buildRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id }).request);
      const reader = res.body!.getReader();
      // Read until the stream ends (the drop) or the acknowledgement arrived on a healthy stream.
      let text = '';
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (chunk.done) return { dropped: true, text };
        text += new TextDecoder().decode(chunk.value);
        if (id !== 'first' && text.includes('acknowledged')) {
          await reader.cancel();
          return { dropped: false, text };
        }
      }
    };
    expect((await listen('first')).dropped).toBe(true);
    expect(engine.journal.entries().at(-1)).toMatchObject({ end: 'dropped' });
    clock.advance(20_000);
    expect(grades(engine.reportCard())['relisten-without-last-event-id']).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('never listened again'),
    });
    await listen('second');
    expect(grades(engine.reportCard())['relisten-without-last-event-id']).toMatchObject({
      status: 'pass',
      evidence: [seqOf(engine, 'first'), seqOf(engine, 'second')],
    });
  });

  it('is a pure function of the journal: an empty journal observes nothing', () => {
    const card = gradeClient([], getBuiltinScenario('demo')!, { now: 0 });
    expect(card.generatedAt).toBe('1970-01-01T00:00:00.000Z');
    expect(card.grades.every((g) => g.status === 'not-observed' && g.evidence.length === 0)).toBe(true);
  });

  it('lets one prompt poll follow a re-listen after a dropped stream, and no other', () => {
    const clock = createFakeClock();
    const journal = createJournal({ clock });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': CAPS.tasks };
    const open = (id: number, method: string, params: Record<string, unknown>) =>
      journal.open({
        method,
        id,
        requestHeaders: { 'mcp-protocol-version': '2026-07-28', 'mcp-name': 't-1' },
        requestBody: { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } },
      });
    const working = { taskId: 't-1', status: 'working', pollIntervalMs: 1_000 };
    const poll = (id: number) => open(id, 'tasks/get', { taskId: 't-1' }).respond(200, { jsonrpc: '2.0', id, result: { resultType: 'complete', ...working } });
    const listen = (id: number) => {
      const h = open(id, 'subscriptions/listen', { notifications: { taskIds: ['t-1'] } });
      h.stream(200);
      return h;
    };
    const journey = (dropped: boolean) => {
      open(1, 'tools/call', { name: 'generate_report', arguments: { size: 'small' } }).respond(200, {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'task', ...working },
      });
      clock.advance(1_000);
      poll(2);
      clock.advance(100);
      listen(3).close(dropped ? 'dropped' : 'client-closed');
      clock.advance(250);
      listen(4);
      clock.advance(50);
      poll(5); // 400 ms after #2: the refetch the dropped stream calls for
      clock.advance(100);
      poll(6); // 100 ms after that: too fast whatever happened before
      return gradeClient(journal.entries() as JournalEntry[], getBuiltinScenario('demo')!);
    };
    const card = journey(true);
    expect(grades(card)['poll-cadence']).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^1 poll came faster/) });
    journal.clear();
    // A listen closed by the client is no drop: the early refetch is too fast as well.
    expect(grades(journey(false))['poll-cadence'].detail).toMatch(/^2 polls came faster/);
  });

  it('grades a hand-built journal the same way (no engine needed)', () => {
    const clock = createFakeClock();
    const journal = createJournal({ clock });
    const send = (id: number, method: string, params: Record<string, unknown>, result: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': CAPS.tasks };
      const h = journal.open({
        method,
        id,
        requestHeaders: { 'mcp-protocol-version': '2026-07-28', ...headers },
        requestBody: { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } },
      });
      h.respond(200, { jsonrpc: '2.0', id, result });
    };
    send(
      1,
      'tools/call',
      { name: 'generate_report', arguments: { size: 'small' } },
      { resultType: 'task', taskId: 't-1', status: 'working', pollIntervalMs: 2_000 },
    );
    send(2, 'tasks/get', { taskId: 't-1' }, { resultType: 'complete', taskId: 't-1', status: 'working', pollIntervalMs: 2_000 }, { 'mcp-name': 't-1' });
    clock.advance(1_500);
    send(
      3,
      'tasks/get',
      { taskId: 't-1' },
      { resultType: 'complete', taskId: 't-1', status: 'working', pollIntervalMs: 2_000 },
      { 'mcp-name': '=?base64?dC0x?=' },
    );
    const card = gradeClient(journal.entries() as JournalEntry[], getBuiltinScenario('demo')!);
    // 1500 ms < 90% of the 2000 ms the last snapshot asked for; the base64-wrapped Mcp-Name decodes to t-1.
    expect(statuses(card)).toMatchObject({ 'poll-cadence': 'fail', 'mcp-name': 'pass', 'extension-declared': 'pass' });
  });
});
