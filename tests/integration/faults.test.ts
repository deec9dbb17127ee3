import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../lib/engine/faults';
import { ScenarioSchema, type ScenarioInput } from '../../lib/scenario/schema';
import type { FaultAction, FaultMatch } from '../../lib/scenario/fault-schema';
import { CAPS } from '../helpers/rpc';
import { startCliMock } from '../helpers/processes';
import { controlApi } from './http-target';
import { responseTo, send, sseData, sseMessages, startWireServer, type WireServer } from './wire';

/**
 * Every fault kind observed by a real HTTP client on a real socket: statuses and headers,
 * JSON-RPC error bodies, delays (lower bounds only), a stream that goes silent but stays open,
 * one that is cut, a frame that is not JSON, duplicated and reordered notifications, and a
 * response dripped out in small chunks. Each scenario carries one fault.
 */

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

/** A scenario with an `echo` tool, a `count` tool that reports 5 progress steps, a manual task tool, and one fault. */
function scenario(
  id: string,
  action: FaultAction | Record<string, unknown>,
  match: FaultMatch = { tool: 'count' },
  extra: Partial<ScenarioInput> = {},
): ScenarioInput {
  return {
    id,
    server: { name: id, version: '1.0.0' },
    tools: [
      { name: 'echo', inputSchema: { type: 'object' }, result: text('echoed') },
      {
        name: 'count',
        inputSchema: { type: 'object' },
        progress: { steps: [1, 2, 3, 4, 5].map((n) => ({ progress: n, total: 5, message: `step ${n}` })), intervalMs: 20 },
        result: text('counted to 5'),
      },
      {
        name: 'job',
        inputSchema: { type: 'object' },
        task: { mode: 'required', steps: [{ status: 'working', statusMessage: 'waiting', manual: true }, { result: text('job done') }] },
      },
    ],
    faults: [{ name: `${id}-fault`, match, action: action as FaultAction }],
    ...extra,
  };
}

const SCENARIOS: ScenarioInput[] = [
  scenario('f-rpc', { kind: 'rpc-error', code: -32050, message: 'Upstream refused the call', data: { retryable: false }, status: 502 }, { tool: 'echo' }),
  scenario('f-http', { kind: 'http-status', status: 503, retryAfter: 7 }, { method: 'tools/call', nth: [1, 2] }),
  scenario('f-latency', { kind: 'latency', ms: 400 }, { method: 'tools/list' }),
  scenario('f-latency-dist', { kind: 'latency', distribution: 'uniform', min: 300, max: 350 }, { tool: 'echo' }),
  scenario('f-stall', { kind: 'stall', afterEvents: 2 }, { tool: 'count' }, { settings: { keepAliveMs: 100 } as never }),
  scenario('f-drop', { kind: 'drop', afterEvents: 2 }),
  scenario('f-drop-json', { kind: 'drop', afterEvents: 0 }, { tool: 'echo' }),
  scenario('f-garbage', { kind: 'garbage', afterEvents: 1, text: 'this is not JSON {' }),
  scenario('f-dup', { kind: 'duplicate' }),
  scenario('f-ooo', { kind: 'out-of-order', order: 'reverse' }),
  scenario('f-shuffle', { kind: 'out-of-order', order: 'shuffle' }, { tool: 'count' }, { seed: 11 }),
  scenario('f-drip', { kind: 'drip', bytesPerChunk: 16, intervalMs: 20 }, { method: 'tools/list' }),
  scenario('f-prob', { kind: 'http-status', status: 503, retryAfter: 1 }, { method: 'tools/list', probability: 0.5 }, { seed: 99 }),
  scenario('reset-a', { kind: 'rpc-error', code: -32050, message: 'first call fails' }, { tool: 'echo', nth: 1 }),
  scenario('reset-b', { kind: 'latency', ms: 0 }, { tool: 'echo' }),
];

const progressOf = (t: string) =>
  sseMessages(t)
    .filter((m) => m.method === 'notifications/progress')
    .map((m) => m.params.progress as number);
const countArgs = { name: 'count', arguments: {} };
const withProgress = { meta: { progressToken: 'p' } };

describe('faults on the wire', () => {
  let srv: WireServer;
  beforeAll(async () => {
    srv = await startWireServer(SCENARIOS);
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('rpc-error: the JSON-RPC error body with the configured HTTP status', async () => {
    const r = await send(srv.url('f-rpc'), 'tools/call', { name: 'echo', arguments: {} });
    expect(r.status).toBe(502);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    await r.drain();
    expect(JSON.parse(r.text())).toEqual({
      jsonrpc: '2.0',
      id: r.id,
      error: { code: -32050, message: 'Upstream refused the call', data: { retryable: false } },
    });
    // Other tools are untouched.
    const other = await send(srv.url('f-rpc'), 'tools/call', countArgs);
    await other.drain();
    expect(JSON.parse(other.text()).result.content[0].text).toBe('counted to 5');
    expect(
      srv.host
        .engine('f-rpc')!
        .journal.entries()
        .map((e) => e.fault ?? null),
    ).toEqual(['f-rpc-fault', null]);
  });

  it('http-status: a 503 storm with Retry-After on the first two calls, then service resumes', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await send(srv.url('f-http'), 'tools/call', { name: 'echo', arguments: {} });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('7');
      await r.drain();
      expect(r.text()).toBe('Service Unavailable');
    }
    const ok = await send(srv.url('f-http'), 'tools/call', { name: 'echo', arguments: {} });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('retry-after')).toBeNull();
  });

  it('latency: a fixed delay and a distributed one (lower bounds only)', async () => {
    let t0 = performance.now();
    const r = await send(srv.url('f-latency'), 'tools/list');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(395);
    expect(r.status).toBe(200);
    t0 = performance.now();
    const d = await send(srv.url('f-latency-dist'), 'tools/call', { name: 'echo', arguments: {} });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(295);
    await d.drain();
    expect(JSON.parse(d.text()).result.content[0].text).toBe('echoed');
  });

  it('stall: two events, then silence (not even keep-alives) while the connection stays open', async () => {
    const r = await send(srv.url('f-stall'), 'tools/call', countArgs, withProgress);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await r.until((t) => progressOf(t).length >= 2, 5_000)).toEqual({ matched: true });
    const before = r.text();
    // keepAliveMs is 100 in this scenario: a healthy idle stream would have sent several by now.
    expect(await r.next(800)).toEqual({ timeout: true });
    expect(r.text()).toBe(before);
    expect(progressOf(before)).toEqual([1, 2]);
    expect(responseTo(before, r.id)).toBeUndefined();
    await r.close();
  });

  it('drop: two events, then the stream is cut without the final response', async () => {
    const r = await send(srv.url('f-drop'), 'tools/call', countArgs, withProgress);
    const end = await r.drain(5_000);
    expect('timeout' in end).toBe(false);
    expect(progressOf(r.text())).toEqual([1, 2]);
    expect(responseTo(r.text(), r.id)).toBeUndefined();
    // A request that would have answered with JSON gets a stream that is cut before anything.
    const j = await send(srv.url('f-drop-json'), 'tools/call', { name: 'echo', arguments: {} });
    expect(j.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const jEnd = await j.drain(5_000);
    expect('timeout' in jEnd).toBe(false);
    expect(j.text()).toBe('');
    const entry = srv.host.engine('f-drop')!.journal.entries().at(-1)!;
    expect(entry).toMatchObject({ fault: 'f-drop-fault', end: 'dropped' });
  });

  it('garbage: a data frame that is not JSON, after which the stream carries on', async () => {
    const r = await send(srv.url('f-garbage'), 'tools/call', countArgs, withProgress);
    await r.drain();
    const data = sseData(r.text());
    const bad = data.filter((d) => {
      try {
        JSON.parse(d);
        return false;
      } catch {
        return true;
      }
    });
    expect(bad).toEqual(['this is not JSON {']);
    expect(data.indexOf('this is not JSON {')).toBe(1);
    expect(progressOf(r.text())).toEqual([1, 2, 3, 4, 5]);
    expect(responseTo(r.text(), r.id)?.result.content[0].text).toBe('counted to 5');
  });

  it('duplicate: every notification twice, the response once', async () => {
    const r = await send(srv.url('f-dup'), 'tools/call', countArgs, withProgress);
    await r.drain();
    expect(progressOf(r.text())).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect(sseMessages(r.text()).filter((m) => m.id === r.id)).toHaveLength(1);
  });

  it('out-of-order: notifications reversed, or shuffled the same way for the same seed', async () => {
    const r = await send(srv.url('f-ooo'), 'tools/call', countArgs, withProgress);
    await r.drain();
    expect(progressOf(r.text())).toEqual([5, 4, 3, 2, 1]);
    const last = sseMessages(r.text()).at(-1)!;
    expect(last.id).toBe(r.id);

    const orders: number[][] = [];
    for (let i = 0; i < 3; i++) {
      if (i === 2) expect((await controlApi(srv.base, srv.token, '/api/scenarios/f-shuffle/reset')).status).toBe(200);
      const s = await send(srv.url('f-shuffle'), 'tools/call', countArgs, withProgress);
      await s.drain();
      orders.push(progressOf(s.text()));
    }
    expect([...orders[0]].sort()).toEqual([1, 2, 3, 4, 5]);
    // After a reset the PRNG restarts: the first shuffle repeats.
    expect(orders[2]).toEqual(orders[0]);
    expect(orders.some((o) => o.join() !== '1,2,3,4,5')).toBe(true);
  });

  it('drip: the JSON response arrives slowly in many small chunks', async () => {
    const t0 = performance.now();
    const r = await send(srv.url('f-drip'), 'tools/list');
    await r.drain();
    const elapsed = performance.now() - t0;
    const body = r.text();
    expect(JSON.parse(body).result.tools.map((t: { name: string }) => t.name)).toEqual(['count', 'echo', 'job']);
    const pieces = Math.ceil(Buffer.byteLength(body) / 16);
    expect(r.chunks.length).toBeGreaterThanOrEqual(Math.min(10, pieces));
    expect(Math.max(...r.chunks.map((c) => Buffer.byteLength(c)))).toBeLessThanOrEqual(32);
    expect(elapsed).toBeGreaterThanOrEqual((pieces - 1) * 20 - 5);
  });

  it('probability: the same seed fails the same requests, and a reset replays the sequence', async () => {
    const run = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) {
        const r = await send(srv.url('f-prob'), 'tools/list');
        await r.drain();
        statuses.push(r.status);
      }
      return statuses;
    };
    const first = await run();
    expect(first).toContain(503);
    expect(first).toContain(200);
    await controlApi(srv.base, srv.token, '/api/scenarios/f-prob/reset');
    expect(await run()).toEqual(first);
    // A second server with the same seed fails the same requests.
    const other = await startWireServer([SCENARIOS.find((s) => s.id === 'f-prob')!]);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await send(other.url('f-prob'), 'tools/list')).status);
      expect(statuses).toEqual(first);
    } finally {
      await other.stop();
    }
  });

  it('reset of one scenario restarts its fault counters and drops its tasks, and leaves another scenario alone', async () => {
    const call = async (id: string) => {
      const r = await send(srv.url(id), 'tools/call', { name: 'echo', arguments: {} });
      await r.drain();
      return JSON.parse(r.text());
    };
    expect((await call('reset-a')).error.message).toBe('first call fails');
    expect((await call('reset-a')).result).toBeDefined();
    const jobs: Record<string, string> = {};
    for (const id of ['reset-a', 'reset-b']) {
      const r = await send(srv.url(id), 'tools/call', { name: 'job', arguments: {} }, { caps: CAPS.tasks });
      await r.drain();
      jobs[id] = JSON.parse(r.text()).result.taskId;
    }
    const reset = await controlApi(srv.base, srv.token, '/api/scenarios/reset-a/reset');
    expect(reset.status).toBe(200);

    expect((await call('reset-a')).error.message).toBe('first call fails');
    const listA = await controlApi(srv.base, srv.token, '/api/scenarios/reset-a/tasks', 'GET');
    expect(listA.json.tasks).toEqual([]);
    const listB = await controlApi(srv.base, srv.token, '/api/scenarios/reset-b/tasks', 'GET');
    expect((listB.json.tasks as { taskId: string }[]).map((t) => t.taskId)).toEqual([jobs['reset-b']]);
    const getB = await send(srv.url('reset-b'), 'tasks/get', { taskId: jobs['reset-b'] }, { caps: CAPS.tasks });
    await getB.drain();
    expect(JSON.parse(getB.text()).result).toMatchObject({ taskId: jobs['reset-b'], status: 'working' });
    const getA = await send(srv.url('reset-a'), 'tasks/get', { taskId: jobs['reset-a'] }, { caps: CAPS.tasks });
    await getA.drain();
    expect(JSON.parse(getA.text()).error.message).toMatch(/not found/i);
  });
});

describe('mcp-loupe mock --seed', () => {
  it("seeds the fault PRNG of a scenario file, overriding the file's seed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-seed-'));
    const input = scenario('seeded', { kind: 'http-status', status: 503, retryAfter: 3 }, { method: 'tools/list', probability: 0.5 }, { seed: 1 });
    const file = path.join(dir, 'seeded.yaml');
    fs.writeFileSync(file, stringify(input));
    const faults = ScenarioSchema.parse(input).faults;
    const expected = (seed: number | string) => {
      const injector = createFaultInjector(faults, seed);
      return Array.from({ length: 12 }, () => (injector.plan({ method: 'tools/list' }) ? 503 : 200));
    };
    expect(expected('5')).not.toEqual(expected(1));
    const mock = await startCliMock([file, '--data-dir', path.join(dir, 'data'), '--seed', '5']);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await send(mock.url, 'tools/list');
        await r.drain();
        if (r.status === 503) expect(r.headers.get('retry-after')).toBe('3');
        statuses.push(r.status);
      }
      expect(statuses).toEqual(expected('5'));
    } finally {
      await mock.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
