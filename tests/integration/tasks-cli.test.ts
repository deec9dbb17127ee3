import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../lib/shared/fingerprint';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { startCliMock, type Started, runCli } from '../helpers/processes';
import { httpTarget } from './http-target';

/**
 * `mcp-loupe tasks <action>` (the control API) and `mcp-loupe task …` (MCP) against real
 * `mcp-loupe mock` processes: one serving a scenario other than demo on its plain `/mcp`.
 */

const cli = (args: string[]) => runCli(args);

describe('mcp-loupe tasks on a mock serving slow-approvals', () => {
  let dataDir: string;
  let mock: Started;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tasks-cli-'));
    mock = await startCliMock(['slow-approvals', '--manual', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const createTask = async () => {
    const target = httpTarget(mock.url);
    const created = await callTool(target, 'request_purchase', { item: 'chair', amountCents: 100 }, target.opts({ caps: CAPS.formAndTasks }));
    return created.body.result.taskId as string;
  };
  const statusOf = async (taskId: string) => {
    const target = httpTarget(mock.url);
    return (await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks }))).body.result.statusMessage as string;
  };

  it('advances a task of the scenario the plain /mcp serves, without --scenario', async () => {
    const taskId = await createTask();
    expect(await statusOf(taskId)).toBe('Filing the purchase request for chair');
    const advanced = await cli(['tasks', 'advance', taskId, '--url', mock.url, '--token', mock.token!]);
    expect(advanced).toMatchObject({ code: 0, stderr: '' });
    // The start of the id the user typed, so they can tell which task the line is about, beside the fingerprint lists show.
    expect(advanced.stdout).toBe(
      `advance: task ${taskId.slice(0, 8)}… (fingerprint ${fingerprint(taskId)}) is now working (Waiting for your manager to approve)\n`,
    );
    expect(advanced.stdout).not.toContain(taskId);
    expect(await statusOf(taskId)).toBe('Waiting for your manager to approve');
  });

  it('says advance does not answer a task that waits for input, and how to move it on', async () => {
    const taskId = await createTask();
    expect((await cli(['tasks', 'require-input', taskId, '--url', mock.url, '--token', mock.token!])).code).toBe(0);
    const advanced = await cli(['tasks', 'advance', taskId, '--url', mock.url, '--token', mock.token!]);
    expect(advanced).toMatchObject({ code: 0, stderr: '' });
    expect(advanced.stdout).toMatch(
      /^advance: task \S+… \(fingerprint [0-9a-f]{8}\) waits for input \(input_required\); advance does not answer it\. Answer as the client would .*task update ID --input-responses JSON.*tasks complete.*tasks fail/,
    );
  });

  it('says a cancel of a finished task changed nothing, and a cancel of a running one is only requested', async () => {
    const taskId = await createTask();
    expect((await cli(['tasks', 'complete', taskId, '--url', mock.url, '--token', mock.token!])).code).toBe(0);
    // The server answers both with the same empty ack; the CLI said "the task may still finish" to both.
    const late = await cli(['task', 'cancel', taskId, '--url', mock.url]);
    expect(late).toMatchObject({ code: 0, stderr: '' });
    expect(late.stdout).toMatch(/^Task \S+ was already completed; the server acknowledged the cancel, which changes nothing\.\n$/);
    const running = await cli(['task', 'cancel', await createTask(), '--url', mock.url]);
    expect(running.stdout).toMatch(/^Cancellation requested for task \S+\. The server acknowledges it; the task may still finish\.\n$/);
  });

  it('fails, naming the right scenario, when --scenario names the wrong one', async () => {
    const taskId = await createTask();
    const wrong = await cli(['tasks', 'advance', taskId, '--url', mock.url, '--token', mock.token!, '--scenario', 'demo']);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('Failed to advance task: Task belongs to scenario slow-approvals, not demo (pass --scenario slow-approvals)');
    expect(await statusOf(taskId)).toBe('Filing the purchase request for chair');
  });

  it('refuses a --json that is no JSON, or no object, as a usage error (exit 2) saying so; the task is untouched', async () => {
    const taskId = await createTask();
    const bad = await cli(['tasks', 'fail', taskId, '--url', mock.url, '--token', mock.token!, '--json', '{bad']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^mcp-loupe: --json is not valid JSON: .*JSON.*\n$/);
    const list = await cli(['tasks', 'complete', taskId, '--url', mock.url, '--token', mock.token!, '--json', '[1]']);
    expect(list.code).toBe(2);
    expect(list.stderr).toBe('mcp-loupe: --json must be a JSON object, e.g. {"result":{"content":[{"type":"text","text":"done"}]}}\n');
    expect(await statusOf(taskId)).toBe('Filing the purchase request for chair');
  });

  it('asks for operator input again under a fresh key once the first question was answered, and refuses a key the task already used', async () => {
    const taskId = await createTask();
    const target = httpTarget(mock.url);
    const task = async () => (await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks }))).body.result;
    const requireInput = (...extra: string[]) => cli(['tasks', 'require-input', taskId, '--url', mock.url, '--token', mock.token!, ...extra]);
    expect((await requireInput()).code).toBe(0);
    expect(Object.keys((await task()).inputRequests)).toEqual(['operator_input']);
    const answer = { action: 'accept', content: { note: 'ok' } };
    await rpc(target, 'tasks/update', { taskId, inputResponses: { operator_input: answer } }, target.opts({ caps: CAPS.formAndTasks }));
    expect((await task()).status).toBe('working');
    // The client answered operator_input and never answers it again (tasks.md): the second question needs its own key.
    const again = await requireInput();
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/^require-input: task \S+… \(fingerprint [0-9a-f]{8}\) is now input_required/);
    const asking = await task();
    expect(asking.status).toBe('input_required');
    expect(Object.keys(asking.inputRequests)).toEqual(['operator_input_2']);
    const reused = await requireInput('--json', JSON.stringify({ inputRequests: { operator_input: asking.inputRequests.operator_input_2 } }));
    expect(reused.code).toBe(1);
    expect(reused.stderr).toContain('Failed to require-input task: inputRequests key "operator_input" was already used by this task');
    expect(Object.keys((await task()).inputRequests)).toEqual(['operator_input_2']);
  });

  it('says an expired task is deleted, as a client then finds it', async () => {
    const taskId = await createTask();
    const expired = await cli(['tasks', 'expire', taskId, '--url', mock.url, '--token', mock.token!]);
    expect(expired).toMatchObject({ code: 0, stderr: '' });
    expect(expired.stdout).toMatch(/^expire: task \S+… \(fingerprint [0-9a-f]{8}\) has expired and is deleted \(a client's tasks\/get no longer finds it\)\n$/);
    const got = await cli(['task', 'get', taskId, '--url', mock.url]);
    expect(got.code).toBe(1);
  });
});

describe('task ids beginning with "-"', () => {
  let mock: Started;
  beforeAll(async () => {
    mock = await startCliMock(['demo', '--store', 'memory']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  // Random base64url ids begin with "-" 1 time in 64; commander refused them as unknown options (exit 2).
  it('passes such an id to the server, wherever it stands among the flags', async () => {
    for (const id of ['-baW0A5wU6ZRjlDhKR_V6LXbRSI', '-Vx1', '-hx1']) {
      for (const command of ['get', 'update', 'cancel', 'result']) {
        const r = await cli(['task', command, '--url', mock.url, id]);
        expect({ command, id, code: r.code, stderr: r.stderr }).toEqual({
          command,
          id,
          code: 1,
          stderr: 'mcp-loupe: JSON-RPC error -32602: Failed to retrieve task: Task not found\n',
        });
      }
      const advanced = await cli(['tasks', 'advance', id, '--url', mock.url, '--token', mock.token!]);
      expect(advanced).toMatchObject({ code: 1, stderr: 'mcp-loupe: Failed to advance task: Unknown task\n' });
    }
  });

  it('still refuses an unknown --option or -x with exit 2', async () => {
    const long = await cli(['task', 'get', 'T1', '--urll', mock.url]);
    expect(long).toMatchObject({ code: 2, stdout: '' });
    expect(long.stderr).toMatch(/^mcp-loupe: unknown option '--urll'\n\(Did you mean --url\?\)\nSee 'mcp-loupe task get --help'\.\n$/);
    expect(await cli(['task', 'cancel', '-x', '--url', mock.url])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '-x'") });
    expect(await cli(['tasks', 'fail', 'T1', '--bogus', '--url', mock.url, '--token', 't'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unknown option '--bogus'"),
    });
    expect(await cli(['task', 'get', '-abc', 'extra', '--url', mock.url])).toMatchObject({
      code: 2,
      stderr: 'mcp-loupe: too many arguments for \'get\': "extra"\n',
    });
  });
});
