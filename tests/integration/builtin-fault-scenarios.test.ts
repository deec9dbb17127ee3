import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../lib/engine';
import { listen } from '../../lib/adapters/node-http';
import { getBuiltinScenario } from '../../lib/scenario/builtins';
import { CAPS, type RpcBody } from '../helpers/rpc';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock';
import { controlApi } from './http-target';
import { responseTo, send, sseData, sseMessages, startWireServer, type WireServer } from './wire';

/**
 * Each built-in beyond demo and conformance validates and makes its point over real HTTP:
 * flaky-network fails the same requests for its seed, slow-approvals keeps a task waiting on
 * people, cancel-resistant ignores or outlives tasks/cancel, dropped-listen cuts listen streams,
 * and legacy-server speaks 2025-11-25 only.
 */

const IDS = ['flaky-network', 'slow-approvals', 'cancel-resistant', 'dropped-listen', 'legacy-server'];

/** JSON body of a non-streamed answer. */
async function json(r: Awaited<ReturnType<typeof send>>): Promise<RpcBody> {
  await r.drain();
  return JSON.parse(r.text());
}

/** A built-in on a fake clock behind a real node:http server. */
async function serveOnFakeClock(id: string): Promise<{ engine: MockEngine; clock: FakeClock; url: string; stop: () => Promise<void> }> {
  const clock = createFakeClock();
  const engine = createMockEngine({ scenario: getBuiltinScenario(id)!, clock });
  const server = await listen(engine.fetch, '127.0.0.1', 0);
  return {
    engine,
    clock,
    url: `http://127.0.0.1:${server.port}/mcp`,
    stop: async () => {
      await server.close();
      engine.close();
    },
  };
}

describe('built-in fault scenarios', () => {
  let srv: WireServer;
  beforeAll(async () => {
    srv = await startWireServer();
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('each validates and carries a description', () => {
    for (const id of IDS) {
      const s = getBuiltinScenario(id);
      expect(s?.id).toBe(id);
      expect(s!.description!.length).toBeGreaterThan(80);
    }
  });

  it('flaky-network: with its seed the same calls get 503 + Retry-After, a delay and a garbage frame, run after run', async () => {
    const url = srv.url('flaky-network');
    const observe = async () => {
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await send(url, 'tools/call', { name: 'get_forecast', arguments: { city: 'Lisbon' } });
        await r.drain();
        if (r.status === 503) {
          expect(r.headers.get('retry-after')).toBe('1');
          expect(r.text()).toMatch(/retry after 1 second/);
          seen.push('503');
          continue;
        }
        const streamed = r.headers.get('content-type')!.startsWith('text/event-stream');
        const junk = streamed ? sseData(r.text()).filter((d) => d.startsWith('<html>')) : [];
        const answer = streamed ? responseTo(r.text(), r.id) : JSON.parse(r.text());
        expect(answer?.result.content[0].text).toMatch(/Forecast for Lisbon/);
        seen.push(junk.length ? 'garbage' : 'ok');
      }
      return seen;
    };
    // Seed 37 from a fresh state: the 2nd call hits the gateway, the 3rd carries a proxy error page.
    expect(await observe()).toEqual(['ok', '503', 'garbage']);
    expect((await controlApi(srv.base, srv.token, '/api/scenarios/flaky-network/reset')).status).toBe(200);
    expect(await observe()).toEqual(['ok', '503', 'garbage']);
    const faults = srv.host
      .engine('flaky-network')!
      .journal.entries()
      .map((e) => e.fault);
    expect(faults.every((f) => f?.includes('slow-upstream'))).toBe(true);
  });

  it('slow-approvals: polls every 2 s, status messages while waiting, input, then a manual finance sign-off', async () => {
    const { engine, clock, url, stop } = await serveOnFakeClock('slow-approvals');
    try {
      const caps = CAPS.formAndTasks;
      const created = await json(await send(url, 'tools/call', { name: 'request_purchase', arguments: { item: 'a laptop', amountCents: 150_000 } }, { caps }));
      expect(created.result).toMatchObject({
        resultType: 'task',
        status: 'working',
        pollIntervalMs: 2000,
        statusMessage: 'Filing the purchase request for a laptop',
      });
      const taskId = created.result.taskId as string;
      const get = async () => (await json(await send(url, 'tasks/get', { taskId }, { caps }))).result;
      const messages: string[] = [];
      for (let t = 0; t < 30; t += 6) {
        clock.advance(t === 0 ? 1_500 : 6_000);
        const snap = await get();
        expect(snap.status).toBe('working');
        messages.push(snap.statusMessage);
      }
      expect(new Set(messages).size).toBeGreaterThanOrEqual(5);
      expect(messages[0]).toBe('Waiting for your manager to approve');
      clock.advance(6_000);
      const asking = await get();
      expect(asking).toMatchObject({ status: 'input_required', statusMessage: 'Approved by your manager: confirm the cost center' });
      expect(asking.inputRequests.cost_center.params.requestedSchema.properties.costCenter.enum).toContain('engineering');
      await json(
        await send(url, 'tasks/update', { taskId, inputResponses: { cost_center: { action: 'accept', content: { costCenter: 'engineering' } } } }, { caps }),
      );
      // The finance sign-off is manual: an hour later it still waits.
      clock.advance(3_600_000);
      expect(await get()).toMatchObject({ status: 'working', statusMessage: 'Waiting for finance sign-off' });
      await engine.tasks.control(taskId, { kind: 'advance' });
      const done = await get();
      expect(done.status).toBe('completed');
      expect(done.result.content[0].text).toBe('Purchase of a laptop approved and charged to engineering.');
    } finally {
      await stop();
    }
  });

  it('cancel-resistant: the migration stays working for 3 polls after tasks/cancel; the export completes anyway', async () => {
    const { clock, url, stop } = await serveOnFakeClock('cancel-resistant');
    try {
      const caps = CAPS.tasks;
      const migration = (await json(await send(url, 'tools/call', { name: 'migrate_database', arguments: { database: 'shop' } }, { caps }))).result
        .taskId as string;
      const ack = await json(await send(url, 'tasks/cancel', { taskId: migration }, { caps }));
      expect(ack.result).toEqual({ resultType: 'complete' });
      const statuses: string[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await json(await send(url, 'tasks/get', { taskId: migration }, { caps }))).result.status);
      expect(statuses).toEqual(['working', 'working', 'working', 'cancelled', 'cancelled']);

      const exportId = (await json(await send(url, 'tools/call', { name: 'export_archive', arguments: { project: 'atlas' } }, { caps }))).result
        .taskId as string;
      expect((await json(await send(url, 'tasks/cancel', { taskId: exportId }, { caps }))).result).toEqual({ resultType: 'complete' });
      expect((await json(await send(url, 'tasks/get', { taskId: exportId }, { caps }))).result.status).toBe('working');
      clock.advance(3_100);
      const done = (await json(await send(url, 'tasks/get', { taskId: exportId }, { caps }))).result;
      expect(done).toMatchObject({ status: 'completed', statusMessage: 'Export finished although a cancel was requested' });
      expect(done.result.content[0].text).toBe('Exported atlas to archive-atlas.tar.gz.');
    } finally {
      await stop();
    }
  });

  it('dropped-listen: every listen is cut after the ack and one notification; re-listening and refetching works', async () => {
    const url = srv.url('dropped-listen');
    const caps = CAPS.tasks;
    const taskId = (await json(await send(url, 'tools/call', { name: 'build_project', arguments: { project: 'atlas' } }, { caps }))).result.taskId as string;
    for (let attempt = 0; attempt < 2; attempt++) {
      const listen = await send(url, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, { caps });
      expect(listen.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const end = await listen.drain(5_000);
      expect('timeout' in end).toBe(false);
      const messages = sseMessages(listen.text());
      expect(messages.map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tasks']);
      expect(messages[1].params).toMatchObject({ taskId, status: 'working' });
      expect(responseTo(listen.text(), listen.id)).toBeUndefined();
    }
    const refetched = await json(await send(url, 'tasks/get', { taskId }, { caps }));
    expect(refetched.result).toMatchObject({ taskId, status: 'working' });
    const listens = srv.host
      .engine('dropped-listen')!
      .journal.entries()
      .filter((e) => e.method === 'subscriptions/listen');
    expect(listens.map((e) => [e.fault, e.end])).toEqual([
      ['proxy-cuts-listen', 'dropped'],
      ['proxy-cuts-listen', 'dropped'],
    ]);
  });

  it('legacy-server: a 2026-07-28 request gets -32022 naming 2025-11-25; initialize and experimental tasks work', async () => {
    const url = srv.url('legacy-server');
    const modern = await send(url, 'tools/list');
    expect(modern.status).toBe(400);
    expect((await json(modern)).error).toMatchObject({ code: -32022, data: { supported: ['2025-11-25'], requested: '2026-07-28' } });

    let nextId = 1;
    const legacy = async (method: string, params: Record<string, unknown> = {}) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(method === 'initialize' ? {} : { 'MCP-Protocol-Version': '2025-11-25' }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      });
      return { status: res.status, body: (await res.json()) as RpcBody };
    };
    const init = await legacy('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old-client', version: '1' } });
    expect(init.body.result).toMatchObject({ protocolVersion: '2025-11-25', capabilities: { tasks: { requests: { tools: { call: {} } } } } });
    const tools = (await legacy('tools/list')).body.result.tools as { name: string; execution?: { taskSupport: string } }[];
    expect(Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? 'none']))).toEqual({
      lookup_word: 'none',
      summarize_document: 'optional',
      transcode_video: 'required',
    });
    const created = await legacy('tools/call', { name: 'transcode_video', arguments: { videoId: 'v1', format: 'webm' }, task: { ttl: 60_000 } });
    expect(created.body.result.task).toMatchObject({ status: 'working', ttl: 60_000 });
    const result = await legacy('tasks/result', { taskId: created.body.result.task.taskId });
    expect(result.body.result.content[0].text).toBe('Transcoded v1 to webm.');
  });
});
