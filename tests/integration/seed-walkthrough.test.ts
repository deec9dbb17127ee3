import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, buildRequest, rpc, callTool } from '../helpers/rpc';
import { ROOT, startCliMock, type Started } from '../helpers/processes';
import { httpTarget } from './http-target';

/**
 * Seed 000's walkthrough over real HTTP against the CLI mock with its SQLite store:
 * create generate_report as a task, restart the process, advance the worker with the CLI,
 * answer the approval with tasks/update, advance again, read the completed result.
 */

const run = promisify(execFile);

describe('seed 000 walkthrough across a process restart', () => {
  let dataDir: string;
  let mock: Started | undefined;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-walkthrough-'));
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reproduces every reply the seed names', async () => {
    mock = await startCliMock(['demo', '--data-dir', dataDir, '--manual']);
    let target = httpTarget(mock.url);
    const created = await callTool(target, 'generate_report', { size: 'large' }, target.opts({ caps: CAPS.formAndTasks, id: 1 }));
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 900000, pollIntervalMs: 1000 });
    const taskId: string = created.body.result.taskId;
    expect(taskId.length).toBeGreaterThanOrEqual(22);

    // A new process on the same data directory reloads the task.
    await mock.stop();
    mock = await startCliMock(['demo', '--data-dir', dataDir, '--manual']);
    target = httpTarget(mock.url);
    const reloaded = await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks, id: 2 }));
    expect(reloaded.body.result).toMatchObject({ resultType: 'complete', taskId, status: 'working' });

    // advance_worker: working → input_required (through the CLI and the control API).
    const cli = path.join(ROOT, 'bin', 'mcp-loupe.mjs');
    const advanced = await run(process.execPath, [cli, 'tasks', 'advance', taskId, '--url', mock.url, '--token', mock.token!]);
    expect(advanced.stdout).toContain('input_required');

    const waiting = await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks, id: 3 }));
    expect(waiting.body.result).toMatchObject({ resultType: 'complete', status: 'input_required' });
    expect(waiting.body.result.inputRequests.approve_outline).toMatchObject({
      method: 'elicitation/create',
      params: { requestedSchema: { properties: { approved: { type: 'boolean' } } } },
    });

    const ack = await rpc(
      target,
      'tasks/update',
      { taskId, inputResponses: { approve_outline: { action: 'accept', content: { approved: true } } } },
      target.opts({ caps: CAPS.formAndTasks, id: 4 }),
    );
    expect(ack.body.result).toEqual({ resultType: 'complete' });

    await run(process.execPath, [cli, 'tasks', 'advance', taskId, '--url', mock.url, '--token', mock.token!]);

    const done = await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks, id: 5 }));
    expect(done.body.result).toMatchObject({ resultType: 'complete', taskId, status: 'completed' });
    expect(done.body.result.result.content[0].type).toBe('text');
    expect(done.body.result).not.toHaveProperty('error');

    // headers["Mcp-Name"] equals params.taskId: the server checks it.
    const { request } = buildRequest('tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks }));
    expect(request.headers.get('Mcp-Name')).toBe(taskId);
    const wrong = await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks, headers: { 'Mcp-Name': 'someone-elses-task' } }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.code).toBe(-32020);
  });
});
