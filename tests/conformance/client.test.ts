import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes';

/**
 * The official conformance suite's client scenarios (0.2.0-alpha.12) judge Loupe's headless
 * client: the runner starts each scenario's server and launches `mcp-loupe conformance-client`
 * with the server URL as its last argument. Every check must pass; a WARNING fails the run
 * too (the runner counts it), and so does a client exit code other than 0.
 */

const RUNNER = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SHIM = path.join(ROOT, 'tests/conformance/shim/register.mjs');
const CLIENT = `${process.execPath} ${path.join(ROOT, 'bin', 'mcp-loupe.mjs')} conformance-client`;

/** Every non-auth client scenario `conformance list --client --spec-version V` names for each era (alpha.12). */
const SCENARIOS: [scenario: string, specVersion: '2025-11-25' | '2026-07-28'][] = [
  ['initialize', '2025-11-25'],
  ['tools_call', '2025-11-25'],
  ['elicitation-sep1034-client-defaults', '2025-11-25'],
  ['sse-retry', '2025-11-25'],
  ['json-schema-2020-12-preservation', '2025-11-25'],
  ['tools_call', '2026-07-28'],
  ['request-metadata', '2026-07-28'],
  ['sep-2322-client-request-state', '2026-07-28'],
  ['http-standard-headers', '2026-07-28'],
  ['http-custom-headers', '2026-07-28'],
  ['http-invalid-tool-headers', '2026-07-28'],
  ['json-schema-ref-no-deref', '2026-07-28'],
  ['json-schema-2020-12-preservation', '2026-07-28'],
];

/**
 * The 25 auth/* scenarios required for 2026-07-28 (issue 17) and the client-credentials
 * extension (which the runner only runs without --spec-version). `ok`: the client completes
 * the flow and its calls; otherwise the step at which the client must refuse to go on (the
 * suite allows a failing exit there, and its checks judge whether the refusal came in time).
 */
const AUTH_SCENARIOS: [scenario: string, specVersion: '2026-07-28' | undefined, expected: 'ok' | RegExp][] = [
  ['auth/metadata-default', '2026-07-28', 'ok'],
  ['auth/metadata-var1', '2026-07-28', 'ok'],
  ['auth/metadata-var2', '2026-07-28', 'ok'],
  ['auth/metadata-var3', '2026-07-28', 'ok'],
  ['auth/basic-cimd', '2026-07-28', 'ok'],
  ['auth/scope-from-www-authenticate', '2026-07-28', 'ok'],
  ['auth/scope-from-scopes-supported', '2026-07-28', 'ok'],
  ['auth/scope-omitted-when-undefined', '2026-07-28', 'ok'],
  ['auth/scope-step-up', '2026-07-28', 'ok'],
  ['auth/scope-retry-limit', '2026-07-28', /still answers 403 insufficient_scope after 3 authorization requests/],
  ['auth/token-endpoint-auth-basic', '2026-07-28', 'ok'],
  ['auth/token-endpoint-auth-post', '2026-07-28', 'ok'],
  ['auth/token-endpoint-auth-none', '2026-07-28', 'ok'],
  ['auth/pre-registration', '2026-07-28', 'ok'],
  ['auth/resource-mismatch', '2026-07-28', /authorization failed at resource-metadata: .*evil\.example\.com/],
  ['auth/offline-access-scope', '2026-07-28', 'ok'],
  ['auth/offline-access-not-supported', '2026-07-28', 'ok'],
  ['auth/authorization-server-migration', '2026-07-28', 'ok'],
  ['auth/iss-supported', '2026-07-28', 'ok'],
  ['auth/iss-not-advertised', '2026-07-28', 'ok'],
  ['auth/iss-supported-missing', '2026-07-28', /authorization failed at callback: .*"iss"/],
  ['auth/iss-wrong-issuer', '2026-07-28', /authorization failed at callback: .*"iss"/],
  ['auth/iss-unexpected', '2026-07-28', /authorization failed at callback: .*"iss"/],
  ['auth/iss-normalized', '2026-07-28', /authorization failed at callback: .*"iss"/],
  ['auth/metadata-issuer-mismatch', '2026-07-28', /authorization failed at authorization-server-metadata: .*attacker\.example\.com/],
  ['auth/client-credentials-basic', undefined, 'ok'],
];

interface Check {
  id: string;
  name: string;
  status: string;
  errorMessage?: string;
}

/**
 * Scenarios run side by side (each has its own servers on free ports and its own output folder),
 * a few at a time: every one is two Node processes, and the runner gives the client a fixed time.
 */
const PARALLEL = 3;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(run: () => Promise<T>): Promise<T> {
  // A finished scenario hands its slot straight to the next one waiting.
  if (running >= PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await run();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** The runner's deadline for the client process (its default, 30 s, is tight on a loaded machine). */
const CLIENT_TIMEOUT_MS = 120_000;
/** A test waits for a slot, then for the runner: bounded by the runner's own client deadline. */
const TEST_TIMEOUT_MS = 900_000;

function runScenario(scenario: string, specVersion: string | undefined) {
  return slot(() => runScenarioNow(scenario, specVersion));
}

async function runScenarioNow(scenario: string, specVersion: string | undefined): Promise<{ code: number; log: string; checks: Check[]; clientOut: string }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-conf-client-'));
  const version = specVersion ? ['--spec-version', specVersion] : [];
  const child = spawn(
    process.execPath,
    ['--import', SHIM, RUNNER, 'client', '--command', CLIENT, '--scenario', scenario, ...version, '--timeout', String(CLIENT_TIMEOUT_MS), '-o', out],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  // auth/NAME results land in <out>/auth/NAME-<time>.
  const [group, name] = scenario.includes('/') ? scenario.split('/') : ['', scenario];
  const base = path.join(out, group ?? '');
  const found = fs.existsSync(base) ? fs.readdirSync(base).find((d) => d.startsWith(`${name}-`)) : undefined;
  const dir = found ? path.join(group ?? '', found) : undefined;
  const checks = dir ? (JSON.parse(fs.readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as Check[]) : [];
  const clientOut = dir ? ['stdout.txt', 'stderr.txt'].map((f) => fs.readFileSync(path.join(out, dir, f), 'utf8')).join('\n') : '';
  fs.rmSync(out, { recursive: true, force: true });
  return { code, log, checks, clientOut };
}

/** Every check passed (a WARNING counts as a failure) and at least one succeeded. */
function expectAllPassed(run: Awaited<ReturnType<typeof runScenario>>) {
  expect(run.checks.length, run.log.slice(-3000)).toBeGreaterThan(0);
  const bad = run.checks
    .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
    .map((c) => `${c.status} ${c.id} ${c.name}: ${c.errorMessage ?? (c as { description?: string }).description ?? ''}`);
  expect(bad, `${run.clientOut}\n${run.log.slice(-3000)}`).toEqual([]);
  expect(run.checks.some((c) => c.status === 'SUCCESS')).toBe(true);
}

describe.concurrent('conformance client scenarios through mcp-loupe conformance-client', () => {
  it.each(SCENARIOS)(
    '%s (%s) passes',
    async (scenario, specVersion) => {
      const run = await runScenario(scenario, specVersion);
      expectAllPassed(run);
      // The era comes from the server's answers (a 2025-era server gets initialize, never a guess).
      expect(run.clientOut).toContain(
        specVersion === '2026-07-28' ? `${scenario}: done (modern era, protocol 2026-07-28)` : `${scenario}: done (legacy era, protocol 2025-`,
      );
      expect(run.code, run.log.slice(-3000)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe.concurrent('conformance auth/* client scenarios through mcp-loupe conformance-client', () => {
  it.each(AUTH_SCENARIOS)(
    '%s passes',
    async (scenario, specVersion, expected) => {
      const run = await runScenario(scenario, specVersion);
      expectAllPassed(run);
      if (expected === 'ok') {
        expect(run.clientOut).toContain(specVersion ? `${scenario}: done (modern era, protocol 2026-07-28)` : `${scenario}: done (legacy era, protocol 2025-`);
        expect(run.code, run.log.slice(-3000)).toBe(0);
      } else {
        // The client refused, said why, and never claimed success.
        expect(run.clientOut).toMatch(expected);
        expect(run.clientOut).not.toContain(`${scenario}: done`);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
