import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockHost, type MockHost } from '../../lib/server/mock-host';
import { createMockRouter } from '../../lib/server/mock-router';
import { listen } from '../../lib/adapters/node-http';
import { createControlClient } from '../../lib/client/control-client';
import type { Grade, JournalEntry, ScenarioIssue, ScenarioSummary, TaskSnapshot } from '../../lib/protocol/loupe-api';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { httpTarget } from './http-target';

/**
 * The control API over real HTTP (node:http on 127.0.0.1, SQLite in a temp dir): the token and
 * Origin gate, scenario files, journal, live events, report card and task controls.
 */

const TOKEN = 'control-api-test-token';
let dataDir: string;
let host: MockHost;
let base: string;
let server: { close: () => Promise<void> };
let subscribers = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loupe-control-'));
  host = createMockHost({ dataDir });
  // Count event subscriptions so the test can see a stream let go of its listener.
  const counted: MockHost = {
    ...host,
    on(listener) {
      subscribers++;
      const off = host.on(listener);
      return () => {
        subscribers--;
        off();
      };
    },
  };
  const router = createMockRouter(counted, 'demo', { token: TOKEN, keepAliveMs: 50 });
  const s = await listen(router.fetch, '127.0.0.1', 0);
  server = s;
  base = `http://127.0.0.1:${s.port}`;
});
afterAll(async () => {
  await server?.close();
  host?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Call {
  method?: string;
  token?: string | null;
  origin?: string;
  cookie?: string;
  body?: string | object;
}

/** The control API's JSON answers as these tests read them: each route fills its own fields. */
interface ControlJson {
  error?: string;
  ok?: boolean;
  id?: string;
  reset?: string;
  scenarios?: ScenarioSummary[];
  issues?: ScenarioIssue[];
  errors?: ScenarioIssue[];
  entries?: JournalEntry[];
  grades?: Grade[];
  tasks?: TaskSnapshot[];
  task?: TaskSnapshot;
}

async function api(path: string, call: Call = {}): Promise<{ status: number; json: ControlJson; text: string; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (call.token !== null) headers.Authorization = `Bearer ${call.token ?? TOKEN}`;
  if (call.origin) headers.Origin = call.origin;
  if (call.cookie) headers.Cookie = call.cookie;
  const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
  const res = await fetch(`${base}${path}`, { method: call.method ?? 'GET', headers, body });
  const text = await res.text();
  let json: ControlJson = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* YAML or SSE */
  }
  return { status: res.status, json, text, headers: res.headers };
}

const NOTES = (id: string, text = 'hello') => `id: ${id}
name: Notes mock
server:
  name: notes
  version: "1.0.0"
tools:
  - name: echo
    result:
      content:
        - type: text
          text: ${text}
`;

describe('control API gate', () => {
  it('answers 401 without a token, or with a wrong one, on every route', async () => {
    for (const [path, method] of [
      ['/api/scenarios', 'GET'],
      ['/api/scenarios/demo/source', 'GET'],
      ['/api/scenarios/demo/reset', 'POST'],
      ['/api/scenarios/x/source', 'PUT'],
      ['/api/scenarios/demo/events', 'GET'],
    ]) {
      expect((await api(path, { method, token: null })).status, path).toBe(401);
      expect((await api(path, { method, token: 'wrong' })).status, path).toBe(401);
    }
  });

  it('accepts the token as a bearer or an X-Loupe-Token header, never as a cookie', async () => {
    expect((await api('/api/scenarios')).status).toBe(200);
    const header = await fetch(`${base}/api/scenarios`, { headers: { 'X-Loupe-Token': TOKEN } });
    expect(header.status).toBe(200);
    // A cookie is a browser session the page gate hands out, never the token (tests/hardening/cookie-and-token.test.ts).
    expect((await api('/api/scenarios', { token: null, cookie: `other=1; loupe_token=${TOKEN}` })).status).toBe(401);
  });

  it('refuses a foreign Origin with 403 even with the token, including another localhost port', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:1', 'http://localhost:9999', 'null']) {
      const r = await api('/api/scenarios/demo/reset', { method: 'POST', origin, body: {} });
      expect(r.status, origin).toBe(403);
      expect(r.json.error).toMatch(/Origin/);
    }
    const same = await api('/api/scenarios/demo/reset', { method: 'POST', origin: base, body: {} });
    expect(same.status).toBe(200);
  });

  it('refuses a state change that carries neither Origin nor token', async () => {
    const r = await fetch(`${base}/api/scenarios/demo/reset`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(401);
  });

  it('refuses a non-loopback Host', async () => {
    const r = await api('/api/scenarios', { token: TOKEN });
    expect(r.status).toBe(200);
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/api/scenarios`, { headers: { Host: 'evil.example', Authorization: `Bearer ${TOKEN}` } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('scenario routes', () => {
  it('lists built-in and saved scenarios', async () => {
    const r = await api('/api/scenarios');
    expect(r.status).toBe(200);
    expect(r.json.scenarios).toContainEqual(expect.objectContaining({ id: 'demo', name: 'Loupe demo', builtin: true }));
  });

  it('serves a built-in as YAML and refuses to overwrite it', async () => {
    const r = await api('/api/scenarios/demo/source');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('yaml');
    expect(r.headers.get('x-loupe-builtin')).toBe('true');
    expect(r.text).toMatch(/^id: demo$/m);
    const put = await api('/api/scenarios/demo/source', { method: 'PUT', body: r.text });
    expect(put.status).toBe(409);
    expect(put.json.error).toMatch(/duplicate/);
  });

  it('saves a valid scenario and serves it on /mcp/<id> at once', async () => {
    const put = await api('/api/scenarios/notes/source', { method: 'PUT', body: NOTES('notes') });
    expect(put.status).toBe(200);
    expect(readFileSync(join(dataDir, 'scenarios', 'notes.yaml'), 'utf8')).toBe(NOTES('notes'));
    const mcp = httpTarget(`${base}/mcp/notes`);
    expect((await callTool(mcp, 'echo', {}, mcp.opts())).body.result.content[0].text).toBe('hello');
    await api('/api/scenarios/notes/source', { method: 'PUT', body: NOTES('notes', 'changed') });
    expect((await callTool(mcp, 'echo', {}, mcp.opts())).body.result.content[0].text).toBe('changed');
    expect((await api('/api/scenarios/notes/source')).text).toBe(NOTES('notes', 'changed'));
    const list = await api('/api/scenarios');
    expect(list.json.scenarios).toContainEqual({ id: 'notes', name: 'Notes mock', builtin: false, valid: true });
  });

  it('refuses an invalid save with 422 and each issue at its line', async () => {
    const broken = NOTES('notes').replace('  version: "1.0.0"', '  version: 1.0.0\n  bogus: [').replace('name: Notes mock', 'name: [1, 2]');
    const put = await api('/api/scenarios/notes/source', { method: 'PUT', body: broken });
    expect(put.status).toBe(422);
    expect(put.json.issues!.length).toBeGreaterThan(0);
    expect(put.json.issues![0]).toMatchObject({ source: 'notes.yaml', line: expect.any(Number), column: expect.any(Number) });
    const typed = await api('/api/scenarios/notes/source', { method: 'PUT', body: NOTES('notes').replace('name: Notes mock', 'name: [1, 2]') });
    expect(typed.status).toBe(422);
    expect(typed.json.issues).toEqual([expect.objectContaining({ line: 2, path: 'name' })]);
    const wrongId = await api('/api/scenarios/notes/source', { method: 'PUT', body: NOTES('other') });
    expect(wrongId.status).toBe(422);
    expect(wrongId.json.issues).toEqual([expect.objectContaining({ line: 1, path: 'id' })]);
    // The running scenario is untouched.
    expect((await api('/api/scenarios/notes/source')).text).not.toContain('[1, 2]');
  });

  it('validates text without saving it', async () => {
    const ok = await api('/api/scenarios/validate', { method: 'POST', body: NOTES('draft') });
    expect(ok.json).toMatchObject({ ok: true, errors: [] });
    const bad = await api('/api/scenarios/validate?source=draft.yaml', { method: 'POST', body: 'id: draft\nserver:\n  name: 1\n' });
    expect(bad.status).toBe(200);
    expect(bad.json.ok).toBe(false);
    expect(bad.json.errors).toContainEqual(expect.objectContaining({ source: 'draft.yaml', line: 3, path: 'server.name' }));
    expect((await api('/api/scenarios/draft/source')).status).toBe(404);
  });

  it('duplicates a built-in into an editable copy, and refuses a taken id', async () => {
    const dup = await api('/api/scenarios/demo/duplicate', { method: 'POST', body: { newId: 'demo-copy' } });
    expect(dup.status).toBe(201);
    expect(dup.json.id).toBe('demo-copy');
    const text = (await api('/api/scenarios/demo-copy/source')).text;
    expect(text).toMatch(/^id: demo-copy$/m);
    const edited = text.replace('Drafting outline', 'Sketching outline');
    expect((await api('/api/scenarios/demo-copy/source', { method: 'PUT', body: edited })).status).toBe(200);
    expect((await api('/api/scenarios/demo/duplicate', { method: 'POST', body: { newId: 'demo-copy' } })).status).toBe(409);
    expect((await api('/api/scenarios/demo/duplicate', { method: 'POST', body: { newId: 'Bad Id' } })).status).toBe(400);
    expect((await api('/api/scenarios/demo/duplicate', { method: 'POST', body: 'not json' })).status).toBe(400);
    expect((await api('/api/scenarios/missing/duplicate', { method: 'POST', body: { newId: 'x' } })).status).toBe(404);
  });

  it('refuses path-traversal and malformed ids', async () => {
    for (const id of ['..%2F..%2Fsecret', '..%2Fscenarios%2Fnotes', '..%5Csecret', '%2Fetc%2Fpasswd', 'UPPER', 'a.b']) {
      const put = await api(`/api/scenarios/${id}/source`, { method: 'PUT', body: NOTES('x') });
      expect(put.status, id).toBe(400);
      expect((await api(`/api/scenarios/${id}/source`)).status, id).toBe(400);
      expect((await api('/api/scenarios/demo/duplicate', { method: 'POST', body: { newId: decodeURIComponent(id) } })).status, id).toBe(400);
    }
    // Dot segments are resolved by the URL parser before routing: they never name a scenario.
    expect((await api('/api/scenarios/%2e%2e/source', { method: 'PUT', body: NOTES('x') })).status).toBe(404);
    expect((await api('/api/scenarios/%E0%A4%A/source')).status).toBe(400);
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.yaml'))).toEqual([]);
  });

  it('deletes a saved scenario, not a built-in', async () => {
    await api('/api/scenarios/scratch/source', { method: 'PUT', body: NOTES('scratch') });
    expect((await api('/api/scenarios/scratch', { method: 'DELETE' })).status).toBe(200);
    expect((await api('/api/scenarios/scratch/source')).status).toBe(404);
    expect((await api('/api/scenarios/demo', { method: 'DELETE' })).status).toBe(409);
  });
});

describe('live routes', () => {
  it('journals calls, resets, and answers the report card', async () => {
    const mcp = httpTarget(`${base}/mcp/notes`);
    await api('/api/scenarios/notes/reset', { method: 'POST', body: {} });
    await callTool(mcp, 'echo', {}, mcp.opts());
    const journal = await api('/api/scenarios/notes/journal?since=0');
    expect(journal.json.entries).toEqual([
      expect.objectContaining({ method: 'tools/call', status: 200, requestBody: expect.objectContaining({ method: 'tools/call' }) }),
    ]);
    const seq = journal.json.entries![0]!.seq;
    expect((await api(`/api/scenarios/notes/journal?since=${seq}`)).json.entries).toEqual([]);
    const card = await api('/api/scenarios/notes/report-card');
    expect(card.status).toBe(200);
    expect(card.json.grades!.length).toBeGreaterThan(0);
    for (const g of card.json.grades!) {
      expect(['pass', 'fail', 'not-observed']).toContain(g.status);
      for (const e of g.evidence) expect(e).toBe(seq);
    }
    expect((await api('/api/scenarios/notes/reset', { method: 'POST', body: {} })).json).toEqual({ reset: 'notes' });
    expect((await api('/api/scenarios/notes/journal')).json.entries).toEqual([]);
  });

  it('refuses a journal since that is no seq (400 saying so), instead of reading it as 0', async () => {
    const mcp = httpTarget(`${base}/mcp/notes`);
    await callTool(mcp, 'echo', {}, mcp.opts());
    for (const since of ['abc', '-1', '1.5', '', '1e3']) {
      const r = await api(`/api/scenarios/notes/journal?since=${since}`);
      expect(r.status).toBe(400);
      expect(r.json.error).toBe(`since must be a whole number, 0 or more (the seq of the last entry you have), got "${since}"`);
    }
    expect((await api('/api/scenarios/notes/journal?since=0')).json.entries!.length).toBeGreaterThan(0);
  });

  it('redacts the launch token from journalled Cookie headers', async () => {
    const mcp = httpTarget(`${base}/mcp/notes`);
    await callTool(mcp, 'echo', {}, mcp.opts({ headers: { Cookie: `theme=dark; loupe_token=${TOKEN}` } }));
    const entries = (await api('/api/scenarios/notes/journal')).json.entries;
    expect(entries!.at(-1)!.requestHeaders.cookie).toBe('theme=dark; loupe_token=<redacted>');
    expect(JSON.stringify(entries)).not.toContain(TOKEN);
  });

  it('drives a task through every control', async () => {
    const mcp = httpTarget(`${base}/mcp/demo-copy`);
    const start = async () => (await callTool(mcp, 'generate_report', { size: 'small' }, mcp.opts({ caps: CAPS.formAndTasks }))).body.result.taskId as string;
    const taskApi = (taskId: string, action: string, body: object = {}) => api(`/api/scenarios/demo-copy/tasks/${taskId}/${action}`, { method: 'POST', body });
    const a = await start();
    expect((await api('/api/scenarios/demo-copy/tasks')).json.tasks!.map((t) => t.taskId)).toContain(a);
    expect((await api(`/api/scenarios/demo-copy/tasks/${a}`)).json.task!.status).toBe('working');
    expect((await taskApi(a, 'advance')).json.task!.status).toBe('input_required');
    const polled = await rpc(mcp, 'tasks/get', { taskId: a }, mcp.opts({ caps: CAPS.formAndTasks }));
    expect(polled.body.result.status).toBe('input_required');
    expect((await taskApi(a, 'complete', { result: { content: [{ type: 'text', text: 'done by hand' }] } })).json.task).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'done by hand' }] },
    });
    const b = await start();
    expect((await taskApi(b, 'require-input')).json.task!.status).toBe('input_required');
    expect((await taskApi(b, 'fail')).json.task!.status).toBe('failed');
    const c = await start();
    expect((await taskApi(c, 'cancel')).json.task!.status).toBe('cancelled');
    const d = await start();
    expect((await taskApi(d, 'expire')).status).toBe(200);
    expect((await rpc(mcp, 'tasks/get', { taskId: d }, mcp.opts({ caps: CAPS.formAndTasks }))).body.error.message).toMatch(/not found/i);
    expect((await taskApi('no-such-task', 'advance')).status).toBe(404);
    expect((await taskApi(a, 'explode')).status).toBe(404);
    expect((await api(`/api/scenarios/demo-copy/tasks/${a}/advance`, { method: 'POST', body: '[1' })).status).toBe(400);
  });

  it("treats another scenario's task as unknown, naming the scenario that holds it", async () => {
    // The store is the host's: demo's engine used to "advance" a demo-copy task, change nothing, and answer 200.
    const mcp = httpTarget(`${base}/mcp/demo-copy`);
    const created = await callTool(mcp, 'generate_report', { size: 'small' }, mcp.opts({ caps: CAPS.formAndTasks }));
    const taskId = created.body.result.taskId as string;
    for (const action of ['advance', 'complete', 'fail', 'cancel', 'require-input', 'expire']) {
      const wrong = await api(`/api/scenarios/demo/tasks/${taskId}/${action}`, { method: 'POST', body: {} });
      expect(wrong.status).toBe(404);
      expect(wrong.json).toEqual({ error: 'Task belongs to scenario demo-copy, not demo', scenario: 'demo-copy' });
    }
    expect((await api(`/api/scenarios/demo/tasks/${taskId}`)).status).toBe(404);
    expect((await api('/api/scenarios/demo/tasks/no-such-task/advance', { method: 'POST', body: {} })).json).toEqual({ error: 'Unknown task' });
    // Nor does demo's MCP endpoint answer for it.
    const demo = httpTarget(`${base}/mcp/demo`);
    expect((await rpc(demo, 'tasks/get', { taskId }, demo.opts({ caps: CAPS.formAndTasks }))).body.error.message).toMatch(/not found/i);
    expect((await api(`/api/scenarios/demo-copy/tasks/${taskId}`)).json.task!.status).toBe('working');
    expect((await api(`/api/scenarios/demo-copy/tasks/${taskId}/advance`, { method: 'POST', body: {} })).json.task!.status).toBe('input_required');
  });

  it('refuses a control on a finished task, and a body that is not what the action reads, saying why', async () => {
    const mcp = httpTarget(`${base}/mcp/demo-copy`);
    const start = async () => (await callTool(mcp, 'generate_report', { size: 'small' }, mcp.opts({ caps: CAPS.formAndTasks }))).body.result.taskId as string;
    const taskApi = (taskId: string, action: string, body: object = {}) => api(`/api/scenarios/demo-copy/tasks/${taskId}/${action}`, { method: 'POST', body });
    const a = await start();
    const notResult = await taskApi(a, 'complete', { result: 5 });
    expect(notResult.status).toBe(400);
    expect(notResult.json.error).toMatch(/^result: .*\("result" must be a tool result, e\.g\. \{"content":/);
    const badError = await taskApi(a, 'fail', { error: { code: 'x', message: 'm' } });
    expect(badError.status).toBe(400);
    expect(badError.json.error).toMatch(/^error\.code: .*expected number.*\("error" must be a JSON-RPC error/);
    expect((await taskApi(a, 'cancel', { result: { content: [] } })).json.error).toBe('"result" does not apply to cancel');
    // Nothing above touched the task.
    expect((await api(`/api/scenarios/demo-copy/tasks/${a}`)).json.task!.status).toBe('working');
    expect((await taskApi(a, 'complete', { result: { content: [{ type: 'text', text: 'ok' }] } })).json.task!.status).toBe('completed');
    for (const action of ['fail', 'cancel', 'advance', 'require-input', 'complete']) {
      const again = await taskApi(a, action);
      expect(again.status).toBe(409);
      expect(again.json.error).toBe(`Task is already completed: ${action} changes nothing`);
    }
    const polled = await rpc(mcp, 'tasks/get', { taskId: a }, mcp.opts({ caps: CAPS.formAndTasks }));
    expect(polled.body.result).toMatchObject({ status: 'completed', result: { content: [{ text: 'ok' }] } });
    expect((await taskApi(a, 'expire')).status).toBe(200);
  });

  it('streams a snapshot, then journal and task events, with keep-alives, until the client leaves', async () => {
    const ac = new AbortController();
    const before = subscribers;
    const res = await fetch(`${base}/api/scenarios/demo-copy/events`, { headers: { Authorization: `Bearer ${TOKEN}` }, signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      const deadline = Date.now() + 5000;
      while (!pattern.test(text)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in:\n${text}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}`);
        text += new TextDecoder().decode(value);
      }
    };
    await until(/event: scenario:snapshot\ndata: \{.*"tasks":\[/);
    expect(subscribers).toBe(before + 1);
    const mcp = httpTarget(`${base}/mcp/demo-copy`);
    await callTool(mcp, 'generate_report', { size: 'large' }, mcp.opts({ caps: CAPS.formAndTasks }));
    await until(/event: journal:(entry|end)\ndata: .*"tools\/call"/);
    await until(/event: task:created\ndata: .*"generate_report"/);
    await until(/: keep-alive\n\n/);
    await api('/api/scenarios/demo-copy/reset', { method: 'POST', body: {} });
    await until(/event: scenario:reset/);
    // A save replaces the engine: the stream says so and sends the new engine's snapshot.
    const source = (await api('/api/scenarios/demo-copy/source')).text;
    await api('/api/scenarios/demo-copy/source', { method: 'PUT', body: source });
    await until(/event: scenario:replaced[\s\S]*event: scenario:snapshot/);
    ac.abort();
    await reader.cancel().catch(() => {});
    const deadline = Date.now() + 2000;
    while (subscribers !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(subscribers).toBe(before);
  });

  it('answers 404 for an unknown scenario and for routes that do not exist', async () => {
    expect((await api('/api/scenarios/nope/journal')).status).toBe(404);
    expect((await api('/api/scenarios/demo/nothing')).status).toBe(404);
    expect((await api('/api/sessions')).status).toBe(404);
  });
});

describe('control client', () => {
  it('parses every answer, and returns refusals as values with their issues', async () => {
    const client = createControlClient({ baseUrl: base, token: TOKEN });
    const list = await client.list();
    expect(list.ok && list.data.scenarios.some((s) => s.id === 'demo' && s.builtin)).toBe(true);
    const source = await client.source('demo');
    expect(source.ok && source.data.builtin).toBe(true);
    const refused = await client.save('client-copy', NOTES('client-copy').replace('name: Notes mock', 'name: [1]'));
    expect(refused).toMatchObject({ ok: false, status: 422, issues: [{ line: 2, path: 'name' }] });
    expect(await client.save('client-copy', NOTES('client-copy'))).toMatchObject({ ok: true, data: { saved: 'client-copy' } });
    expect(await client.validate('id: x\n')).toMatchObject({ ok: true, data: { ok: false, errors: [expect.objectContaining({ path: 'server' })] } });
    const card = await client.reportCard('client-copy');
    expect(card.ok && card.data.grades.length).toBeGreaterThan(0);
    expect(await createControlClient({ baseUrl: base, token: 'wrong' }).list()).toMatchObject({ ok: false, status: 401 });
    expect(await createControlClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN }).list()).toMatchObject({
      ok: false,
      status: 0,
      error: expect.stringContaining('Cannot reach'),
    });
    expect(await client.remove('client-copy')).toMatchObject({ ok: true });
  });
});
