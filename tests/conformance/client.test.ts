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

/**
 * Every non-auth client scenario `conformance list --client --spec-version V` names for each
 * era (alpha.12): the auth/* scenarios need the OAuth flows, a later issue.
 */
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

interface Check {
  id: string;
  name: string;
  status: string;
  errorMessage?: string;
}

async function runScenario(scenario: string, specVersion: string): Promise<{ code: number; log: string; checks: Check[]; clientOut: string }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-conf-client-'));
  const child = spawn(
    process.execPath,
    ['--import', SHIM, RUNNER, 'client', '--command', CLIENT, '--scenario', scenario, '--spec-version', specVersion, '-o', out],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  const dir = fs.readdirSync(out).find((d) => d.startsWith(`${scenario}-`));
  const checks = dir ? (JSON.parse(fs.readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as Check[]) : [];
  const clientOut = dir ? ['stdout.txt', 'stderr.txt'].map((f) => fs.readFileSync(path.join(out, dir, f), 'utf8')).join('\n') : '';
  fs.rmSync(out, { recursive: true, force: true });
  return { code, log, checks, clientOut };
}

describe('conformance client scenarios through mcp-loupe conformance-client', () => {
  it.each(SCENARIOS)('%s (%s) passes', async (scenario, specVersion) => {
    const run = await runScenario(scenario, specVersion);
    expect(run.checks.length, run.log.slice(-3000)).toBeGreaterThan(0);
    const bad = run.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.status} ${c.id} ${c.name}: ${c.errorMessage ?? ''}`);
    expect(bad, `${run.clientOut}\n${run.log.slice(-3000)}`).toEqual([]);
    expect(run.checks.some((c) => c.status === 'SUCCESS')).toBe(true);
    // The era comes from the server's answers (a 2025-era server gets initialize, never a guess).
    expect(run.clientOut).toContain(
      specVersion === '2026-07-28' ? `${scenario}: done (modern era, protocol 2026-07-28)` : `${scenario}: done (legacy era, protocol 2025-`,
    );
    expect(run.code, run.log.slice(-3000)).toBe(0);
  });
});
