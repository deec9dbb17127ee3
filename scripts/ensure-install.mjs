// Installs the dependencies when node_modules is missing or does not match package-lock.json, so
// `npm start` and `npm test` work on a fresh clone (and after a pull that changed the lock file).
// Plain ESM with node built-ins only: it runs before anything is installed, so neither it nor a
// script importing it may import a dependency at the top level.
// Run directly (`node scripts/ensure-install.mjs`), it installs if needed and exits.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why node_modules cannot be used as it is, or undefined when it matches the lock file: every
 * package the lock file lists is installed at the locked version. Packages marked optional may
 * be missing (npm skips those built for other platforms).
 */
export function installProblem(root = repoRoot) {
  if (!fs.existsSync(path.join(root, 'node_modules'))) return 'node_modules is missing';
  const lock = readJson(path.join(root, 'package-lock.json'));
  if (!lock?.packages) return undefined;
  for (const [where, locked] of Object.entries(lock.packages)) {
    if (where === '' || locked.link || !where.startsWith('node_modules/')) continue;
    const installed = readJson(path.join(root, where, 'package.json'));
    if (!installed) {
      if (locked.optional || locked.devOptional) continue;
      return `${where.slice('node_modules/'.length)} is not installed`;
    }
    if (locked.version && installed.version !== locked.version)
      return `${where.slice('node_modules/'.length)} is ${installed.version}, package-lock.json wants ${locked.version}`;
  }
  return undefined;
}

/**
 * The environment npm installs with. better-sqlite3 compiles from source when no prebuilt
 * binary can be downloaded (offline, or a Node without one): point node-gyp at the system's
 * Node headers, instead of downloading those too, when they are this Node's major version (a
 * binary built against another major's headers would not load).
 */
export function installEnv(env = process.env, headers = '/usr/include/node/node_version.h') {
  const out = { ...env, NEXT_TELEMETRY_DISABLED: '1' };
  const text = out.npm_config_nodedir ? undefined : fs.existsSync(headers) ? fs.readFileSync(headers, 'utf8') : undefined;
  const major = text && /#define NODE_MAJOR_VERSION (\d+)/.exec(text)?.[1];
  if (major && major === process.versions.node.split('.')[0]) out.npm_config_nodedir = path.resolve(path.dirname(headers), '..', '..');
  return out;
}

/**
 * Install (npm ci, or npm install without a lock file) when installProblem finds one. `say`
 * reports what happens; returns false when npm failed.
 */
export function ensureInstalled({ root = repoRoot, say = (m) => process.stdout.write(`${m}\n`) } = {}) {
  const problem = installProblem(root);
  if (!problem) return true;
  const args = fs.existsSync(path.join(root, 'package-lock.json')) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  say(`installing dependencies (${problem}): npm ${args.join(' ')}…`);
  const started = Date.now();
  // Under `npm start`/`npm test`, npm names its own CLI: run that one, whatever is on PATH.
  const npmCli = process.env.npm_execpath;
  const viaNode = npmCli && /npm-cli\.[cm]?js$/.test(npmCli);
  const r = spawnSync(viaNode ? process.execPath : 'npm', viaNode ? [npmCli, ...args] : args, {
    cwd: root,
    stdio: 'inherit',
    env: installEnv(),
    shell: !viaNode && process.platform === 'win32',
  });
  if (r.status !== 0) {
    say(`npm ${args[0]} failed (${r.error?.message ?? `exit code ${r.status ?? r.signal}`})`);
    return false;
  }
  say(`installed dependencies in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(ensureInstalled({ say: (m) => process.stdout.write(`[ensure-install] ${m}\n`) }) ? 0 : 1);
}
