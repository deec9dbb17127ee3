import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { node22 } from '../helpers/node22';
import { ROOT, startCliMock, type Started } from '../helpers/processes';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { httpTarget } from './http-target';

/**
 * `mcp-loupe mock` when better-sqlite3's native binding cannot load, as after an install with
 * `--ignore-scripts` (pnpm's default): the bundle runs from a copy of dist/ beside a
 * node_modules/better-sqlite3 whose build/ (the binding) is gone. It falls back to node:sqlite on
 * Node 22, to memory with one warning on Node 20, and `--store` picks explicitly.
 */

const WARNING = 'SQLite is unavailable';
let temp: string;
/** dist/cli.mjs of the copy whose better-sqlite3 has no binding. */
let brokenCli: string;
const running: Started[] = [];

function freshDataDir(): string {
  return fs.mkdtempSync(path.join(temp, 'data-'));
}

async function mock(args: string[], runtime: { node?: string; entry?: string } = {}): Promise<Started> {
  const started = await startCliMock(['demo', '--manual', ...args], {}, runtime);
  running.push(started);
  return started;
}

/** Start generate_report as a task; returns its id. */
async function createTask(m: Started): Promise<string> {
  const target = httpTarget(m.url);
  const created = await callTool(target, 'generate_report', { size: 'small' }, target.opts({ caps: CAPS.formAndTasks }));
  const taskId = (created.body.result as { taskId?: string }).taskId;
  expect(taskId, JSON.stringify(created.body)).toEqual(expect.any(String));
  return taskId!;
}

async function getTask(m: Started, taskId: string) {
  const target = httpTarget(m.url);
  return (await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks }))).body;
}

/** Run the CLI to completion (for runs that must refuse to start). */
function runCli(node: string, entry: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, [entry, ...args], { cwd: temp, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

beforeAll(() => {
  // Rebuilds dist/ when lib/ is newer (bin/mcp-loupe.mjs checks), so the copy is current.
  expect(spawnSync(process.execPath, [path.join(ROOT, 'bin', 'mcp-loupe.mjs'), '--version'], { cwd: ROOT }).status).toBe(0);
  temp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sqlite-fallback-'));
  fs.cpSync(path.join(ROOT, 'dist'), path.join(temp, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  // better-sqlite3 and what it requires at run time, as an install that skipped its build leaves them.
  for (const name of ['better-sqlite3', 'bindings', 'file-uri-to-path']) {
    const from = path.join(ROOT, 'node_modules', name);
    fs.cpSync(from, path.join(temp, 'node_modules', name), {
      recursive: true,
      filter: (src) => !['build', 'deps', 'src'].includes(path.relative(from, src).split(path.sep)[0] ?? ''),
    });
  }
  brokenCli = path.join(temp, 'dist', 'cli.mjs');
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.stop()));
});

afterAll(() => {
  fs.rmSync(temp, { recursive: true, force: true });
});

describe('on Node 20 (no node:sqlite) with the binding missing', () => {
  it('starts in memory, says so once on stderr with the fix, and serves tasks', async () => {
    const dataDir = freshDataDir();
    const m = await mock(['--data-dir', dataDir], { entry: brokenCli });
    const taskId = await createTask(m);
    expect((await getTask(m, taskId)).result).toMatchObject({ taskId, status: 'working' });
    await createTask(m);
    expect(occurrences(m.output(), WARNING)).toBe(1);
    expect(m.output()).toMatch(/will not survive a restart/);
    expect(m.output()).toMatch(/better-sqlite3 did not load \(Could not locate the bindings file\)/);
    expect(m.output()).toMatch(/npm rebuild better-sqlite3/);
    expect(fs.existsSync(path.join(dataDir, 'loupe.sqlite3'))).toBe(false);

    // What the warning promised: the task is gone after a restart.
    await m.stop();
    const again = await mock(['--data-dir', dataDir], { entry: brokenCli });
    expect((await getTask(again, taskId)).error).toBeDefined();
  });

  it('--store sqlite refuses to start and says how to fix the install', async () => {
    const r = await runCli(process.execPath, brokenCli, ['mock', '--store', 'sqlite', '--port', '0', '--data-dir', freshDataDir()]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/READY/);
    expect(r.stderr).toMatch(/^mcp-loupe: Failed to open the SQLite store at .*loupe\.sqlite3: better-sqlite3 did not load/);
    expect(r.stderr).toMatch(/no node:sqlite \(it needs Node 22\.13 or later\)/);
    expect(r.stderr).toMatch(/npm rebuild better-sqlite3/);
  });

  it('--store memory starts without a warning and leaves the data directory alone', async () => {
    const dataDir = path.join(freshDataDir(), 'never-created');
    const m = await mock(['--data-dir', dataDir, '--store', 'memory'], { entry: brokenCli });
    const taskId = await createTask(m);
    expect((await getTask(m, taskId)).result).toMatchObject({ taskId });
    expect(m.output()).not.toMatch(WARNING);
    await m.stop();
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe('with a working better-sqlite3', () => {
  it('--store memory never touches the disk; --store sqlite keeps tasks across a restart', async () => {
    const memoryDir = path.join(freshDataDir(), 'never-created');
    const inMemory = await mock(['--data-dir', memoryDir, '--store', 'memory']);
    await createTask(inMemory);
    await inMemory.stop();
    expect(fs.existsSync(memoryDir)).toBe(false);

    const dataDir = freshDataDir();
    const first = await mock(['--data-dir', dataDir, '--store', 'sqlite']);
    const taskId = await createTask(first);
    await first.stop();
    const second = await mock(['--data-dir', dataDir, '--store', 'sqlite']);
    expect((await getTask(second, taskId)).result).toMatchObject({ taskId, status: 'working' });
    expect(second.output()).not.toMatch(WARNING);
  });

  it('rejects an unknown --store value', async () => {
    const r = await runCli(process.execPath, path.join(ROOT, 'dist', 'cli.mjs'), ['mock', '--store', 'disk', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--store must be memory, sqlite or a postgres:\/\/ URL/);
  });
});

const node = node22();
const withNode22 = 'bin' in node ? describe : describe.skip;
const node22Bin = 'bin' in node ? node.bin : '';

withNode22(`on Node 22 (node:sqlite)${'skip' in node ? ` (skipped: ${node.skip})` : ''}`, () => {
  it('uses node:sqlite when the binding is missing: no warning, and a task survives a restart', async () => {
    const dataDir = freshDataDir();
    const first = await mock(['--data-dir', dataDir], { node: node22Bin, entry: brokenCli });
    const taskId = await createTask(first);
    const before = (await getTask(first, taskId)).result;
    await first.stop('SIGKILL');
    expect(fs.existsSync(path.join(dataDir, 'loupe.sqlite3'))).toBe(true);

    const second = await mock(['--data-dir', dataDir, '--store', 'sqlite'], { node: node22Bin, entry: brokenCli });
    expect((await getTask(second, taskId)).result).toEqual(before);
    for (const m of [first, second]) {
      expect(m.output()).not.toMatch(WARNING);
      // node:sqlite's ExperimentalWarning is held back: the fallback is meant to be quiet.
      expect(m.output()).not.toMatch(/ExperimentalWarning/);
    }
  });

  it('reads a store file better-sqlite3 wrote', async () => {
    const dataDir = freshDataDir();
    const written = await mock(['--data-dir', dataDir]);
    const taskId = await createTask(written);
    const before = (await getTask(written, taskId)).result;
    await written.stop();
    const read = await mock(['--data-dir', dataDir], { node: node22Bin, entry: brokenCli });
    expect((await getTask(read, taskId)).result).toEqual(before);
  });

  it('passes the store contract suite on node:sqlite', () => {
    const report = path.join(temp, 'node-sqlite-report.json');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const run = spawnSync(
      node22Bin,
      [
        path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--project',
        'unit',
        'tests/unit/store/node-sqlite-stores.test.ts',
        '--reporter=json',
        `--outputFile=${report}`,
      ],
      { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const results = JSON.parse(fs.readFileSync(report, 'utf8')) as {
      numFailedTests: number;
      numPendingTests: number;
      testResults: { assertionResults: { ancestorTitles: string[]; status: string }[] }[];
    };
    expect(results.numFailedTests).toBe(0);
    expect(results.numPendingTests).toBe(0);
    const contract = results.testResults.flatMap((f) => f.assertionResults).filter((t) => t.ancestorTitles[0] === 'node:sqlite: store contract');
    // Every test the shared contract declares (its fleet parts included) ran, and passed.
    const declared = ['store-contract.ts', 'store-fleet-contract.ts']
      .map((file) => fs.readFileSync(path.join(ROOT, 'tests', 'unit', 'store', file), 'utf8').match(/^\s+it\(/gm)?.length ?? 0)
      .reduce((a, b) => a + b, 0);
    expect(contract.map((t) => t.status)).toEqual(Array(declared).fill('passed'));
  });
});
