import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { fingerprint } from '../../../lib/shared/fingerprint';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createInspectorStore, type InspectorStore } from '../../../lib/state/inspector-store';
import { createVisibleSelector, lintsForEntry } from '../../../lib/state/selectors';
import { stringBytes } from '../../../lib/state/timeline-entry';
import type { SpillBatch, TimelineEntry } from '../../../lib/state/timeline-types';

/**
 * The timeline slice's byte bound: 100,000 frames (a few of them 1 MiB bodies) go through the
 * store; what it holds stays within its budgets, measured by the strings it keeps and by the
 * heap; spans group what they should; a large payload is cut in the list with its full body
 * kept once.
 */

const MiB = 1024 * 1024;
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const sync = { scheduleLint: (run: () => void) => run() };
const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

/** Frames of a busy session, made on the fly so the test itself holds none of them. */
function* session(total: number): Generator<Frame> {
  let seq = 0;
  let ex = 0;
  let id = 0;
  const frame = (f: Omit<Frame, 'seq' | 'connectionId' | 'at' | 'bytes'> & { raw?: string }): Frame => ({
    seq: seq++,
    connectionId: 'c1',
    at: 1_000_000 + seq * 5,
    bytes: f.raw ? Buffer.byteLength(f.raw) : 0,
    ...f,
  });
  const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28' };
  while (seq < total) {
    const exchangeId = `c1:${++ex}`;
    const rpcId = ++id;
    const taskId = `task-${Math.floor(ex / 8)}-${'k'.repeat(24)}`;
    const big = ex % 300 === 0;
    const method = big ? 'tools/call' : ex % 8 === 0 ? 'tools/call' : ex % 5 === 0 ? 'tools/list' : 'tasks/get';
    const params =
      method === 'tasks/get' ? { taskId } : method === 'tools/call' ? { name: big ? 'export_all' : 'generate_report', arguments: { size: 'small' } } : {};
    const req = { jsonrpc: '2.0', id: rpcId, method, params };
    yield frame({
      direction: 'out',
      kind: 'http-request',
      exchangeId,
      rpcId,
      method,
      headers: { ...headers, 'mcp-method': method },
      body: req,
      raw: JSON.stringify(req),
      ...(method === 'tasks/get' ? { taskId } : {}),
    });
    const streamed = ex % 7 === 0;
    yield frame({
      direction: 'in',
      kind: 'http-response',
      exchangeId,
      rpcId,
      method,
      httpStatus: 200,
      headers: { 'content-type': streamed ? 'text/event-stream' : 'application/json' },
      durationMs: 3,
    });
    let result: Record<string, unknown>;
    if (big) result = { resultType: 'complete', content: [{ type: 'text', text: String(ex).padEnd(MiB, 'abcdefghij') }] };
    else if (method === 'tools/call')
      result = {
        resultType: 'task',
        taskId,
        status: 'working',
        pollIntervalMs: 1000,
        ttlMs: 900000,
        createdAt: new Date(0).toISOString(),
        lastUpdatedAt: new Date(0).toISOString(),
      };
    else if (method === 'tasks/get')
      result = {
        resultType: 'complete',
        taskId,
        status: ex % 3 ? 'working' : 'input_required',
        statusMessage: 'x'.repeat(ex % 400),
        pollIntervalMs: 1000,
        ttlMs: 900000,
        createdAt: new Date(0).toISOString(),
        lastUpdatedAt: new Date(0).toISOString(),
      };
    else result = { resultType: 'complete', tools: [{ name: 'generate_report', inputSchema: { type: 'object' } }], ttlMs: 60000, cacheScope: 'public' };
    const res = { jsonrpc: '2.0', id: rpcId, result };
    const raw = JSON.stringify(res);
    const named = result.taskId ? { taskId } : {};
    if (streamed) {
      yield frame({ direction: 'in', kind: 'sse-open', exchangeId, streamId: exchangeId, rpcId, method });
      const note = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: `p${rpcId}`, progress: 1, total: 2 } };
      yield frame({
        direction: 'in',
        kind: 'sse-frame',
        exchangeId,
        streamId: exchangeId,
        rpcId,
        method: 'notifications/progress',
        body: note,
        raw: JSON.stringify(note),
      });
      yield frame({ direction: 'in', kind: 'sse-frame', exchangeId, streamId: exchangeId, rpcId, method, body: res, raw, ...named });
      yield frame({ direction: 'in', kind: 'sse-close', exchangeId, streamId: exchangeId, rpcId, method, closeReason: 'complete', durationMs: 4 });
    } else yield frame({ direction: 'in', kind: 'message', exchangeId, rpcId, method, body: res, raw, ...named });
  }
}

/** Bytes of every string the timeline holds, counted independently of its own accounting. */
function heldStringBytes(store: InspectorStore): { list: number; bodies: number } {
  const { buffer } = store.getState().timeline;
  let list = 0;
  let bodies = 0;
  buffer.forEach((e) => {
    for (const v of Object.values(e)) if (typeof v === 'string') list += stringBytes(v);
    for (const [k, v] of Object.entries(e.headers ?? {})) list += k.length + stringBytes(v);
    bodies += stringBytes(buffer.fullBody(e.id));
  });
  return { list, bodies };
}

describe('timeline store: byte bound', () => {
  it('holds 100,000 frames (with 1 MiB bodies) within its budgets, by its count, by the strings it keeps and by the heap', () => {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const store = createInspectorStore(sync);
    const t = store.getState().timeline;
    const { maxBytes, maxBodyBytes } = t.buffer.limits;
    expect(maxBytes).toBe(32 * MiB);
    let batch: Frame[] = [];
    let bigSeen = 0;
    let fed = 0;
    let peak = 0;
    for (const f of session(100_000)) {
      if (fed === 100_000) break;
      if (f.bytes > MiB / 2) bigSeen++;
      fed++;
      // Half of it live, frame by frame; half in bulk, as a recording opens.
      if (fed <= 50_000) t.append(f);
      else {
        batch.push(f);
        if (batch.length === 1000) {
          t.appendMany(batch);
          batch = [];
        }
      }
      if (fed % 5000 === 0) peak = Math.max(peak, store.getState().timeline.stats.retainedBytes);
    }
    t.appendMany(batch);
    batch = [];
    t.flushLints();
    const stats = store.getState().timeline.stats;
    expect(fed).toBe(100_000);
    expect(bigSeen).toBeGreaterThan(40);
    expect(stats.count + stats.spilled).toBe(100_000);
    expect(stats.spilled).toBeGreaterThan(0);
    expect(stats.retainedBytes).toBeLessThanOrEqual(maxBytes);
    expect(peak).toBeLessThanOrEqual(maxBytes);
    expect(stats.bodyBytes).toBeLessThanOrEqual(maxBodyBytes);
    // Independently: the strings themselves fit (the budget also counts per-entry overhead).
    const held = heldStringBytes(store);
    expect(held.list).toBeLessThanOrEqual(maxBytes);
    expect(held.bodies).toBe(stats.bodyBytes);
    expect(held.bodies).toBeGreaterThan(MiB);
    gc();
    const growth = process.memoryUsage().heapUsed - heapBefore;
    // ~140 MiB went through; what stays is bounded by the budgets (plus objects, spans, lint context).
    expect(growth).toBeLessThan(2 * (maxBytes + maxBodyBytes));
    // The newest entries are there, the oldest spilled, and the list can still be filtered.
    const visible = createVisibleSelector()(store.getState());
    expect(visible.ids.length).toBe(stats.count);
    expect(visible.ids[visible.ids.length - 1]).toBe(99_999);
    expect(store).toBeDefined();
  }, 120_000);
});

/** A store connected to a real demo engine in memory (the same HTTP transport code path). */
async function connectedToDemo(options: Parameters<typeof createInspectorStore>[0] = {}): Promise<{ store: InspectorStore; engine: MockEngine }> {
  const engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
  engines.push(engine);
  // The listen this file follows is a task's (it must close): no list-change listen beside it.
  const store = createInspectorStore({
    ...sync,
    watchListChanges: false,
    fetch: (input, init) => engine.fetch(new Request(new URL(input, 'http://127.0.0.1'), init)),
    ...options,
  });
  await store.getState().connection.connect({ url: '/mcp', mode: 'direct' });
  await new Promise((r) => setTimeout(r, 0));
  return { store, engine };
}

const entries = (store: InspectorStore): TimelineEntry[] => {
  const out: TimelineEntry[] = [];
  store.getState().timeline.buffer.forEach((e) => {
    out.push(e);
  });
  return out;
};

describe('timeline store: a real session', () => {
  it('connects to the demo, records discover and tools/list, and groups spans: exchange, task with its polls, MRTR conversation, listen, bridge', async () => {
    const { store } = await connectedToDemo();
    const c = store.getState().connection;
    expect(c.status).toBe('connected');
    expect(c.server?.info?.name).toBeTruthy();
    expect(c.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['generate_report', 'delete_note', 'charge']));
    const session = c.session!;

    const created = await session.callTool('generate_report', { size: 'small' }, { task: true });
    expect(created.type).toBe('task');
    const taskId = (created as { task: { taskId: string } }).task.taskId;
    await session.getTask(taskId);
    await session.getTask(taskId);
    const mrtr = await session.callWithInput('delete_note', { noteId: 'note-1' }, async (asked) =>
      Object.fromEntries(Object.keys(asked).map((k) => [k, { action: 'accept', content: { confirm: true } }])),
    );
    expect(mrtr.rounds).toBe(2);
    const listen = session.listen({ taskIds: [taskId] });
    await listen.acknowledged;
    listen.close();
    await listen.done;
    c.transport!.record({
      kind: 'bridge',
      direction: 'out',
      exchangeId: 'app-1:1',
      conversationId: 'app-1',
      body: { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} },
    });
    c.transport!.record({ kind: 'bridge', direction: 'in', exchangeId: 'app-1:1', conversationId: 'app-1', body: { jsonrpc: '2.0', id: 1, result: {} } });
    await new Promise((r) => setTimeout(r, 0));
    const t = store.getState().timeline;
    const all = entries(store);

    const discover = all.filter((e) => e.method === 'server/discover');
    expect(discover.map((e) => e.kind)).toEqual(expect.arrayContaining(['http-request', 'http-response']));
    expect(all.some((e) => e.method === 'tools/list' && e.direction === 'in' && e.rpcKind === 'result')).toBe(true);

    // The exchange span holds the request and everything it brought back, and is closed.
    const ex = t.buffer.span(`exchange:${discover[0].exchangeId}`)!;
    expect(ex.count).toBe(all.filter((e) => e.exchangeId === discover[0].exchangeId).length);
    expect(ex.open).toBe(false);
    expect(ex.label).toBe('server/discover');

    // The task span starts at the tools/call that created it and takes in both polls; it shows a fingerprint only.
    const task = t.buffer.span(`task:${taskId}`)!;
    const createReq = all.find((e) => e.method === 'tools/call' && e.target === 'generate_report' && e.direction === 'out')!;
    expect(task.firstId).toBe(createReq.id);
    const polls = all.filter((e) => e.method === 'tasks/get' && e.direction === 'out');
    expect(polls).toHaveLength(2);
    for (const p of polls) {
      expect(p.id).toBeGreaterThan(task.firstId);
      expect(p.id).toBeLessThanOrEqual(task.lastId);
    }
    expect(task.label).toBe(`task ${fingerprint(taskId)}`);
    expect(task.label).not.toContain(taskId);
    expect(all.filter((e) => e.taskId === taskId).every((e) => e.taskFp === fingerprint(taskId))).toBe(true);

    // The MRTR conversation spans both rounds (two JSON-RPC ids, one conversation).
    const conv = t.buffer.spans().find((s) => s.kind === 'conversation')!;
    expect(conv.label).toBe('MRTR delete_note');
    const rounds = all.filter((e) => e.conversationId === mrtr.conversationId && e.direction === 'out');
    expect(new Set(rounds.map((e) => e.rpcId)).size).toBe(2);

    // The listen stream and the app's bridge messages have their own spans.
    const listenSpan = t.buffer.spans().find((s) => s.kind === 'listen')!;
    expect(listenSpan.open).toBe(false);
    expect(t.buffer.span('bridge:app-1')!.count).toBe(2);

    // A snapshot's previous snapshot is the same task's last one.
    const snaps = all.filter((e) => e.snapshot && e.taskId === taskId);
    expect(snaps.length).toBeGreaterThanOrEqual(3);
    expect(t.buffer.previousSnapshot(snaps[2].id)?.id).toBe(snaps[1].id);

    t.flushLints();
    // The only findings: the test polled back to back, faster than pollIntervalMs, and the lint sits on those polls.
    const linted = all.filter((e) => lintsForEntry(t.buffer, e).length);
    expect(linted.map((e) => e.id)).toEqual(polls.map((p) => p.id));
    expect(linted.flatMap((e) => lintsForEntry(t.buffer, e).map((l) => l.id))).toEqual(['task-poll-too-fast', 'task-poll-too-fast']);
    const visible = createVisibleSelector();
    store.getState().timeline.setFilters({ methods: ['tasks/get'] });
    expect(visible(store.getState()).ids.every((id) => t.buffer.get(id)!.method === 'tasks/get')).toBe(true);
    store.getState().timeline.setFilters({ methods: [], direction: 'out' });
    expect(visible(store.getState()).ids.length).toBe(all.filter((e) => e.direction === 'out').length);
    store.getState().timeline.setFilters({ direction: 'all', taskFp: fingerprint(taskId) });
    expect(visible(store.getState()).ids.length).toBe(all.filter((e) => e.taskId === taskId).length);
    store.getState().timeline.setFilters({ taskFp: undefined });
    store.getState().timeline.setSearch('delete_note');
    expect(visible(store.getState()).ids.length).toBeGreaterThanOrEqual(4);
    store.getState().connection.disconnect();
    expect(store.getState().connection.status).toBe('idle');
  });

  it('puts a lint on the entry of a broken exchange (an undefined code in the reserved range)', async () => {
    const store = createInspectorStore(sync);
    const t = store.getState().timeline;
    const headers = { 'content-type': 'application/json' };
    const frames: Frame[] = [];
    const add = (f: Omit<Frame, 'seq' | 'connectionId' | 'at' | 'bytes'>) =>
      frames.push({ seq: frames.length, connectionId: 'c9', at: 1000 + frames.length, bytes: f.raw?.length ?? 0, ...f });
    const req = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'x',
        arguments: {},
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    };
    add({
      direction: 'out',
      kind: 'http-request',
      exchangeId: 'c9:1',
      rpcId: 1,
      method: 'tools/call',
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'x' },
      body: req,
      raw: JSON.stringify(req),
    });
    add({ direction: 'in', kind: 'http-response', exchangeId: 'c9:1', rpcId: 1, method: 'tools/call', httpStatus: 200, headers });
    const res = { jsonrpc: '2.0', id: 1, error: { code: -32023, message: 'Replay store full' } };
    add({ direction: 'in', kind: 'message', exchangeId: 'c9:1', rpcId: 1, method: 'tools/call', body: res, raw: JSON.stringify(res) });
    t.appendMany(frames);
    const response = entries(store).find((e) => e.rpcKind === 'error')!;
    expect(response.isError).toBe(true);
    expect(response.status).toBe('error -32023');
    const lints = lintsForEntry(t.buffer, response);
    expect(lints.map((l) => l.id)).toContain('error-code-reserved-undefined');
    // The request's own findings stay on the request entry.
    const request = entries(store).find((e) => e.kind === 'http-request')!;
    expect(lintsForEntry(t.buffer, request).every((l) => !l.path?.startsWith('response'))).toBe(true);
    const v = createVisibleSelector();
    store.getState().timeline.setFilters({ hasLints: true });
    expect(v(store.getState()).ids).toContain(response.id);
  });
});

describe('timeline store: large payloads', () => {
  const big = (n: number, seq: number): Frame => {
    const raw = JSON.stringify({ jsonrpc: '2.0', id: seq, result: { content: [{ type: 'text', text: `${seq}`.padEnd(n, 'z') }] } });
    return {
      seq,
      at: seq,
      connectionId: 'c',
      direction: 'in',
      kind: 'message',
      exchangeId: `c:${seq}`,
      rpcId: seq,
      method: 'tools/call',
      raw,
      body: JSON.parse(raw),
      bytes: raw.length,
    };
  };

  it('cuts a large payload in the list and keeps its full body once; the oldest bodies leave first, and the entry says so', () => {
    const spilled: SpillBatch[] = [];
    const store = createInspectorStore({
      ...sync,
      lint: false,
      limits: { maxBytes: 2 * MiB, maxBodyBytes: 3 * MiB, previewBytes: 64 * 1024 },
      spill: (b) => spilled.push(b),
    });
    const t = store.getState().timeline;
    const first = big(MiB, 0);
    t.append(first);
    const e = t.buffer.get(0)!;
    expect(e.truncated).toBe(true);
    expect(e.preview!.length).toBe(64 * 1024);
    expect(first.raw!.startsWith(e.preview!)).toBe(true);
    expect(e.fullBody).toBe('kept');
    expect(t.buffer.fullBody(0)).toBe(first.raw);
    // Once: the body store counts it one time, the list only its preview.
    expect(store.getState().timeline.stats.bodyBytes).toBe(first.raw!.length);
    expect(e.cost).toBeLessThan(70 * 1024);
    for (let i = 1; i < 4; i++) t.append(big(MiB, i));
    expect(store.getState().timeline.stats.bodyBytes).toBeLessThanOrEqual(3 * MiB);
    expect(t.buffer.get(0)!.fullBody).toBe('evicted');
    expect(t.buffer.fullBody(0)).toBeUndefined();
    expect(t.buffer.text(0)).toBe(e.preview);
    expect(t.buffer.get(3)!.fullBody).toBe('kept');
    // A body larger than the whole body budget is never kept.
    t.append(big(4 * MiB, 4));
    expect(t.buffer.get(4)!.fullBody).toBe('too-large');
    // Past the list budget the oldest entries spill, with the full bodies they still had.
    for (let i = 5; i < 60; i++) t.append(big(MiB, i));
    const stats = store.getState().timeline.stats;
    expect(stats.retainedBytes).toBeLessThanOrEqual(2 * MiB);
    expect(stats.spilled).toBe(spilled.reduce((n, b) => n + b.entries.length, 0));
    expect(spilled[0].entries[0].id).toBe(0);
    expect([...spilled.flatMap((b) => [...b.bodies.values()])].every((body) => body.length >= MiB)).toBe(true);
  });
});

describe('timeline store: recorded frames without raw text', () => {
  it('serializes a recorded body only when read, and finds it by search, in the detail text and with the same cost', () => {
    const store = createInspectorStore({ ...sync, lint: false });
    const t = store.getState().timeline;
    const body = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'needle in a recording' }] } };
    const text = JSON.stringify(body);
    const base = {
      at: 1,
      connectionId: 'c',
      direction: 'in' as const,
      kind: 'message' as const,
      exchangeId: 'c:7',
      rpcId: 7,
      method: 'tools/call',
      body,
      bytes: text.length,
    };
    t.appendMany([
      { ...base, seq: 0 },
      { ...base, seq: 1, raw: text },
    ]);
    const [recorded, live] = [t.buffer.get(0)!, t.buffer.get(1)!];
    expect(recorded.preview).toBeUndefined();
    expect(recorded.cost).toBe(live.cost);
    expect(recorded).toMatchObject({ status: 'result', rpcKind: 'result', truncated: false });
    const visible = createVisibleSelector();
    store.getState().timeline.setSearch('needle');
    expect(visible(store.getState()).ids).toEqual([0, 1]);
    expect(t.buffer.text(0)).toBe(text);
    expect(t.buffer.get(0)!.pendingBody).toBeUndefined();
  });
});

describe('fault marks on the timeline', () => {
  it('are their own rows, marked on their exchange, not errors of either peer, and filterable', () => {
    const store = createInspectorStore(sync);
    const base = { connectionId: 'tap', exchangeId: 'tap:1', rpcId: 1, method: 'tools/call' };
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: {} } };
    const frames: Frame[] = [
      { ...base, seq: 0, at: 1, direction: 'out', kind: 'http-request', body: request, raw: JSON.stringify(request), bytes: 80 },
      { ...base, seq: 1, at: 2, direction: 'in', kind: 'fault', bytes: 0, fault: { rule: 'http-503', kind: 'http-status', request: 'tools/call add' } },
      { ...base, seq: 2, at: 3, direction: 'in', kind: 'http-response', httpStatus: 503, headers: { 'retry-after': '1' }, bytes: 0 },
    ];
    store.getState().timeline.appendMany(frames);
    const t = store.getState().timeline;
    const all: TimelineEntry[] = [];
    t.buffer.forEach((e) => void all.push(e));
    const mark = all.find((e) => e.kind === 'fault')!;
    expect(mark).toMatchObject({ fault: 'http-503 · http-status · tools/call add', status: 'fault http-status', isError: false });
    expect(t.buffer.span('exchange:tap:1')).toMatchObject({ fault: 'http-503 · http-status · tools/call add', open: true });
    const visible = createVisibleSelector();
    store.getState().timeline.setFilters({ faultsOnly: true });
    expect(visible(store.getState()).ids).toEqual([mark.id]);
    store.getState().timeline.setFilters({ faultsOnly: false });
    store.getState().timeline.setSearch('http-503');
    expect(visible(store.getState()).ids).toEqual([mark.id]);
  });
});
