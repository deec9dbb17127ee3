import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, startCliMock, type Started } from '../helpers/processes';
import { CAPS, callTool } from '../helpers/rpc';
import { controlApi, httpTarget } from './http-target';

/** `mcp-loupe scenarios reset|list` against a running `mcp-loupe mock`. */

const run = promisify(execFile);
const cli = (args: string[]) =>
  run(process.execPath, [join(ROOT, 'bin', 'mcp-loupe.mjs'), ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('mcp-loupe scenarios', () => {
  let mock: Started;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'loupe-cli-scenarios-'));
    mock = await startCliMock(['demo', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    await mock?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reset drops the running tasks and the journal', async () => {
    const target = httpTarget(mock.url);
    const started = await callTool(target, 'generate_report', { size: 'small' }, target.opts({ caps: CAPS.formAndTasks }));
    expect(started.body.result.status).toBe('working');
    expect(((await controlApi(mock.url, mock.token!, '/api/scenarios/demo/tasks', 'GET')).json.tasks as unknown[]).length).toBe(1);
    const r = await cli(['scenarios', 'reset', 'demo', '--url', mock.url, '--token', mock.token!]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('scenario "demo" is back to its initial state');
    expect((await controlApi(mock.url, mock.token!, '/api/scenarios/demo/tasks', 'GET')).json.tasks).toEqual([]);
    expect((await controlApi(mock.url, mock.token!, '/api/scenarios/demo/journal', 'GET')).json.entries).toEqual([]);
  });

  it('list prints built-in scenarios', async () => {
    const r = await cli(['scenarios', 'list', '--url', mock.url, '--token', mock.token!]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^demo\tbuilt-in\tLoupe demo$/m);
  });

  it('fails with the reason when the token is wrong or the scenario unknown', async () => {
    const bad = await cli(['scenarios', 'reset', 'demo', '--url', mock.url, '--token', 'nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Failed to reset scenario demo: A valid Loupe token is required/);
    const unknown = await cli(['scenarios', 'reset', 'missing', '--url', mock.url, '--token', mock.token!]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown scenario: missing');
  });
});

describe('mcp-loupe mock with LOUPE_TOKEN set (a CI script exports it once)', () => {
  const token = `ci-token-${Math.random().toString(36).slice(2)}`;
  let mock: Started;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'loupe-cli-token-'));
    mock = await startCliMock(['demo', '--data-dir', dataDir], { LOUPE_TOKEN: token });
  });
  afterAll(async () => {
    await mock?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves with that token, so `scenarios` and `tasks` reach it with no --token', async () => {
    expect(mock.token).toBe(token);
    const listed = await runCli(['scenarios', 'list', '--url', mock.url], { env: { LOUPE_TOKEN: token } });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^demo\tbuilt-in\tLoupe demo$/m);
    const target = httpTarget(mock.url);
    const started = await callTool(target, 'generate_report', { size: 'small' }, target.opts({ caps: CAPS.formAndTasks }));
    const cancelled = await runCli(['tasks', 'cancel', started.body.result.taskId, '--url', mock.url], { env: { LOUPE_TOKEN: token } });
    expect(cancelled.stderr).toBe('');
    expect(cancelled.code).toBe(0);
  });
});

describe('mcp-loupe mock FILE: the scenario it serves is listed', () => {
  const file = join(ROOT, 'examples', 'faults.yaml');
  let mock: Started;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'loupe-cli-file-'));
    mock = await startCliMock([file, '--data-dir', dataDir]);
  });
  afterAll(async () => {
    await mock?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('in `scenarios list` and GET /api/scenarios, with its file, beside the built-ins; read-only', async () => {
    const r = await cli(['scenarios', 'list', '--url', mock.url, '--token', mock.token!]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^demo\tbuilt-in\tLoupe demo$/m);
    expect(r.stdout).toContain(`example-faults\tfile ${file}\tFaults\n`);
    const listed = (await controlApi(mock.url, mock.token!, '/api/scenarios', 'GET')).json.scenarios as { id: string; file?: string }[];
    expect(listed.find((s) => s.id === 'example-faults')).toMatchObject({ file, valid: true });
    const saved = await fetch(new URL('/api/scenarios/example-faults/source', mock.url), {
      method: 'PUT',
      headers: { Authorization: `Bearer ${mock.token}`, 'Content-Type': 'text/yaml' },
      body: 'id: example-faults\nname: Other\nserver: { name: x, version: "1" }\n',
    });
    expect(saved.status).toBe(409);
    expect(((await saved.json()) as { error: string }).error).toBe(
      `"example-faults" comes from ${file} (given on the command line) and cannot be changed here; edit that file`,
    );
  });
});
