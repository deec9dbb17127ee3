import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../lib/client/frames';
import { createClientSession } from '../../lib/client/session';
import { createStdioProxyTransport, splitCommandLine } from '../../lib/client/stdio-proxy-transport';
import { createTrackingTransport } from '../../lib/client/tracking';
import { createStdioProxy } from '../../lib/server/proxy-stdio';
import { pidsWith, ROOT, startCliMock, type Started } from '../helpers/processes';

/** stdio servers through the CLI's /api/proxy/stdio: spawn, demux, cancel, gate, caps, kill. */

let mock: Started;
let endpoint: string;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await startCliMock(['demo']);
  endpoint = new URL('/api/proxy/stdio', mock.url).href;
}, 30_000);
afterAll(async () => {
  await mock?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function loupeArgs(scenario: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-pstdio-'));
  dirs.push(dir);
  return [path.join(ROOT, 'bin/mcp-loupe.mjs'), 'mock', scenario, '--stdio', '--data-dir', dir];
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const auth = () => ({ Authorization: `Bearer ${mock.token}`, 'Content-Type': 'application/json' });
const IDLE = ['-e', 'console.error("pid " + process.pid); setInterval(() => {}, 1000)'];

async function spawnRaw(args = IDLE, headers: Record<string, string> = auth()) {
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ command: process.execPath, args }) });
  return { status: res.status, body: (await res.json()) as { sessionId?: string; error?: string } };
}

describe('stdio through the proxy', () => {
  it('discovers and calls echo on a spawned `mcp-loupe mock demo --stdio`', async () => {
    const transport = createStdioProxyTransport({ command: process.execPath, args: loupeArgs('demo'), endpoint, token: mock.token });
    const session = createClientSession({ transport, era: 'auto' });
    try {
      const discovered = await session.discover();
      expect(discovered.type).toBe('complete');
      expect(session.era).toBe('modern');
      const out = await session.callTool('echo', { text: 'over stdio' });
      expect(out.type).toBe('complete');
      expect((out as { result: { content: { text: string }[] } }).result.content[0].text).toBe('over stdio');
    } finally {
      await transport.close!();
    }
  }, 30_000);

  it('cancels a slow call with notifications/cancelled, and no response for it ever arrives', async () => {
    let seen = '';
    // Tap the session's SSE stream to see every stdout line, routed or not.
    const tap = async (input: string, init: RequestInit) => {
      const res = await fetch(input, init);
      if (init.method !== 'GET' || !res.body) return res;
      const dec = new TextDecoder();
      const body = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, c) {
            seen += dec.decode(chunk, { stream: true });
            c.enqueue(chunk);
          },
        }),
      );
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const transport = createStdioProxyTransport({ command: process.execPath, args: loupeArgs('conformance'), endpoint, token: mock.token, fetch: tap });
    const calls: unknown[] = [];
    const send = transport.send.bind(transport);
    const session = createClientSession({
      transport: {
        ...transport,
        send: (m, o) => {
          if ((m as { method?: string }).method === 'tools/call') calls.push((m as { id: unknown }).id);
          return send(m, o);
        },
      },
      era: 'auto',
    });
    try {
      expect((await session.discover()).type).toBe('complete');
      const ac = new AbortController();
      let progress = 0;
      const out = await session.callTool(
        'test_tool_with_progress',
        {},
        { signal: ac.signal, onProgress: () => ++progress === 1 && ac.abort(new Error('user pressed stop')) },
      );
      expect(out).toMatchObject({ type: 'failure', reason: 'aborted' });
      expect((await session.listTools()).tools.length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 600));
      const responses = seen
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)))
        .filter((m) => 'result' in m || 'error' in m);
      expect(calls).toHaveLength(1);
      expect(responses.some((m) => m.id === calls[0])).toBe(false);
      // Requests after the cancel are answered; the cancelled call never is.
      expect(responses.length).toBeGreaterThanOrEqual(2);
      expect(seen.split('notifications/progress').length - 1).toBeLessThan(3);
    } finally {
      await transport.close!();
    }
  }, 30_000);

  it('shows at once each stdout line that answers no request: a warning and a frame flagged invalid', async () => {
    const frames: Frame[] = [];
    const warnings: string[] = [];
    const inner = createStdioProxyTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'tests/fixtures/servers/stray-lines.mjs')],
      endpoint,
      token: mock.token,
    });
    const transport = createTrackingTransport(inner, { sink: (f) => frames.push(f) });
    const session = createClientSession({ transport, era: 'legacy', timeoutMs: 1500, onWarning: (w) => warnings.push(w) });
    try {
      expect((await session.discover()).type).toBe('complete');
      const listed = await session.listTools();
      // Nothing says the stray response was meant for tools/list: it still waits, and times out.
      expect(listed.outcome.type === 'failure' && listed.outcome.reason).toBe('timeout');
      expect(warnings.join('\n')).toContain('answers no request (not JSON');
      expect(warnings.join('\n')).toContain('matches no request in flight');
      const flagged = frames.filter((f) => f.kind === 'message' && f.errorText);
      expect(flagged.map((f) => f.raw)).toEqual(['stray-lines server starting (not JSON)', expect.stringContaining('"id":"not-')]);
    } finally {
      await transport.close!();
    }
  }, 30_000);

  it('refuses without the token (401) and from a foreign Origin (403)', async () => {
    expect((await spawnRaw(IDLE, { 'Content-Type': 'application/json' })).status).toBe(401);
    expect((await spawnRaw(IDLE, { ...auth(), Origin: 'http://evil.example' })).status).toBe(403);
    // The launch token in a cookie is no credential: only a session the page gate handed out is.
    expect((await spawnRaw(IDLE, { Cookie: `loupe_token=${mock.token}`, 'Content-Type': 'application/json' })).status).toBe(401);
  });

  it('refuses a NUL byte or an env name with "=" as a bad request (400 naming the field), never a 500', async () => {
    const post = async (body: unknown) => {
      const res = await fetch(endpoint, { method: 'POST', headers: auth(), body: JSON.stringify(body) });
      return { status: res.status, error: ((await res.json()) as { error?: string }).error ?? '' };
    };
    const cases: [unknown, RegExp][] = [
      [{ command: 'node\u0000x' }, /command: the command must not contain a NUL byte/],
      [{ command: process.execPath, args: ['-e', 'a\u0000b'] }, /args\.1: an argument must not contain a NUL byte/],
      [{ command: process.execPath, env: { 'A\u0000B': '1' } }, /env\."A\\u0000B": a variable name must not contain a NUL byte/],
      [{ command: process.execPath, env: { 'A=B': '1' } }, /env\.A=B: a variable name must be non-empty, without "="/],
      [{ command: process.execPath, env: { A: 'x\u0000' } }, /env\.A: a value must not contain a NUL byte/],
      [{ command: process.execPath, cwd: '/tmp\u0000' }, /cwd: the working directory must not contain a NUL byte/],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.error).toMatch(message);
    }
  });

  it('refuses a 9th live session, and DELETE kills the child (exit frame, pid gone)', async () => {
    const ids: string[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const r = await spawnRaw();
        expect(r.status).toBe(201);
        expect(r.body.sessionId!.length).toBeGreaterThanOrEqual(22);
        ids.push(r.body.sessionId!);
      }
      const ninth = await spawnRaw();
      expect(ninth.status).toBe(429);
      const stream = await fetch(`${endpoint}/${ids[0]}`, { headers: auth() });
      const reader = stream.body!.getReader();
      let text = '';
      const dec = new TextDecoder();
      while (!/pid \d+/.test(text)) text += dec.decode((await reader.read()).value);
      const pid = Number(/pid (\d+)/.exec(text)![1]);
      expect((await fetch(`${endpoint}/${ids[0]}`, { method: 'DELETE', headers: auth() })).status).toBe(204);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += dec.decode(value);
      }
      expect(text).toMatch(/event: exit\ndata: \{"code":null,"signal":"SIGTERM"\}/);
      expect(() => process.kill(pid, 0)).toThrow();
      const again = await spawnRaw();
      expect(again.status).toBe(201);
      ids.push(again.body.sessionId!);
    } finally {
      for (const id of ids) await fetch(`${endpoint}/${id}`, { method: 'DELETE', headers: auth() });
    }
  }, 30_000);

  it('closing the session kills the child, and a later request never spawns the command again', async () => {
    const args = loupeArgs('demo');
    const dataDir = args[args.length - 1]!;
    let spawns = 0;
    const counting = (input: string, init: RequestInit) => {
      if (init.method === 'POST' && input === endpoint) spawns++;
      return fetch(input, init);
    };
    const transport = createStdioProxyTransport({ command: process.execPath, args, endpoint, token: mock.token, fetch: counting });
    const session = createClientSession({ transport, era: 'auto', capabilities: { elicitation: { form: {} } } });
    const created = await session.callTool('generate_report', { size: 'small' }, { task: true });
    expect(created.type).toBe('task');
    if (created.type !== 'task') return;
    const follower = session.followTask(created.task);
    expect(pidsWith(dataDir)).toHaveLength(1);
    await session.close();
    // The follower ends at once, and the child is gone from the process table.
    expect((await follower.done).kind).toBe('aborted');
    await until(() => pidsWith(dataDir).length === 0);
    const late = await session.getTask(created.task.taskId);
    expect(late).toMatchObject({ type: 'failure', reason: 'aborted' });
    expect(spawns).toBe(1);
    expect(pidsWith(dataDir)).toEqual([]);
  }, 30_000);

  it('kills a child whose stream went away (the page closed) after detachedMs', async () => {
    const proxy = createStdioProxy({ detachedMs: 300 });
    const marker = `detached-${process.pid}-${Date.now()}`;
    const post = (url: string, body?: unknown, signal?: AbortSignal) =>
      proxy.handle(
        new Request(`http://x/api/proxy/stdio${url}`, {
          method: body === undefined ? 'GET' : 'POST',
          body: body === undefined ? null : JSON.stringify(body),
          signal,
        }),
        url.split('/').filter(Boolean),
      );
    try {
      const started = await post('', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', marker] });
      const { sessionId } = (await started.json()) as { sessionId: string };
      const page = new AbortController();
      const stream = await post(`/${sessionId}`, undefined, page.signal);
      expect(stream.status).toBe(200);
      expect(pidsWith(marker)).toHaveLength(1);
      // The page goes away: its stream request is aborted; nothing attaches again.
      page.abort();
      await until(() => pidsWith(marker).length === 0);
      expect(proxy.size).toBe(0);
    } finally {
      proxy.close();
    }
  }, 30_000);

  it('splits a command line without a shell', () => {
    expect(splitCommandLine(`node "my server.js" --name='a b' x\\ y $HOME;rm`)).toEqual(['node', 'my server.js', '--name=a b', 'x y', '$HOME;rm']);
  });
});
