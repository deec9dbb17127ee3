import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../lib/shared/fingerprint';
import { ROOT, startCliMock, type Started, runCli, CLI } from '../helpers/processes';

/**
 * The headless client CLI against real mocks over HTTP: discover, tools, plain and task calls
 * (answered with stubs), seed 003's exit codes (task failure 1, isError 0 unless
 * --strict-errors), the bounded wait, the TTL backstop, and task get/update/cancel.
 */

const cli = (args: string[], timeoutMs?: number) => runCli(args, { timeoutMs });

const TEST_SCENARIO = {
  id: 'cli-test',
  server: { name: 'cli-test', version: '1.0.0' },
  tools: [
    {
      name: 'stuck',
      description: 'never finishes',
      inputSchema: { type: 'object' },
      task: {
        mode: 'required',
        ttlMs: 1_500,
        pollIntervalMs: 200,
        steps: [{ statusMessage: 'stuck', manual: true }, { result: { content: [{ type: 'text', text: 'never' }] } }],
      },
    },
    {
      name: 'slow',
      description: 'manual, no TTL',
      inputSchema: { type: 'object' },
      task: {
        ttlMs: null,
        pollIntervalMs: 200,
        steps: [{ statusMessage: 'thinking', manual: true }, { result: { content: [{ type: 'text', text: 'late' }] } }],
      },
    },
  ],
};

describe('mcp-loupe client commands', () => {
  let dataDir: string;
  let demo: Started;
  let conformance: Started;
  let custom: Started;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-client-cli-'));
    const file = path.join(dataDir, 'cli-test.json');
    fs.writeFileSync(file, JSON.stringify(TEST_SCENARIO));
    [demo, conformance, custom] = await Promise.all([
      startCliMock(['demo', '--data-dir', path.join(dataDir, 'a')]),
      startCliMock(['conformance', '--data-dir', path.join(dataDir, 'b')]),
      startCliMock([file, '--data-dir', path.join(dataDir, 'c')]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([demo?.stop(), conformance?.stop(), custom?.stop()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('discovers the server and lists its tools', async () => {
    const d = await cli(['discover', '--url', demo.url]);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain('Server:       Loupe demo 0.1.0');
    expect(d.stdout).toContain('Extensions:   io.modelcontextprotocol/tasks');
    const t = await cli(['tools', '--url', demo.url, '--json']);
    expect(t.code).toBe(0);
    const tools = JSON.parse(t.stdout) as { tools: { name: string }[]; dropped: unknown[] };
    expect(tools.tools.map((x) => x.name)).toEqual(['charge', 'delete_note', 'echo', 'generate_report', 'notes_timeline', 'search_notes', 'workspace_read']);
    expect(tools.dropped).toEqual([]);
  });

  it('calls a tool directly, and says so when --task got no task', async () => {
    const plain = await cli(['call', 'echo', 'text=hello there', '--url', demo.url]);
    expect(plain).toMatchObject({ code: 0 });
    expect(plain.stdout).toContain('hello there');
    const direct = await cli(['call', 'echo', '--args', '{"text":"direct"}', '--task', '--url', demo.url]);
    expect(direct.code).toBe(0);
    expect(direct.stdout).toContain('direct');
    expect(direct.stderr).toContain('The server answered directly; no task was created.');
  });

  it('answers an MRTR confirmation with --elicit-stub, and stops when no stub answers it', async () => {
    const asked = await cli(['call', 'delete_note', 'noteId=note-2', '--url', demo.url]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('confirm_delete (elicitation/create)');
    const done = await cli(['call', 'delete_note', 'noteId=note-2', '--elicit-stub', '{"confirm":true}', '--url', demo.url, '--json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ structuredContent: { deleted: true } });
  });

  it('refuses a task-only tool without --task (never declaring the extension by itself) and hints at --task', async () => {
    const r = await cli(['call', 'generate_report', 'size=small', '--url', demo.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('JSON-RPC error -32021');
    expect(r.stderr).toContain('add --task');
  });

  it('runs generate_report as a task to completion, answering approve_outline with the stub; ids are fingerprints', async () => {
    const r = await cli(['call', 'generate_report', 'size=small', '--task', '--wait', '--elicit-stub', '{"approved":true}', '--url', demo.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Report ready: "Notes report (small)"');
    expect(r.stdout).toContain('Outline approved: true');
    const fp = /Task ([0-9a-f]{8}) created/.exec(r.stderr)?.[1];
    expect(fp).toBeDefined();
    // The first status message, from the creation result, is told too.
    expect(r.stderr).toContain(`task ${fp}: working — Drafting outline for a small report`);
    expect(r.stderr).toContain(`task ${fp}: input_required`);
    expect(r.stderr).toContain(`task ${fp}: completed`);

    const j = await cli(['call', 'generate_report', 'size=large', '--task', '--wait', '--json', '--elicit-stub', '{"approved":false}', '--url', demo.url]);
    expect(j.code, j.stderr).toBe(0);
    const body = JSON.parse(j.stdout) as { form: string; task: { taskId: string; status: string; result: { content: { text: string }[] } } };
    expect(body).toMatchObject({ form: 'extension', task: { status: 'completed' } });
    expect(body.task.taskId.length).toBeGreaterThanOrEqual(22);
    expect(body.task.result.content[0].text).toContain('Outline approved: false');
    // Human output never shows the id itself.
    const human = await cli(['task', 'get', body.task.taskId, '--url', demo.url]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Task:     ${fingerprint(body.task.taskId)}`);
    expect(human.stdout + human.stderr).not.toContain(body.task.taskId);
    expect((await cli(['task', 'get', body.task.taskId, '--reveal-ids', '--url', demo.url])).stdout).toContain(body.task.taskId);
  });

  it('shows a JSON-RPC error answering tasks/update with its code and message, and does not send the answers again', async () => {
    const file = path.join(dataDir, 'refused-update.loupe.json');
    const run = await cli([
      'call',
      'generate_report',
      'size=small',
      '--task',
      '--wait',
      '--elicit-stub',
      '{"approved":"yes-please"}',
      '--record',
      file,
      '--url',
      demo.url,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The server refused the answers to task');
    expect(run.stderr).toContain('JSON-RPC error -32602');
    expect(run.stderr).toContain('"approved" must be a boolean');
    expect(run.stderr).not.toContain('still input_required');
    const frames = (JSON.parse(fs.readFileSync(file, 'utf8')) as { frames: { kind: string; method?: string }[] }).frames;
    expect(frames.filter((f) => f.kind === 'http-request' && f.method === 'tasks/update')).toHaveLength(1);
    const json = await cli([
      'call',
      'generate_report',
      'size=small',
      '--task',
      '--wait',
      '--elicit-stub',
      '{"approved":"yes-please"}',
      '--json',
      '--url',
      demo.url,
    ]);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'rpc', rpc: { code: -32602 } });
  });

  it('exits 1 with the error of a failed task; isError is a result unless --strict-errors', async () => {
    const failed = await cli(['call', 'protocol_error_job', '--task', '--wait', '--url', conformance.url.replace(/\/mcp$/, '/mcp/conformance')]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/failed: JSON-RPC error -32603: Simulated internal failure/);
    const isError = await cli(['call', 'failing_job', '--task', '--wait', '--url', conformance.url]);
    expect(isError.code, isError.stderr).toBe(0);
    expect(isError.stdout).toContain('The job failed: simulated tool error');
    expect(isError.stderr).toContain('isError: true');
    const strict = await cli(['call', 'failing_job', '--task', '--wait', '--strict-errors', '--url', conformance.url]);
    expect(strict.code).toBe(1);
  });

  it("ends the needs-input message with one full stop when the server's message has its own", async () => {
    const r = await cli(['call', 'delete_note', 'noteId=note-1', '--url', demo.url]);
    expect(r.code).toBe(1);
    // It read "This cannot be undone.. Answer with …".
    expect(r.stderr).toContain('confirm_delete (elicitation/create): Delete note "Quarterly planning"? This cannot be undone. Answer with --elicit-stub');
  });

  it('bounds --wait by --timeout and gives up at createdAt + ttlMs', async () => {
    const waited = await cli(['call', 'slow', '--task', '--wait', '--timeout', '1200', '--url', custom.url]);
    expect(waited.code).toBe(1);
    expect(waited.stderr).toContain('still working after --timeout 1200 ms');
    expect(waited.ms).toBeLessThan(10_000);
    const expired = await cli(['call', 'stuck', '--task', '--wait', '--url', custom.url]);
    expect(expired.code).toBe(1);
    expect(expired.stderr).toMatch(/still working after its TTL .*ttlMs 1500.*giving up/);
  });

  it('on Ctrl-C while waiting, stops waiting (exit 130) and says the task runs on, and how to follow it', async () => {
    const child = spawn(process.execPath, [CLI, 'call', 'slow', '--task', '--wait', '--reveal-ids', '--url', custom.url], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await expect.poll(() => stderr, { timeout: 20_000 }).toContain('waiting for it to finish');
    child.kill('SIGINT');
    expect(await ended).toBe(130);
    const said = /Stopped waiting for task \S+ \(interrupted\); it keeps running on the server\. Follow it with `mcp-loupe task get (\S+)`/.exec(stderr);
    expect(said, stderr).not.toBeNull();
    const still = await cli(['task', 'get', said![1]!, '--json', '--url', custom.url]);
    expect(JSON.parse(still.stdout)).toMatchObject({ task: { status: 'working' } });
  });

  it('follows a task by hand: get, update with the stub, cancel that waits for the terminal status', async () => {
    const created = await cli(['call', 'generate_report', 'size=medium', '--task', '--json', '--url', demo.url]);
    expect(created.code).toBe(0);
    const id = (JSON.parse(created.stdout) as { task: { taskId: string } }).task.taskId;
    let status = '';
    for (let i = 0; i < 40 && status !== 'input_required'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = (JSON.parse((await cli(['task', 'get', id, '--json', '--url', demo.url])).stdout) as { task: { status: string } }).task.status;
    }
    expect(status).toBe('input_required');
    const shown = await cli(['task', 'get', id, '--url', demo.url]);
    expect(shown.stdout).toContain('Input:    approve_outline (elicitation/create)');
    const upd = await cli(['task', 'update', id, '--elicit-stub', '{"approved":true}', '--url', demo.url]);
    expect(upd.code, upd.stderr).toBe(0);
    expect(upd.stdout).toContain('The ack is not a status change');
    const cancel = await cli(['task', 'cancel', id, '--wait', '--url', demo.url]);
    expect(cancel.stdout).toContain('Cancellation requested');
    expect(cancel.stderr).toContain('the ack is not final');
    const final = JSON.parse((await cli(['task', 'get', id, '--json', '--url', demo.url])).stdout) as { task: { status: string } };
    // The demo honours a cancel; a task that finished first is reported with its result instead.
    expect(['cancelled', 'completed']).toContain(final.task.status);
    expect(cancel.code).toBe(0);
    if (final.task.status === 'cancelled') expect(cancel.stderr).toContain('was cancelled');
    else expect(cancel.stdout).toContain('Report ready');

    const unknown = await cli(['task', 'get', 'no-such-task', '--url', demo.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('-32602');
  });

  it('refuses every task command before sending it when the server declared no task support', async () => {
    const methods: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const m = JSON.parse(body) as { id: number; method: string };
        methods.push(m.method);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private' },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    try {
      for (const args of [
        ['task', 'get', 'T1'],
        ['task', 'cancel', 'T1'],
        ['task', 'update', 'T1', '--input-responses', '{}'],
        ['task', 'result', 'T1'],
      ]) {
        const r = await cli([...args, '--url', url]);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr).toContain('does not declare the io.modelcontextprotocol/tasks extension; no task command was sent');
      }
      expect(new Set(methods)).toEqual(new Set(['server/discover']));
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('calls a tool result without a content array an invalid response (exit 1), not an empty result', async () => {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const m = JSON.parse(body) as { id: number; method: string };
        const result =
          m.method === 'server/discover'
            ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'partial', version: '1' }, ttlMs: 0, cacheScope: 'private' }
            : m.method === 'tools/list'
              ? { tools: [{ name: 'partial', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' }
              : { foo: 1 };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', ...result } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    try {
      const r = await cli(['call', 'partial', '--url', url]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Invalid response: the tool result has no content array (content: none)');
      expect(r.stdout).not.toContain('(empty result)');
      const j = await cli(['call', 'partial', '--url', url, '--json']);
      expect(j.code).toBe(1);
      expect(JSON.parse(j.stdout)).toMatchObject({ error: { code: 'invalid-response' } });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("asks for logs with --log-level and prints the server's notifications/message on stderr", async () => {
    const url = conformance.url.replace(/\/mcp$/, '/mcp/conformance');
    const r = await cli(['call', 'test_tool_with_logging', '--log-level', 'info', '--url', url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('log info: Tool execution started\nlog info: Tool processing data\nlog info: Tool execution completed');
    // Without it the 2026-07-28 server sends none; with --json nothing but the document is printed.
    expect((await cli(['call', 'test_tool_with_logging', '--url', url])).stderr).not.toContain('log info');
    const j = await cli(['call', 'test_tool_with_logging', '--log-level', 'info', '--json', '--url', url]);
    expect(j.stderr).not.toContain('log info');
    expect((await cli(['call', 'test_tool_with_logging', '--log-level', 'loud', '--url', url])).code).toBe(2);
  });

  it('names a 401 "unauthorized" and a stdio command that cannot start "unreachable" in --json errors', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer' });
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const r = await cli(['tools', '--json', '--url', `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`]);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'unauthorized', message: expect.stringContaining('--auth') } });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    const missing = await cli(['tools', '--json', '--', path.join(os.tmpdir(), 'no-such-loupe-server')]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'unreachable', message: expect.stringMatching(/^Failed to start .*ENOENT/) } });
  });

  it('answers URL-mode elicitation with --elicit-url (declaring elicitation.url, printing the URL), and names the flag when it is missing', async () => {
    const mock = await startCliMock([path.join(ROOT, 'examples', 'elicitation.yaml'), '--store', 'memory']);
    try {
      const ok = await cli(['call', 'connect_calendar', '--elicit-url', 'accept', '--url', mock.url]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('Your calendar is connected.');
      expect(ok.stderr).toMatch(/elicitation \(url\): .* https:\/\/calendar\.example\.com\/oauth\/authorize\S* → accept/);
      const refused = await cli(['call', 'connect_calendar', '--url', mock.url]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('declares only with --elicit-url');
      expect((await cli(['call', 'connect_calendar', '--elicit-url', 'maybe', '--url', mock.url])).code).toBe(2);
    } finally {
      await mock.stop();
    }
  });

  it('reports usage mistakes with exit code 2', async () => {
    const r = await cli(['call', 'echo', 'oops', '--url', demo.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('must look like key=value');
    expect((await cli(['tools', '--url', 'ftp://example.com'])).code).toBe(2);
  });
});
