import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { createJournal, type JournalEvent } from '../../../lib/engine/journal';
import { boundPayload, TRUNCATED, type PayloadLimits } from '../../../lib/engine/journal-bounds';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { parseJson } from '../../../lib/shared/json';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { createFakeClock } from '../../helpers/fake-clock';
import { CAPS, buildRequest, callTool, parseSse, rpc } from '../../helpers/rpc';

/** The journal: what the control room shows and the report card grades. */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(options: { journalSize?: number; journalBytes?: number } = {}) {
  const clock = createFakeClock();
  const engine = createMockEngine({ scenario: getBuiltinScenario('demo')!, clock, ...options });
  engines.push(engine);
  return { engine, clock };
}

describe('journal entries', () => {
  it('record method, id, headers as sent, body, status, response, principal and the injected time', async () => {
    const { engine, clock } = setup();
    await callTool(engine, 'echo', { text: 'hello' }, { id: 'e-1', headers: { Authorization: 'Bearer secret-token', 'X-Trace': 'abc' } });
    const [entry] = engine.journal.entries();
    expect(entry).toMatchObject({
      seq: 1,
      at: clock.now(),
      endedAt: clock.now(),
      method: 'tools/call',
      id: 'e-1',
      status: 200,
      streamed: false,
      frames: [],
      requestBody: { jsonrpc: '2.0', id: 'e-1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } },
      responseBody: { jsonrpc: '2.0', id: 'e-1', result: { content: [{ type: 'text', text: 'hello' }] } },
      principal: expect.stringMatching(/^demo:token:/),
    });
    expect(entry.requestHeaders).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'echo', 'x-trace': 'abc', 'mcp-protocol-version': '2026-07-28' });
    // Rejected requests are journaled too, with the status the client saw.
    await rpc(engine, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { id: 'e-2', headers: { 'Mcp-Name': 'other' } });
    expect(engine.journal.entries(1)).toMatchObject([{ seq: 2, id: 'e-2', status: 400, responseBody: { error: { code: -32020 } } }]);
  });

  it('exports each entry as JSON with every field it holds (the journal API, the live feed and a fleet store send this)', async () => {
    const { engine, clock } = setup();
    const t0 = clock.now();
    await callTool(engine, 'echo', { text: 'hello' }, { id: 'e-1' });
    clock.advance(5);
    const bad = await engine.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":' }),
    );
    expect(bad.status).toBe(400);
    const journal = createJournal({ clock });
    const h = journal.open({ method: 'subscriptions/listen', id: 7, requestHeaders: { 'x-a': 'b' }, requestBody: { big: 'x'.repeat(20_000) } });
    h.stream(200);
    h.frame({ jsonrpc: '2.0', method: 'notifications/message' });
    h.annotate({ principal: 'p', fault: 'drop' });
    h.close('dropped');
    const [call, parseError] = engine.journal.entries().map((e) => JSON.parse(JSON.stringify(e)));
    expect(call).toStrictEqual({
      seq: 1,
      at: t0,
      order: 1,
      method: 'tools/call',
      id: 'e-1',
      principal: expect.stringMatching(/^demo:/),
      requestHeaders: engine.journal.entries()[0]?.requestHeaders,
      requestBody: JSON.parse(JSON.stringify(engine.journal.entries()[0]?.requestBody)),
      status: 200,
      responseBody: { jsonrpc: '2.0', id: 'e-1', result: { resultType: 'complete', content: [{ type: 'text', text: 'hello' }] } },
      streamed: false,
      frames: [],
      endedAt: t0,
      endOrder: 2,
      bytes: expect.any(Number),
    });
    expect(call.requestBody).toMatchObject({ method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } });
    expect(parseError).toStrictEqual({
      seq: 2,
      at: t0 + 5,
      order: 3,
      principal: 'demo:anonymous',
      requestHeaders: expect.objectContaining({ 'content-type': 'application/json' }),
      requestBody: '{"jsonrpc":',
      status: 400,
      responseBody: { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } },
      streamed: false,
      frames: [],
      endedAt: t0 + 5,
      endOrder: 4,
      bytes: expect.any(Number),
    });
    expect(JSON.parse(JSON.stringify(h.entry))).toStrictEqual({
      seq: 1,
      at: t0 + 5,
      order: 1,
      method: 'subscriptions/listen',
      id: 7,
      principal: 'p',
      fault: 'drop',
      requestHeaders: { 'x-a': 'b' },
      requestBody: { big: expect.stringContaining(TRUNCATED) },
      truncated: true,
      status: 200,
      streamed: true,
      frames: [{ at: t0 + 5, order: 2, message: { jsonrpc: '2.0', method: 'notifications/message' } }],
      end: 'dropped',
      endedAt: t0 + 5,
      endOrder: 3,
      bytes: expect.any(Number),
    });
    // The byte count the bound works from: headers, bodies, frames and a fixed share per entry.
    expect(engine.journal.entries().map((e) => e.bytes)).toEqual([691, 354]);
    expect(h.entry.bytes).toBe(567);
  });

  it('records a body that is not JSON as its text', async () => {
    const { engine } = setup();
    const res = await engine.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":' }),
    );
    expect(res.status).toBe(400);
    expect(engine.journal.entries()).toMatchObject([{ requestBody: '{"jsonrpc":', status: 400, responseBody: { error: { code: -32700 } } }]);
  });

  it('keeps a stream open in the journal with each frame and its time, then the final response', async () => {
    const { engine, clock } = setup();
    const events: JournalEvent['type'][] = [];
    const off = engine.journal.subscribe((e) => events.push(e.type));
    const task = await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks });
    const taskId = task.body.result.taskId as string;
    const { request } = buildRequest('subscriptions/listen', { notifications: { taskIds: [taskId] } }, { caps: CAPS.formAndTasks, id: 'listen-1' });
    const res = await engine.fetch(request);
    const reader = res.body!.getReader();
    const listen = engine.journal.entries().at(-1)!;
    expect(listen).toMatchObject({ method: 'subscriptions/listen', status: 200, streamed: true });
    expect(listen.end).toBeUndefined();
    const opened = clock.now();
    clock.advance(1_501);
    await reader.read();
    expect(listen.frames.map((f) => (f.message as { method: string }).method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tasks',
      'notifications/tasks',
    ]);
    expect(listen.frames.map((f) => f.at)).toEqual([opened, opened, opened + 1_501]);
    expect((listen.frames[2].message as { params: { status: string } }).params.status).toBe('input_required');
    await reader.cancel();
    expect(listen).toMatchObject({ end: 'client-closed', endedAt: clock.now() });
    expect(events).toEqual(['entry', 'end', 'entry', 'frame', 'frame', 'frame', 'end']);
    off();

    // A request stream that finishes carries its final response.
    const slow = createMockEngine({ scenario: getBuiltinScenario('conformance')!, clock });
    engines.push(slow);
    const { request: progress } = buildRequest('tools/call', { name: 'test_tool_with_progress', arguments: {} }, { id: 'p', meta: { progressToken: 'tok' } });
    let done = false;
    const streamed = slow
      .fetch(progress)
      .then(async (r) => parseSse(await r.text()))
      .finally(() => (done = true));
    // The handler registers its timers asynchronously: let it run between clock steps.
    for (let i = 0; i < 50 && !done; i++) {
      await new Promise((r) => setTimeout(r, 1));
      clock.advance(50);
    }
    const messages = await streamed;
    const entry = slow.journal.entries()[0];
    expect(entry).toMatchObject({ streamed: true, end: 'complete', responseBody: messages.at(-1) });
    expect(entry.frames.map((f) => f.message)).toEqual(messages.slice(0, -1));
  });

  it('records frames as they went on the wire, injected faults included', async () => {
    const scenario = ScenarioSchema.parse({
      ...getBuiltinScenario('demo')!,
      faults: [
        { match: { method: 'subscriptions/listen' }, action: { kind: 'duplicate' } },
        { match: { method: 'subscriptions/listen' }, action: { kind: 'garbage', afterEvents: 1, text: 'not json' } },
      ],
    });
    const engine = createMockEngine({ scenario, clock: createFakeClock() });
    engines.push(engine);
    const res = await engine.fetch(buildRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'l' }).request);
    const reader = res.body!.getReader();
    let text = '';
    while ((text.match(/\n\n/g) ?? []).length < 3) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const [entry] = engine.journal.entries();
    expect(entry.fault).toBeTruthy();
    const frames = entry.frames.map((f) => (typeof f.message === 'string' ? f.message : (f.message as { method: string }).method));
    expect(frames[0]).toBe('notifications/subscriptions/acknowledged');
    expect(frames).toEqual(expect.arrayContaining([expect.stringContaining('not json')]));
    expect(frames.filter((f) => f === 'notifications/subscriptions/acknowledged')).toHaveLength(2);
  });

  it('is bounded by entries and by bytes, and shortens large bodies with a marker', async () => {
    const { engine } = setup({ journalSize: 5 });
    for (let i = 0; i < 8; i++) await callTool(engine, 'echo', { text: `n${i}` });
    expect(engine.journal.entries().map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(engine.journal.entries(6).map((e) => e.seq)).toEqual([7, 8]);

    const big = setup({ journalBytes: 20_000 }).engine;
    const text = 'x'.repeat(100_000);
    for (let i = 0; i < 30; i++) await callTool(big, 'echo', { text });
    expect(big.journal.bytes).toBeLessThanOrEqual(20_000);
    expect(big.journal.size).toBeGreaterThan(3);
    expect(big.journal.size).toBeLessThan(30);
    const last = big.journal.entries().at(-1)!;
    expect(last.truncated).toBe(true);
    const kept = (last.requestBody as { params: { arguments: { text: string } } }).params.arguments.text;
    expect(kept.length).toBeLessThan(1_000);
    expect(kept).toContain(`${TRUNCATED}: 100000 chars`);
    // The body keeps its shape: method and tool name survive.
    expect(last.requestBody).toMatchObject({ method: 'tools/call', params: { name: 'echo' } });
  });

  it('truncation keeps equal strings equal and different ones different', () => {
    const a = 'a'.repeat(20_000);
    const b = `${'a'.repeat(19_999)}b`;
    const ta = boundPayload({ s: a }).value as { s: string };
    expect(boundPayload({ s: a }).value).toEqual(ta);
    expect((boundPayload({ s: b }).value as { s: string }).s).not.toBe(ta.s);
    const many = boundPayload({ list: Array.from({ length: 1_000 }, (_, i) => i) }, { maxString: 100, maxChars: 10_000, maxItems: 10, maxDepth: 5 });
    expect((many.value as { list: unknown[] }).list).toHaveLength(11);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(boundPayload(cyclic).value).toEqual({ self: `${TRUNCATED}: cycle]` });
  });

  it('shortens a request header value past 4096 characters and counts what it kept', () => {
    const journal = createJournal({ clock: createFakeClock() });
    const plain = journal.open({ requestHeaders: { 'x-a': 'b' }, requestBody: null }).entry;
    const long = journal.open({ requestHeaders: { 'x-a': 'b', 'x-long': 'y'.repeat(5000) }, requestBody: null }).entry;
    const edge = journal.open({ requestHeaders: { 'x-a': 'b', 'x-edge': 'z'.repeat(4096) }, requestBody: null }).entry;
    expect(long.requestHeaders['x-a']).toBe('b');
    expect(long.requestHeaders['x-long']).toMatch(new RegExp(`^y{256}${TRUNCATED.replace('[', '\\[')}: 5000 chars`));
    expect(long.bytes - plain.bytes).toBe('x-long'.length + (long.requestHeaders['x-long'] ?? '').length + 4);
    expect(edge.requestHeaders['x-edge']).toBe('z'.repeat(4096));
    expect(edge.bytes - plain.bytes).toBe('x-edge'.length + 4096 + 4);
  });

  it('caps frames per entry and clears on reset', () => {
    const clock = createFakeClock();
    const journal = createJournal({ clock, maxFrames: 3 });
    const h = journal.open({ method: 'subscriptions/listen', id: 1, requestHeaders: {}, requestBody: {} });
    h.stream(200);
    for (let i = 0; i < 10; i++) h.frame({ i });
    h.close('dropped');
    expect(h.entry).toMatchObject({ framesOmitted: 7, end: 'dropped' });
    expect(h.entry.frames).toHaveLength(3);
    journal.clear();
    expect(journal.size).toBe(0);
    expect(journal.open({ requestHeaders: {}, requestBody: null }).entry.seq).toBe(2);
  });

  it('engine.reset() empties the journal and listeners hear journal events', async () => {
    const { engine } = setup();
    const seen: string[] = [];
    engine.on((e) => seen.push(e.type));
    await callTool(engine, 'echo', { text: 'a' });
    await engine.reset();
    expect(engine.journal.size).toBe(0);
    expect(seen).toEqual(expect.arrayContaining(['journal:entry', 'journal:end', 'journal:clear', 'scenario:reset']));
  });

  it('reads a body kept as its wire text exactly as the bounded copy it would have made', () => {
    const limits: PayloadLimits = { maxString: 64, maxChars: 200, maxItems: 8, maxDepth: 4 };
    const journal = createJournal({ clock: createFakeClock(), payload: limits });
    // Any JSON, as text: the entry reads back what boundPayload makes of it, and flags the same truncation.
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value);
        const expected = boundPayload(JSON.parse(text), limits);
        // The nesting counted from the text, or handed over as the HTTP front's parse measured it.
        const parsed = parseJson(text);
        if (!parsed.ok) throw new Error(parsed.message);
        for (const requestDepth of [undefined, parsed.depth]) {
          const h = journal.open({ requestHeaders: {}, requestBody: JSON.parse(text), requestText: text, requestDepth });
          h.respond(200, JSON.parse(text), text);
          expect(h.entry.requestBody).toEqual(expected.value);
          expect(h.entry.responseBody).toEqual(expected.value);
          expect(h.entry.truncated ?? false).toBe(expected.truncated);
        }
      }),
      { numRuns: 500 },
    );
    // Too deep for the limits although short: kept as a bounded copy, marker and flag included.
    const deep = '[[[[[[1]]]]]]';
    const h = journal.open({ requestHeaders: {}, requestBody: JSON.parse(deep), requestText: deep });
    expect(h.entry.truncated).toBe(true);
    expect(JSON.stringify(h.entry.requestBody)).toContain('too deep');
    // At the limit and one past it, with the nesting the parse measured.
    for (const [text, truncated] of [
      ['[[[[1]]]]', false],
      ['[[[[[1]]]]]', true],
    ] as const) {
      const measured = parseJson(text);
      const at = journal.open({ requestHeaders: {}, requestBody: JSON.parse(text), requestText: text, requestDepth: measured.ok ? measured.depth : 0 });
      expect(at.entry.truncated ?? false).toBe(truncated);
    }
  });
});
