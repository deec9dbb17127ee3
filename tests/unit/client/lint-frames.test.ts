import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { exchangesFromFrames, lintFrames } from '../../../lib/client/lint-frames';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { buildRequest } from '../../../lib/client/request-builder';
import { createTrackingTransport } from '../../../lib/client/tracking';
import type { Frame } from '../../../lib/client/frames';
import type { FetchTarget } from '../../../lib/client/transport';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';

/** Frames from the real tracking transport, regrouped into exchanges and linted per exchangeId. */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function connect(target: FetchTarget) {
  const frames: Frame[] = [];
  const transport = createTrackingTransport(createMemoryTransport(target), { sink: (f) => frames.push(f), connectionId: 'c1' });
  let id = 0;
  const send = async (method: string, params: Record<string, unknown> = {}, extra: { progressToken?: string } = {}) => {
    const { message, headers } = buildRequest({
      id: ++id,
      method,
      params,
      era: 'modern',
      protocolVersion: '2026-07-28',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
      ...extra,
    });
    for await (const _ of transport.send(message, { headers })) void _;
  };
  return { frames, send };
}

describe('lintFrames', () => {
  it('regroups a tracked session (JSON and SSE answers) and finds nothing wrong with the conformance mock', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('conformance')! });
    engines.push(engine);
    const { frames, send } = connect(engine);
    await send('server/discover');
    await send('tools/list');
    await send('tools/call', { name: 'test_tool_with_progress', arguments: {} }, { progressToken: 'p-1' });
    const grouped = exchangesFromFrames(frames);
    expect(grouped.map((g) => g.exchange.method)).toEqual(['server/discover', 'tools/list', 'tools/call']);
    const progress = grouped[2].exchange;
    expect(progress.transport).toBe('http');
    expect(progress.response?.status).toBe(200);
    expect(progress.frames).toHaveLength(3);
    const body = progress.response?.body as { result: { resultType: string } } | undefined;
    expect(body?.result.resultType).toBe('complete');
    const lints = lintFrames(frames);
    expect([...lints.keys()]).toEqual(grouped.map((g) => g.exchangeId));
    expect([...lints.values()].flat()).toEqual([]);
  });

  it('puts a lint on the entry where the server broke a rule', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
    engines.push(engine);
    let calls = 0;
    // A server that mints a session id on its second answer only.
    const sloppy: FetchTarget = {
      async fetch(req) {
        const res = await engine.fetch(req);
        if (++calls !== 2) return res;
        const headers = new Headers(res.headers);
        headers.set('Mcp-Session-Id', 'sess-1');
        return new Response(res.body, { status: res.status, headers });
      },
    };
    const { frames, send } = connect(sloppy);
    await send('server/discover');
    await send('tools/list');
    await send('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const lints = [...lintFrames(frames).values()];
    expect(lints.map((l) => l.map((x) => x.id))).toEqual([[], ['session-id-minted'], []]);
    expect(lints[1][0]).toMatchObject({ severity: 'error', specRef: 'basic/transports/streamable-http#sessions', path: 'response.headers.Mcp-Session-Id' });
  });
});

describe('lintFrames and pushed task snapshots', () => {
  it('lints a tasks/update against the input request a listen pushed before it, as the live timeline does', () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    const snap = (status: string, extra: Record<string, unknown> = {}) => ({
      taskId: 'task-1',
      status,
      createdAt: '2026-12-01T10:00:00Z',
      lastUpdatedAt: '2026-12-01T10:00:00Z',
      ttlMs: 600_000,
      pollIntervalMs: 1_000,
      ...extra,
    });
    let seq = 0;
    const frame = (exchangeId: string, at: number, direction: 'in' | 'out', kind: Frame['kind'], body: Record<string, unknown>): Frame => ({
      seq: seq++,
      at,
      connectionId: 'c1',
      exchangeId,
      direction,
      kind,
      ...(typeof body.method === 'string' ? { method: body.method } : {}),
      body,
      bytes: 10,
    });
    const ask = { approve: { method: 'elicitation/create', params: { mode: 'form', message: 'OK?', requestedSchema: { type: 'object', properties: {} } } } };
    const frames = [
      frame('e1', 0, 'out', 'http-request', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'report', _meta: meta } }),
      frame('e1', 10, 'in', 'message', { jsonrpc: '2.0', id: 1, result: { resultType: 'task', ...snap('working') } }),
      frame('e2', 100, 'out', 'http-request', {
        jsonrpc: '2.0',
        id: 2,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: ['task-1'] }, _meta: meta },
      }),
      frame('e2', 200, 'in', 'sse-frame', { jsonrpc: '2.0', method: 'notifications/tasks', params: snap('input_required', { inputRequests: ask }) }),
      frame('e3', 300, 'out', 'http-request', {
        jsonrpc: '2.0',
        id: 3,
        method: 'tasks/update',
        params: { taskId: 'task-1', inputResponses: { approve: { action: 'accept', content: {} } }, _meta: meta },
      }),
      frame('e3', 310, 'in', 'message', { jsonrpc: '2.0', id: 3, result: { resultType: 'complete' } }),
    ];
    const ids = (exchangeId: string) => (lintFrames(frames).get(exchangeId) ?? []).map((l) => l.id);
    expect(ids('e3')).not.toContain('task-update-unknown-key');
    // Without the pushed snapshot the same update answers a key the client was never shown.
    const unseen = frames.filter((f) => f.kind !== 'sse-frame');
    expect((lintFrames(unseen).get('e3') ?? []).map((l) => l.id)).toContain('task-update-unknown-key');
  });
});
