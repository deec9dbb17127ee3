// `npm test`: installs the dependencies when node_modules is missing or stale, finds (or
// installs) Chromium, runs the lint step, builds what the suites run against, then runs the
// unit, integration/conformance and browser e2e projects in that order (or the projects named
// as arguments). `--ensure-only` stops after the dependencies.
// Node built-ins only at the top level: nothing may load a dependency before it is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, installProblem } from './ensure-install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (m) => process.stdout.write(`[npm test] ${m}\n`);

// A checkout without node_modules is a fresh clone (CI's .ci/run is one): this run's own first
// step is then what tests/integration/fresh-clone.test.ts proves in a clone of its own, so the
// suites are told and that test (an npm ci compiling better-sqlite3, about 100 s) is not repeated.
const freshInstall = installProblem(root) === 'node_modules is missing';
if (!ensureInstalled({ root, say })) process.exit(1);
if (process.argv.includes('--ensure-only')) process.exit(0);

function findChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ];
  return candidates.find((p) => p && existsSync(p));
}

let chromium = findChromium();
if (!chromium) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    say("Chromium not found: installing Debian's chromium with apt-get (needed by the browser tests)");
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    chromium = findChromium();
  }
  if (!chromium) {
    process.stderr.write(
      '[npm test] Chromium is required for the browser tests. Install it with:\n  sudo apt-get install -y chromium\nor set CHROMIUM_PATH to a Chromium or Chrome binary.\n',
    );
    process.exit(1);
  }
}
say(`Chromium: ${chromium}`);

const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium, ...env } });
  return r.status ?? 1;
};

function newestMtime(dir) {
  let newest = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  if (existsSync(dir)) walk(dir);
  return newest;
}

// Lint first: a formatting slip or a boundary crossed fails in seconds, before any suite runs.
say('lint: biome, room boundaries, unused exports');
if (run(process.execPath, ['scripts/lint.mjs']) !== 0) process.exit(1);
if (run(process.execPath, ['scripts/build-cli.mjs']) !== 0) process.exit(1);
// The pages' static export (dist/app), which the app server under test serves.
const exported = path.join(root, 'dist', 'app', 'index.html');
const sources = Math.max(...['app', 'components', 'lib', 'public'].map((d) => newestMtime(path.join(root, d))));
if (!existsSync(exported) || statSync(exported).mtimeMs < sources) {
  say('building the pages (next build: static export into dist/app)');
  if (run(process.execPath, ['node_modules/next/dist/bin/next', 'build']) !== 0) process.exit(1);
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const projects = only.length ? only : ['unit', 'integration', 'e2e'];
let failed = 0;
for (const project of projects) {
  say(`vitest project: ${project}`);
  const code = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', project], freshInstall ? { LOUPE_TEST_FRESH_INSTALL: '1' } : {});
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
