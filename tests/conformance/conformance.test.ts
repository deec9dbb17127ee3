import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startCliMock, startApp, type Started } from '../helpers/processes';

/**
 * The official conformance suite (0.2.0-alpha.12) against /mcp/conformance, served by the CLI
 * and by the app server `npm start` runs: every required 2026-07-28 scenario, the pending ones and all tasks-*
 * scenarios must pass, with no expected-failures file.
 */

const RUNNER = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SHIM = path.join(ROOT, 'tests/conformance/shim/register.mjs');

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function requiredScenarios(): { required: string[]; notScored: string[] } {
  const text = fs.readFileSync(path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/requirements/2026-07-28.yaml'), 'utf8');
  const server = text.split('\nserver:\n')[1].split('\nclient:\n')[0];
  const required = [...server.matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1]);
  const notScored = [...text.matchAll(/- scenario: (\S+)\n\s+leg: server/g)].map((m) => m[1]);
  return { required, notScored };
}

async function runSuite(url: string): Promise<{ code: number; log: string; results: Map<string, Check[]> }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-conf-'));
  const child = spawn(process.execPath, ['--import', SHIM, RUNNER, 'server', '--url', url, '--requirements', '2026-07-28', '-o', out], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  const results = new Map<string, Check[]>();
  for (const dir of fs.readdirSync(out)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir);
    if (!m) continue;
    results.set(m[1], JSON.parse(fs.readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as Check[]);
  }
  fs.rmSync(out, { recursive: true, force: true });
  return { code, log, results };
}

function expectAllPass(run: Awaited<ReturnType<typeof runSuite>>) {
  const { required, notScored } = requiredScenarios();
  expect(required).toHaveLength(37);
  expect(notScored.filter((s) => s.startsWith('tasks-'))).toHaveLength(10);
  const failures: string[] = [];
  for (const scenario of [...required, ...notScored]) {
    const checks = run.results.get(scenario);
    if (!checks) {
      failures.push(`${scenario}: did not run`);
      continue;
    }
    for (const c of checks) if (c.status === 'FAILURE') failures.push(`${scenario} / ${c.id}: ${c.errorMessage ?? ''}`);
  }
  expect(failures, run.log.slice(-3000)).toEqual([]);
  expect(run.code).toBe(0);
}

describe('conformance suite against the CLI mock', () => {
  let mock: Started;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'));
    mock = await startCliMock(['conformance', '--data-dir', dataDir]);
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  it('passes every required, pending and tasks scenario', async () => {
    const url = mock.url.replace('127.0.0.1', 'localhost').replace(/\/mcp$/, '/mcp/conformance');
    expectAllPass(await runSuite(url));
  });
});

describe('conformance suite against the app server', () => {
  let server: Started;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-app-'));
    server = await startApp(dataDir);
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  it('passes every required, pending and tasks scenario', async () => {
    expectAllPass(await runSuite(`http://localhost:${server.port}/mcp/conformance`));
  });
});
