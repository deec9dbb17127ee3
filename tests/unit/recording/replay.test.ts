import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { parseSseText } from '../../../lib/client/sse';
import { canonicalParams, createReplay, type ReplayServe } from '../../../lib/recording/replay';
import { createReplayServerHandler } from '../../../lib/server/replay-server';
import { recordSession, type RecordedSession } from './session';

/**
 * A recording served as a mock: matched on method and params (ignoring `_meta` and ids),
 * answers in recorded order, sequential fallback, errors that say what was expected.
 */

let session: RecordedSession;
beforeAll(async () => {
  session = await recordSession();
});
afterAll(() => session?.engine.close());

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'someone-else', version: '9' } };
const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1:3002/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

describe('replay', () => {
  it('compares params canonically, without _meta', () => {
    expect(canonicalParams({ b: 1, a: { _meta: { x: 1 }, c: [2, { e: 1, d: 0 }] }, _meta: { p: 'x' } })).toBe('{"a":{"c":[2,{"d":0,"e":1}]},"b":1}');
  });

  it('satisfies the same client run again: discovery, tools, MRTR, a progress stream, an error and a task with input', async () => {
    const replay = createReplay(session.recording);
    const client = createClientSession({
      transport: createMemoryTransport(replay, { url: 'http://127.0.0.1/mcp' }),
      era: 'auto',
      capabilities: { elicitation: { form: {} } },
    });
    // The recorded mock serves 2025-11-25 too (settings.legacy, the default), and says so.
    expect(await client.discover()).toMatchObject({ type: 'complete', result: { supportedVersions: ['2026-07-28', '2025-11-25'] } });
    expect(client.server?.info).toMatchObject({ name: 'rec-test', version: '1.2.3' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['broken', 'confirm', 'echo', 'report', 'slowly']);
    expect(await client.callTool('echo', { text: 'hello' })).toMatchObject({ type: 'complete', result: { content: [{ type: 'text', text: 'echo: hello' }] } });
    const confirmed = await client.callWithInput('confirm', {}, async (reqs) =>
      Object.fromEntries(Object.keys(reqs).map((k) => [k, { action: 'accept', content: { yes: true } }])),
    );
    expect(confirmed).toMatchObject({ type: 'complete', rounds: 2, result: { content: [{ text: 'confirmed' }] } });
    const progress: number[] = [];
    expect(await client.callTool('slowly', {}, { onProgress: (p) => progress.push(p.progress) })).toMatchObject({
      type: 'complete',
      result: { content: [{ text: expect.stringContaining('slow done') }] },
    });
    expect(progress).toEqual([1, 2]);
    expect(await client.callTool('broken', {})).toMatchObject({ type: 'error', error: { code: -32050, message: 'Broken on purpose' } });
    const created = await client.callTool('report', {}, { task: true });
    if (created.type !== 'task') throw new Error(`expected a task, got ${created.type}`);
    expect(created.task.taskId).toBe(session.taskId);
    // The recorded client also listened; the task's end came in a notification.
    const end = await client.followTask(created.task, {
      listen: true,
      answer: async () => ({ approve: { action: 'accept', content: { approved: true } } }),
      waitMs: 10_000,
    }).done;
    expect(end).toMatchObject({ kind: 'terminal', task: { status: 'completed', result: { content: [{ text: 'Report done' }] } } });
  });

  it('a client that only polls still sees the task end the recording saw (in a notification)', async () => {
    const replay = createReplay(session.recording);
    const client = createClientSession({ transport: createMemoryTransport(replay), era: 'modern', capabilities: { elicitation: { form: {} } } });
    const created = await client.callTool('report', {}, { task: true });
    if (created.type !== 'task') throw new Error(`expected a task, got ${created.type}`);
    const end = await client.followTask(created.task, { answer: async () => ({ approve: { action: 'accept', content: { approved: true } } }), waitMs: 10_000 })
      .done;
    expect(end).toMatchObject({ kind: 'terminal', task: { status: 'completed', result: { content: [{ text: 'Report done' }] } } });
  });

  it('puts the incoming id and progress token into the recorded answer, JSON and SSE alike', async () => {
    const replay = createReplay(session.recording);
    const json = await replay.fetch(
      post({ jsonrpc: '2.0', id: 'abc-1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: META } }),
    );
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ jsonrpc: '2.0', id: 'abc-1', result: { resultType: 'complete', content: [{ type: 'text', text: 'echo: hello' }] } });
    const sse = await replay.fetch(
      post({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'slowly', arguments: {}, _meta: { ...META, progressToken: 'mine' } } }),
    );
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSseText(await sse.text()).flatMap((i) => (i.type === 'event' ? [JSON.parse(i.event.data)] : []));
    expect(events.map((e) => e.method ?? 'response')).toEqual(['notifications/progress', 'notifications/progress', 'response']);
    expect(events[0].params.progressToken).toBe('mine');
    expect(events[2].id).toBe(77);
  });

  it('replays equal requests in recorded order, then the newest state; with loose, falls back to the next answer of the method', async () => {
    const served: ReplayServe[] = [];
    const replay = createReplay(session.recording, { onServe: (s) => served.push(s), loose: true });
    const get = () => replay.fetch(post({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: session.taskId, _meta: META } })).then((r) => r.json());
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get()).result.status);
    const recorded = session.recording.frames
      .filter((f) => f.kind === 'message' && f.method === 'tasks/get')
      .map((f) => (f.body as { result: { status: string } }).result.status);
    expect(statuses.slice(0, recorded.length)).toEqual(recorded);
    // Past the recorded polls: the newest state the recording saw, whether the last poll or the
    // listen stream's notification saw the end first (the session races them).
    expect(statuses.slice(recorded.length)).toEqual(Array(6 - recorded.length).fill('completed'));
    expect(served.map((s) => s.match)).toEqual([...Array(recorded.length).fill('exact'), ...Array(6 - recorded.length).fill('repeat')]);
    const other = await replay
      .fetch(post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'something else' } } }))
      .then((r) => r.json());
    expect(other.result.content[0].text).toBe('echo: hello');
    expect(served[served.length - 1]).toMatchObject({ method: 'tools/call', match: 'sequential' });
  });

  it('never answers an unrecorded request with an unrelated answer: the error names it and the closest recorded one', async () => {
    const replay = createReplay(session.recording);
    const res = await replay.fetch(post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }));
    const body = await res.json();
    expect(body).toMatchObject({
      id: 5,
      error: {
        code: -32602,
        message: expect.stringContaining('tools/call {"arguments":{"text":"hi"},"name":"echo"} was never recorded'),
        data: { notRecorded: { method: 'tools/call' }, closest: { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } } },
      },
    });
    expect(JSON.stringify(body)).not.toContain('echo: hello');
  });

  it('answers what it cannot match with a JSON-RPC error saying what was expected', async () => {
    const replay = createReplay(session.recording);
    const unknown = await replay.fetch(post({ jsonrpc: '2.0', id: 3, method: 'prompts/list', params: {} }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      id: 3,
      error: { code: -32601, message: expect.stringContaining('no prompts/list request was recorded (recorded: server/discover, tools/list, tools/call') },
    });
    await replay.fetch(post({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://test/view.html' } }));
    const spent = await replay.fetch(post({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'ui://other' } })).then((r) => r.json());
    expect(spent).toMatchObject({
      id: 4,
      error: {
        code: -32602,
        message: expect.stringContaining('resources/read {"uri":"ui://other"} was never recorded'),
        data: { notRecorded: { params: { uri: 'ui://other' } }, closest: { method: 'resources/read', params: { uri: 'ui://test/view.html' } } },
      },
    });
    expect(await replay.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{oops' })).then((r) => r.json())).toMatchObject({
      error: { code: -32700 },
    });
  });

  it('keeps the mock endpoint guards: loopback Host, allowed Origin, POST with JSON', async () => {
    const server = createReplayServerHandler(session.recording);
    const ok = await server.fetch(post({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }, { Host: '127.0.0.1:3002' }));
    expect(ok.status).toBe(200);
    expect((await server.fetch(post({ jsonrpc: '2.0', id: 1, method: 'server/discover' }, { Host: 'evil.example:3002' }))).status).toBe(403);
    expect(
      (await server.fetch(post({ jsonrpc: '2.0', id: 1, method: 'server/discover' }, { Host: '127.0.0.1:3002', Origin: 'https://evil.example' }))).status,
    ).toBe(403);
    expect((await server.fetch(new Request('http://127.0.0.1:3002/mcp', { method: 'GET' }))).status).toBe(405);
    expect(
      (await server.fetch(new Request('http://127.0.0.1:3002/mcp', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' }))).status,
    ).toBe(415);
    const big = new Request('http://127.0.0.1:3002/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: 'x'.repeat(5 * 1024 * 1024),
    });
    expect((await server.fetch(big)).status).toBe(413);
  });
});
