import { describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { ScenarioSchema } from '../../../lib/scenario/schema';
import { CAPS, rpc } from '../../helpers/rpc';

/**
 * Both eras on one endpoint: the body's `_meta` decides the era and the headers must agree;
 * `initialize` opens a 2025-11-25 session (HTTP) or turns the connection legacy (stdio); input
 * reaches a 2025-11-25 client as a real request, answered by a POSTed response; a session stream
 * resumes with Last-Event-ID; a POSTed response that answers nothing is refused.
 */

const URL_ = 'http://127.0.0.1/mcp';
const demo = () => createMockEngine({ scenario: getBuiltinScenario('demo')! });

function post(engine: MockEngine, body: unknown, headers: Record<string, string> = {}) {
  return engine.fetch(
    new Request(URL_, {
      method: 'POST',
      headers: { Host: '127.0.0.1', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** Read SSE `data:` messages (and event ids) until `stop` says enough or the stream ends. */
async function readEvents(res: Response, stop: (m: Record<string, unknown>) => boolean): Promise<{ id?: string; data: Record<string, unknown> }[]> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const out: { id?: string; data: Record<string, unknown> }[] = [];
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    buf += dec.decode(value, { stream: true });
    let cut = buf.indexOf('\n\n');
    while (cut >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      cut = buf.indexOf('\n\n');
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (!data) {
        if (id) out.push({ id, data: {} });
        continue;
      }
      const m = JSON.parse(data) as Record<string, unknown>;
      out.push({ ...(id ? { id } : {}), data: m });
      if (stop(m)) {
        void reader.cancel();
        return out;
      }
    }
  }
}

async function initialize(engine: MockEngine, capabilities: Record<string, unknown>): Promise<string> {
  const res = await post(engine, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'old', version: '1' } },
  });
  expect(res.status).toBe(200);
  const id = res.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  return id!;
}

describe('HTTP: header and body must agree', () => {
  it('a 2026-07-28 _meta under MCP-Protocol-Version 2025-11-25 is 400 -32020, not served as legacy', async () => {
    const r = await rpc(demo(), 'tools/list', {}, { headers: { 'MCP-Protocol-Version': '2025-11-25' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32020);
  });

  it('Mcp-Name that names another tool is 400 -32020', async () => {
    const r = await rpc(demo(), 'tools/call', { name: 'echo', arguments: { text: 'hi' } }, { headers: { 'Mcp-Name': 'nope' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: -32020, message: expect.stringContaining('nope') });
  });

  it('initialize sent with a 2026-07-28 version header is 400 -32020', async () => {
    const res = await post(
      demo(),
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      { 'MCP-Protocol-Version': '2026-07-28' },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });

  it('a POSTed JSON-RPC response that answers nothing outstanding is 400, not 202', async () => {
    const res = await post(demo(), { jsonrpc: '2.0', id: 'nobody-asked', result: { action: 'accept' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('answers no request'),
    });
  });
});

describe('HTTP: 2025-11-25 sessions', () => {
  it('delete_note asks with elicitation/create on the call stream; the POSTed answer (202) deletes the note', async () => {
    const engine = demo();
    const sid = await initialize(engine, { elicitation: {} });
    const legacy = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
    const res = await post(engine, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_note', arguments: { noteId: 'note-1' } } }, legacy);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = readEvents(res, (m) => m.id === 2);
    // Wait for the request on the stream, then answer it.
    const asked = await new Promise<Record<string, unknown>>((resolve) => {
      const poll = async () => {
        const seen = engine.journal.entries().flatMap((e) => e.frames ?? []);
        const req = seen.map((f) => f.message as Record<string, unknown>).find((m) => m?.method === 'elicitation/create');
        if (req) resolve(req);
        else setTimeout(poll, 5);
      };
      void poll();
    });
    const answer = await post(engine, { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: true } } }, legacy);
    expect(answer.status).toBe(202);
    const got = await events;
    expect(got[0]).toMatchObject({ id: expect.stringMatching(/\/0$/), data: {} });
    expect(got.map((e) => e.data.method ?? e.data.id)).toContain('elicitation/create');
    const final = got.at(-1)!.data as { result: { structuredContent: unknown; resultType?: string } };
    expect(final.result.structuredContent).toMatchObject({ deleted: true, noteId: 'note-1' });
    expect(final.result.resultType).toBeUndefined();
  });

  it('a 2025-11-25 request whose Mcp-Name disagrees with the body is 400 -32020', async () => {
    const engine = demo();
    const sid = await initialize(engine, {});
    const res = await post(
      engine,
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Name': 'nope' },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });

  it("another caller's bearer token cannot use a session: 404, as for an unknown id", async () => {
    const engine = demo();
    const res = await post(
      engine,
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'a', version: '1' } } },
      { Authorization: 'Bearer alice-token' },
    );
    const sid = res.headers.get('mcp-session-id')!;
    const legacy = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
    expect((await post(engine, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...legacy, Authorization: 'Bearer alice-token' })).status).toBe(200);
    expect((await post(engine, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...legacy, Authorization: 'Bearer mallory-token' })).status).toBe(404);
  });

  it('notifications/cancelled stops a session request that waits for the client (a dropped stream alone does not)', async () => {
    const engine = demo();
    const sid = await initialize(engine, { elicitation: {} });
    const legacy = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
    const res = await post(engine, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'delete_note', arguments: { noteId: 'note-1' } } }, legacy);
    const events = readEvents(res, (m) => m.id === 5);
    await new Promise((r) => setTimeout(r, 20));
    const note = await post(engine, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user' } }, legacy);
    expect(note.status).toBe(202);
    const final = (await events).at(-1)!.data as { error?: { message: string } };
    expect(final.error?.message).toContain('cancelled');
    const list = await post(engine, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'search_notes', arguments: {} } }, legacy);
    expect(JSON.stringify(await list.json())).toContain('note-1');
  });

  it('DELETE ends a request still waiting for the client, and nothing is deleted', async () => {
    const engine = demo();
    const sid = await initialize(engine, { elicitation: {} });
    const legacy = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
    const res = await post(engine, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'delete_note', arguments: { noteId: 'note-1' } } }, legacy);
    const events = readEvents(res, (m) => m.id === 8);
    await new Promise((r) => setTimeout(r, 20));
    await engine.fetch(new Request(URL_, { method: 'DELETE', headers: { Host: '127.0.0.1', 'Mcp-Session-Id': sid } }));
    expect((await events).at(-1)!.data).toMatchObject({ id: 8, error: { message: expect.stringContaining('before the client answered elicitation/create') } });
    const notes = await rpc(engine, 'tools/call', { name: 'search_notes', arguments: {} });
    expect(JSON.stringify(notes.body.result)).toContain('note-1');
  });

  it('DELETE ends the session and its id then gets 404', async () => {
    const engine = demo();
    const sid = await initialize(engine, {});
    const del = await engine.fetch(new Request(URL_, { method: 'DELETE', headers: { Host: '127.0.0.1', 'Mcp-Session-Id': sid } }));
    expect(del.status).toBe(200);
    const after = await post(engine, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
    expect(after.status).toBe(404);
    // A notification naming the ended session is refused the same way, not accepted with 202.
    const note = await post(engine, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
    expect(note.status).toBe(404);
    expect(((await note.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it('a stream cut after its priming event resumes with GET + Last-Event-ID and delivers the answer', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('conformance')! });
    const sid = await initialize(engine, {});
    const legacy = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
    const res = await post(engine, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } }, legacy);
    const first = await readEvents(res, () => false);
    expect(first).toEqual([{ id: expect.stringMatching(/\/0$/), data: {} }]);
    const resumed = await engine.fetch(
      new Request(URL_, { method: 'GET', headers: { Host: '127.0.0.1', Accept: 'text/event-stream', ...legacy, 'Last-Event-ID': first[0]!.id! } }),
    );
    expect(resumed.status).toBe(200);
    const rest = await readEvents(resumed, (m) => m.id === 7);
    expect(rest.at(-1)!.data).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'Reconnection test completed' }] } });
  });
});

describe('tasks: terminal shapes and capabilities up front', () => {
  const scenario = ScenarioSchema.parse({
    id: 'two-step',
    server: { name: 't', version: '1' },
    tools: [
      {
        name: 'job',
        task: {
          mode: 'declared',
          steps: [{ status: 'working', statusMessage: 'Working on it', delayMs: 20 }, { result: { content: [{ type: 'text', text: 'done' }] } }],
        },
      },
    ],
  });

  it("a completed task inlines its result with resultType 'complete' and drops the working statusMessage", async () => {
    const engine = createMockEngine({ scenario });
    const created = await rpc(engine, 'tools/call', { name: 'job', arguments: {} }, { caps: CAPS.tasks });
    expect(created.body.result).toMatchObject({ resultType: 'task', statusMessage: 'Working on it' });
    await new Promise((r) => setTimeout(r, 60));
    const got = await rpc(engine, 'tasks/get', { taskId: created.body.result.taskId }, { caps: CAPS.tasks });
    expect(got.body.result).toMatchObject({ status: 'completed', result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] } });
    expect(got.body.result).not.toHaveProperty('statusMessage');
  });

  it('generate_report from a client without elicitation is refused at once with -32021 naming form elicitation', async () => {
    const r = await rpc(demo(), 'tools/call', { name: 'generate_report', arguments: { size: 'small' } }, { caps: CAPS.tasks });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });
});

describe('stdio: initialize selects 2025-11-25 for the connection', () => {
  it('before initialize a request needs _meta; after it the same request is served as 2025-11-25', async () => {
    const face = demo().connect();
    const sent: Record<string, unknown>[] = [];
    const send = (m: unknown) => sent.push(m as Record<string, unknown>);
    await face({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, send);
    expect(sent[0]).toMatchObject({ id: 1, error: { code: -32602 } });
    await face(
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      send,
    );
    await face({ jsonrpc: '2.0', method: 'notifications/initialized' }, send);
    await face({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, send);
    const list = sent.find((m) => m.id === 3) as { result: { tools: unknown[]; resultType?: string } };
    expect(list.result.tools.length).toBeGreaterThan(0);
    expect(list.result.resultType).toBeUndefined();
  });
});

describe('the versions the server names', () => {
  const scenarioWith = (extra: Record<string, unknown>) => ScenarioSchema.parse({ id: 'versions', server: { name: 'v', version: '1' }, ...extra });

  it('names 2025-11-25 in server/discover and -32022 whenever initialize serves it, listed or not', async () => {
    // supportedVersions defaults to [2026-07-28]; settings.legacy (on by default) serves 2025-11-25 all the same.
    const engine = createMockEngine({ scenario: scenarioWith({}) });
    const discover = await rpc(engine, 'server/discover', {});
    expect(discover.body.result.supportedVersions).toEqual(['2026-07-28', '2025-11-25']);
    const refused = await rpc(engine, 'tools/list', {}, { version: '2027-01-01' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28', '2025-11-25'], requested: '2027-01-01' } });
    const res = await post(engine, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect((await res.json()).result.protocolVersion).toBe('2025-11-25');
  });

  it('leaves out a listed 2025-11-25 that settings.legacy: false refuses', async () => {
    const engine = createMockEngine({ scenario: scenarioWith({ supportedVersions: ['2026-07-28', '2025-11-25'], settings: { legacy: false } }) });
    expect((await rpc(engine, 'server/discover', {})).body.result.supportedVersions).toEqual(['2026-07-28']);
    const refused = await rpc(engine, 'tools/list', {}, { version: '2027-01-01' });
    expect(refused.body.error.data.supported).toEqual(['2026-07-28']);
  });
});

describe('2025-11-25 clients the server cannot serve', () => {
  it('a modern-only scenario answers initialize with -32022 naming the versions it speaks', async () => {
    const scenario = ScenarioSchema.parse({ id: 'modern-only', server: { name: 'm', version: '1' }, settings: { legacy: false } });
    const res = await post(createMockEngine({ scenario }), {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } } });
  });

  it('a 2025-11-25 task that would ask for input the client did not declare is refused up front', async () => {
    const face = demo().connect();
    const sent: Record<string, unknown>[] = [];
    const send = (m: unknown) => sent.push(m as Record<string, unknown>);
    await face(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      send,
    );
    await face({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'generate_report', arguments: { size: 'small' }, task: {} } }, send);
    expect(sent.find((m) => m.id === 2)).toMatchObject({ error: { code: -32600, data: { requiredCapabilities: { elicitation: { form: {} } } } } });
  });
});

describe('stdio: a 2025-11-25 prompt that needs input', () => {
  it('asks the client with elicitation/create and fills the prompt with the answer', async () => {
    const face = createMockEngine({ scenario: getBuiltinScenario('conformance')! }).connect();
    const sent: Record<string, unknown>[] = [];
    const send = (m: unknown) => {
      const msg = m as Record<string, unknown>;
      sent.push(msg);
      // Answer the server's request the way a 2025-11-25 client does: a response with its id.
      if (msg.method === 'elicitation/create') void face({ jsonrpc: '2.0', id: msg.id, result: { action: 'accept', content: { context: 'the moon' } } }, send);
    };
    await face(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'x', version: '1' } },
      },
      send,
    );
    await face({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'test_input_required_result_prompt' } }, send);
    expect(sent.find((m) => m.id === 2)).toMatchObject({ result: { messages: [{ content: { text: 'Prompt with context: the moon' } }] } });
  });
});
