import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { createSseChannel } from '../../../lib/engine/sse';
import { BoundedSseBuffer } from '../../../lib/engine/sse-buffer';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock';
import { CAPS, buildRequest, callTool, parseSse, type RpcBody } from '../../helpers/rpc';

/** subscriptions/listen with taskIds: snapshots on every change, tagged, bounded per reader. */

/** A message off a stream: a notification or the final response, loosely typed as in RpcBody. */
type StreamMessage = Partial<RpcBody> & { method?: string; params?: RpcBody['result'] };

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(clock: FakeClock = createFakeClock(), scenario = getBuiltinScenario('demo')!) {
  const engine = createMockEngine({ scenario, clock });
  engines.push(engine);
  return { engine, clock };
}

/** Open a listen stream and return a reader of its messages and raw text. */
async function openListen(engine: MockEngine, id: string, notifications: Record<string, unknown>, caps: Record<string, unknown> = CAPS.formAndTasks) {
  const { request } = buildRequest('subscriptions/listen', { notifications }, { caps, id });
  const res = await engine.fetch(request);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let raw = '';
  return {
    res,
    /** Read until `n` messages have arrived (or the stream ends). */
    async messages(n: number): Promise<StreamMessage[]> {
      for (;;) {
        const got = parseSse(raw.slice(0, raw.lastIndexOf('\n\n') + 2)) as StreamMessage[];
        if (got.length >= n) return got;
        const { done, value } = await reader.read();
        if (done) return got;
        raw += dec.decode(value, { stream: true });
      }
    },
    raw: () => raw,
    async readSome() {
      const { done, value } = await reader.read();
      if (!done) raw += dec.decode(value, { stream: true });
      return !done;
    },
    close: () => reader.cancel(),
  };
}

describe('listen streams for tasks', () => {
  it('acknowledges first, then sends a full snapshot on every change, tagged with the listen id', async () => {
    const { engine, clock } = setup();
    const created = await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks });
    const taskId = created.body.result.taskId as string;
    const stream = await openListen(engine, 'listen-7', { taskIds: [taskId] });
    expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
    const [ack, initial] = await stream.messages(2);
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-7' }, notifications: { taskIds: [taskId] } },
    });
    expect(initial.params).toMatchObject({ taskId, status: 'working', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-7' } });

    clock.advance(1_501);
    const third = (await stream.messages(3))[2];
    expect(third.method).toBe('notifications/tasks');
    expect(third.params).toMatchObject({
      taskId,
      status: 'input_required',
      inputRequests: { approve_outline: { method: 'elicitation/create' } },
      ttlMs: 900000,
      pollIntervalMs: 1000,
    });
    expect(third.params).not.toHaveProperty('resultType');
    await stream.close();
  });

  it('refuses taskIds without the tasks extension declared (-32021)', async () => {
    const { engine } = setup();
    const { request } = buildRequest('subscriptions/listen', { notifications: { taskIds: ['x'] } }, { caps: CAPS.form });
    const res = await engine.fetch(request);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } },
    });
  });

  it("never delivers another principal's task snapshots", async () => {
    const { engine, clock } = setup();
    const created = await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks, headers: { Authorization: 'Bearer alice' } });
    const taskId = created.body.result.taskId as string;
    const stream = await openListen(engine, 'mallory', { taskIds: [taskId] });
    await stream.messages(1);
    clock.advance(2_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(stream.raw()).not.toContain('notifications/tasks');
    await stream.close();
  });

  it("acknowledges only the tasks the caller can follow: an unknown id and another principal's are left out alike", async () => {
    const { engine } = setup();
    const mine = (await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks })).body.result.taskId as string;
    const alices = (await callTool(engine, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks, headers: { Authorization: 'Bearer alice' } })).body
      .result.taskId as string;
    const ackOf = async (id: string, taskIds: string[]) => {
      const stream = await openListen(engine, id, { taskIds });
      const [ack] = await stream.messages(1);
      await stream.close();
      return ack!.params!.notifications;
    };
    expect(await ackOf('l1', [mine, 'unknown-task', alices, mine])).toEqual({ taskIds: [mine] });
    // Nothing tells an unknown id from another principal's task.
    expect(await ackOf('l2', ['unknown-task'])).toEqual(await ackOf('l3', [alices]));
    expect(await ackOf('l4', [alices])).toEqual({ taskIds: [] });
  });

  it('sends keep-alive comments while idle', async () => {
    const clock = createFakeClock();
    const scenario = ScenarioSchema.parse({ ...getBuiltinScenario('demo')!, settings: { ...getBuiltinScenario('demo')!.settings, keepAliveMs: 5_000 } });
    const { engine } = setup(clock, scenario);
    const stream = await openListen(engine, 'idle', { toolsListChanged: true }, {});
    await stream.messages(1);
    clock.advance(5_001);
    await stream.readSome();
    expect(stream.raw()).toContain(': keep-alive');
    await stream.close();
  });
});

describe('bounded outbound buffer', () => {
  it('drops the oldest intermediate snapshot for a slow reader and never the final response', () => {
    const b = new BoundedSseBuffer(2);
    b.push({ text: 'a', droppable: true, key: 't1' });
    b.push({ text: 'b', droppable: true, key: 't1' });
    expect(b.push({ text: 'c', droppable: true, key: 't1' })).toBe(false);
    b.pushFinal({ text: 'final', droppable: false });
    const out: string[] = [];
    for (let f = b.shift(); f; f = b.shift()) out.push(f.text);
    expect(out).toEqual(['b', 'c', 'final']);
    expect(b.dropped).toBe(1);
  });

  it('keeps non-droppable frames even when full', () => {
    const b = new BoundedSseBuffer(2);
    b.push({ text: 'ack', droppable: false });
    b.push({ text: 'terminal', droppable: false });
    b.push({ text: 'more', droppable: false });
    expect([b.shift()?.text, b.shift()?.text, b.shift()?.text]).toEqual(['ack', 'terminal', 'more']);
  });

  it('refuses a capacity below 2', () => {
    expect(() => new BoundedSseBuffer(1)).toThrow(/at least 2/);
  });

  it('a channel whose reader does not read drops intermediate snapshots and still ends with the final response', async () => {
    const ch = createSseChannel({ capacity: 2, setTimer: () => 0, clearTimer: () => {} });
    for (let i = 0; i < 10; i++) ch.send({ method: 'notifications/tasks', params: { n: i } }, { droppable: true, key: 't' });
    ch.finish({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    const text = await new Response(ch.stream).text();
    const msgs = parseSse(text) as StreamMessage[];
    expect(ch.dropped).toBeGreaterThan(0);
    expect(msgs.at(-1)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    expect(
      msgs
        .filter((m) => m.method === 'notifications/tasks')
        .map((m) => m.params.n)
        .at(-1),
    ).toBe(9);
  });
});

describe('a channel written straight to a sink (node:http)', () => {
  /** A sink that accepts `room` writes before it asks for a drain. */
  function sink(room = Infinity) {
    const s = { chunks: [] as string[], ended: false, destroyed: false, drain: () => {}, close: () => {} };
    const dec = new TextDecoder();
    return {
      s,
      sink: {
        write: (chunk: Uint8Array) => {
          s.chunks.push(dec.decode(chunk));
          return s.chunks.length < room;
        },
        end: () => {
          s.ended = true;
        },
        destroy: () => {
          s.destroyed = true;
        },
        onDrain: (l: () => void) => {
          s.drain = l;
        },
        onClose: (l: () => void) => {
          s.close = l;
        },
      },
    };
  }
  const timers = { setTimer: () => 0, clearTimer: () => {} };

  it('writes what was queued before it was attached, then every event as it comes, and ends after the final response', () => {
    const closed: string[] = [];
    const ch = createSseChannel({ ...timers, onClose: (r) => closed.push(r) });
    ch.send({ method: 'a' });
    const { s, sink: k } = sink();
    ch.attach!(k);
    // Queued before the attach: written at once, not with the next event.
    expect(parseSse(s.chunks.join(''))).toEqual([{ method: 'a' }]);
    ch.send({ method: 'b' });
    ch.finish({ jsonrpc: '2.0', id: 1, result: {} });
    expect((parseSse(s.chunks.join('')) as StreamMessage[]).map((m) => m.method ?? 'final')).toEqual(['a', 'b', 'final']);
    expect(s.ended).toBe(true);
    expect(closed).toEqual(['finished']);
  });

  it('waits for a drain when the sink is full, dropping intermediate snapshots meanwhile, never the final response', () => {
    const ch = createSseChannel({ ...timers, capacity: 2 });
    const { s, sink: k } = sink(1);
    ch.attach!(k);
    for (let i = 0; i < 10; i++) ch.send({ method: 'notifications/tasks', params: { n: i } }, { droppable: true, key: 't' });
    ch.finish({ jsonrpc: '2.0', id: 1, result: {} });
    expect(s.chunks).toHaveLength(1);
    expect(ch.dropped).toBeGreaterThan(0);
    for (let i = 0; i < 5 && !s.ended; i++) s.drain();
    const msgs = parseSse(s.chunks.join('')) as StreamMessage[];
    expect(msgs.at(-1)).toMatchObject({ id: 1 });
    expect(
      msgs
        .filter((m) => m.method)
        .map((m) => m.params.n)
        .at(-1),
    ).toBe(9);
    expect(s.ended).toBe(true);
  });

  it('ends a sink attached after the stream ended, cuts it on abort, and closes when the client leaves', () => {
    const early = createSseChannel(timers);
    early.finish();
    const a = sink();
    early.attach!(a.sink);
    expect(a.s.ended).toBe(true);

    const cut = createSseChannel(timers);
    const b = sink();
    cut.attach!(b.sink);
    cut.abort();
    expect(b.s.destroyed).toBe(true);

    const closed: string[] = [];
    const left = createSseChannel({ ...timers, onClose: (r) => closed.push(r) });
    const c = sink();
    left.attach!(c.sink);
    c.s.close();
    left.send({ method: 'late' });
    expect(closed).toEqual(['client']);
    expect(c.s.chunks).toEqual([]);
  });
});
