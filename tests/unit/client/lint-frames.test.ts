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
