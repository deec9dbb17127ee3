import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes';

/**
 * `npm test` on a fresh clone: its first step installs the dependencies (scripts/ensure-install.mjs)
 * before anything imports one. The clone is of the committed HEAD, without node_modules; only
 * that first step runs there (`--ensure-only`), not the suites. It is the slow test of the
 * integration project (an `npm ci` that compiles better-sqlite3); npm's cache is this machine's
 * own, read without revalidating, so no package is downloaded twice.
 */

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('a fresh clone', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fresh-clone-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // Under an `npm test` that itself began in a fresh clone (CI), its first step was this very
  // install, checked by every suite after it; doing it again in a second clone proves nothing more.
  const provenByThisRun = process.env.LOUPE_TEST_FRESH_INSTALL === '1';
  it.skipIf(provenByThisRun)('installs its dependencies as the first step of npm test', { timeout: 900_000 }, async () => {
    const clone = path.join(dir, 'loupe');
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    expect(cloned.status, cloned.stderr).toBe(0);
    expect(fs.existsSync(path.join(clone, 'node_modules'))).toBe(false);
    // As a shell in the clone runs it: none of the outer `npm test`'s npm_* variables, which name
    // this checkout (its prefix, its package.json); the same npm cache, read without revalidating.
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'INIT_CWD'));
    const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
    if (cache) env.npm_config_cache = cache;
    env.npm_config_prefer_offline = 'true';
    const first = await run(process.execPath, ['scripts/test.mjs', '--ensure-only'], clone, env);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('installing dependencies (node_modules is missing): npm ci');
    for (const bin of ['vitest', 'next', 'biome', 'tsc']) expect(fs.existsSync(path.join(clone, 'node_modules', '.bin', bin)), bin).toBe(true);
    // The native module was built for this Node: it opens a database.
    const sqlite = spawnSync(
      process.execPath,
      ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1 as one').get().one === 1 || process.exit(1)"],
      {
        cwd: clone,
        encoding: 'utf8',
      },
    );
    expect(sqlite.status, sqlite.stderr).toBe(0);
    // Nothing to do the second time.
    const second = await run(process.execPath, ['scripts/test.mjs', '--ensure-only'], clone, env);
    expect(second.code, second.output).toBe(0);
    expect(second.output).not.toContain('installing');
  });
});
