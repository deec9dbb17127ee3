import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startCliMock, startApp, type Started } from '../helpers/processes';

/**
 * The official conformance suite (0.2.0-alpha.12) against /mcp/conformance, served by the CLI
 * and by the app server `npm start` runs: every required 2026-07-28 scenario, the pending ones and all tasks-*
 * scenarios must pass, with no expected-failures file. The same endpoint serves 2025-11-25: the
 * suite's 2025-11-25 server requirements and `--suite all` pass every scenario, named below.
 */

/** The 2025-11-25 server scenarios (`--requirements 2025-11-25`: the required ones, then the not scored ones). */
const LEGACY_SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
  'server-session-lifecycle',
  'json-schema-2020-12',
  'server-sse-polling',
];

/** Every server scenario of `--suite all`. */
const ALL_SCENARIOS = [
  'caching',
  'completion-complete',
  'dns-rebinding-protection',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'http-custom-header-server-validation',
  'http-header-validation',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-list-roots',
  'input-required-result-basic-sampling',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-missing-input-response',
  'input-required-result-multi-round',
  'input-required-result-multiple-input-requests',
  'input-required-result-non-tool-request',
  'input-required-result-request-state',
  'input-required-result-result-type',
  'input-required-result-tampered-state',
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
  'json-schema-2020-12',
  'logging-set-level',
  'ping',
  'prompts-get-embedded-resource',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-with-image',
  'prompts-list',
  'resources-list',
  'resources-read-binary',
  'resources-read-text',
  'resources-subscribe',
  'resources-templates-read',
  'resources-unsubscribe',
  'sep-2164-resource-not-found',
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
  'server-initialize',
  'server-session-lifecycle',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'server-stateless',
  'tasks-capability-negotiation',
  'tasks-dispatch-and-envelope',
  'tasks-lifecycle',
  'tasks-mrtr-composition',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-request-state-removal',
  'tasks-required-task-error',
  'tasks-status-notifications',
  'tasks-wire-fields',
  'tools-call-audio',
  'tools-call-elicitation',
  'tools-call-embedded-resource',
  'tools-call-error',
  'tools-call-image',
  'tools-call-mixed-content',
  'tools-call-sampling',
  'tools-call-simple-text',
  'tools-call-with-logging',
  'tools-call-with-progress',
  'tools-list',
];

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

async function runSuite(
  url: string,
  selection: string[] = ['--requirements', '2026-07-28'],
): Promise<{ code: number; log: string; results: Map<string, Check[]> }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-conf-'));
  const child = spawn(process.execPath, ['--import', SHIM, RUNNER, 'server', '--url', url, ...selection, '-o', out], {
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

/** Every named scenario ran, no check failed, and the suite ran nothing else. */
function expectScenariosPass(run: Awaited<ReturnType<typeof runSuite>>, scenarios: string[]) {
  const failures: string[] = [];
  for (const scenario of scenarios) {
    const checks = run.results.get(scenario);
    if (!checks) failures.push(`${scenario}: did not run`);
    for (const c of checks ?? []) if (c.status === 'FAILURE') failures.push(`${scenario} / ${c.id}: ${c.errorMessage ?? ''}`);
  }
  expect(failures, run.log.slice(-3000)).toEqual([]);
  expect([...run.results.keys()].sort()).toEqual([...scenarios].sort());
  expect(run.code).toBe(0);
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
  const url = () => mock.url.replace('127.0.0.1', 'localhost').replace(/\/mcp$/, '/mcp/conformance');
  it('passes every required, pending and tasks scenario', async () => {
    expectAllPass(await runSuite(url()));
  });
  it('passes every 2025-11-25 server scenario (sessions, server-to-client requests, resumable streams)', async () => {
    const run = await runSuite(url(), ['--requirements', '2025-11-25']);
    expectScenariosPass(run, LEGACY_SCENARIOS);
    // The session scenarios really ran: they record nothing but a warning or a skip without a session.
    for (const s of ['server-session-lifecycle', 'server-sse-polling', 'server-sse-multiple-streams'])
      expect(run.results.get(s)?.filter((c) => c.status === 'SUCCESS').length, s).toBeGreaterThan(0);
    expect(run.results.get('server-sse-polling')?.find((c) => c.id === 'server-sse-disconnect-resume')?.status).toBe('SUCCESS');
  });
  it('passes every scenario of --suite all', async () => {
    expectScenariosPass(await runSuite(url(), ['--suite', 'all']), ALL_SCENARIOS);
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
