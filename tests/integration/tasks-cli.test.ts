import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { ROOT, startCliMock, type Started } from '../helpers/processes';
import { httpTarget } from './http-target';

/**
 * `mcp-loupe tasks <action>` (the control API) against a real `mcp-loupe mock` serving a
 * scenario other than demo on its plain `/mcp`.
 */

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

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
    expect(advanced.stdout).toMatch(/^advance: task \S+… is now working \(Waiting for your manager to approve\)\n$/);
    expect(await statusOf(taskId)).toBe('Waiting for your manager to approve');
  });

  it('fails, naming the right scenario, when --scenario names the wrong one', async () => {
    const taskId = await createTask();
    const wrong = await cli(['tasks', 'advance', taskId, '--url', mock.url, '--token', mock.token!, '--scenario', 'demo']);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('Failed to advance task: Task belongs to scenario slow-approvals, not demo (pass --scenario slow-approvals)');
    expect(await statusOf(taskId)).toBe('Filing the purchase request for chair');
  });
});
