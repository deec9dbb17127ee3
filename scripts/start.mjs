// `npm start`: make a fresh clone runnable (dependencies, CLI bundle, the pages' static export),
// then serve Loupe on loopback: scripts/serve.mjs runs `mcp-loupe open --no-open` (the app server,
// which serves Loupe's routes and the exported pages; Next is not loaded), which prints the URL
// carrying this launch's access token. Arguments go to that command (`npm start -- --url URL`).
// Plain ESM with no dependencies, because it must run before `npm install` has.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled } from './ensure-install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function fail(message) {
  process.stderr.write(`loupe: ${message}\n`);
  process.exit(1);
}

function flag(name) {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(name.length + 1) : args[i + 1];
}

/** Run a command in the project root with inherited output; exit when it fails. */
function run(what, command, args, env = process.env) {
  process.stdout.write(`loupe: ${what}…\n`);
  const t0 = Date.now();
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, shell: process.platform === 'win32' && command === 'npm' });
  if (r.status !== 0) fail(`${what} failed (${r.error?.message ?? `exit code ${r.status ?? r.signal}`})`);
  process.stdout.write(`loupe: ${what} took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

/** Whether any file under `entries` was modified after `since` (ms). */
function newerThan(since, entries) {
  const stack = entries.map((e) => path.join(root, e));
  while (stack.length) {
    const p = stack.pop();
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) if (name !== 'node_modules' && !name.startsWith('.')) stack.push(path.join(p, name));
    } else if (st.mtimeMs > since) {
      return path.relative(root, p);
    }
  }
  return undefined;
}

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\])$/i;
const host = flag('--host') ?? process.env.HOST ?? '127.0.0.1';
const portText = flag('--port') ?? process.env.PORT;
const allowRemote = process.argv.includes('--allow-remote') || process.env.LOUPE_ALLOW_REMOTE === '1';
// The same rules as `mcp-loupe open`, checked here too so a mistake stops before any build.
if (portText !== undefined && portText !== '' && !/^\d+$/.test(portText.trim())) fail(`PORT must be an integer from 0 to 65535, got "${portText}"`);
if (portText && Number(portText) > 65535) fail(`PORT must be an integer from 0 to 65535, got "${portText}"`);
if (!LOOPBACK.test(host) && !allowRemote) {
  fail(
    `refusing to listen on ${host}: Loupe serves a mock server and a token-gated control API, so it binds loopback only. ` +
      'Pass --allow-remote (or set LOUPE_ALLOW_REMOTE=1) if you really want that, and list the names clients use in LOUPE_ALLOWED_HOSTS.',
  );
}

// --store memory|sqlite (or LOUPE_STORE): where the app server keeps tasks; see lib/server/open-stores.ts.
const store = flag('--store') ?? process.env.LOUPE_STORE;
if (store !== undefined && !['memory', 'sqlite', 'auto', ''].includes(store)) fail(`--store must be memory or sqlite (or auto, the default), got "${store}"`);

const buildEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

// (a) Dependencies, when node_modules is missing or does not match package-lock.json.
if (!ensureInstalled({ root, say: (m) => process.stdout.write(`loupe: ${m}\n`) })) fail('installing the dependencies failed');

// (b) The CLI bundle and the app server's routes, when missing or older than lib/.
const appServer = path.join(root, 'dist', 'app-server.mjs');
const bundleMissing = !fs.existsSync(path.join(root, 'dist', 'cli.mjs')) || !fs.existsSync(appServer);
if (bundleMissing || newerThan(fs.statSync(appServer).mtimeMs, ['lib']))
  run('building the CLI bundle and the app server', process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], buildEnv);

// (b2) The app views of the built-in scenarios, when missing or older than their sources.
const views = path.join(root, 'lib', 'scenario', 'builtins', 'views');
const generated = path.join(root, 'lib', 'scenario', 'builtins', 'generated', 'notes-timeline-html.ts');
if (!fs.existsSync(generated) || newerThan(fs.statSync(generated).mtimeMs, [path.relative(root, views)])) {
  run('building the app views', process.execPath, [path.join(root, 'scripts', 'build-apps.mjs')], buildEnv);
}

// (c) The pages (next build: a static export into dist/app), when missing or older than a source file.
const exportedIndex = path.join(root, 'dist', 'app', 'index.html');
const builtAt = fs.existsSync(exportedIndex) ? fs.statSync(exportedIndex).mtimeMs : undefined;
const changed = builtAt === undefined ? undefined : newerThan(builtAt, ['app', 'components', 'lib', 'public', 'next.config.ts', 'postcss.config.mjs']);
if (builtAt === undefined || changed) {
  run(
    builtAt === undefined ? 'building the web app (next build)' : `rebuilding the web app (${changed} changed)`,
    process.execPath,
    [nextBin, 'build'],
    buildEnv,
  );
}

// (e) Serve: `mcp-loupe open --no-open` (scripts/serve.mjs) prints the URL with this launch's token.
const child = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: buildEnv,
});

let stopping = false;
function stop(signal) {
  if (stopping) {
    child.kill('SIGKILL');
    return;
  }
  stopping = true;
  child.kill(signal);
  setTimeout(() => child.kill('SIGKILL'), 5000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
child.on('exit', (code, signal) => {
  if (!stopping && code !== 0) process.stderr.write(`loupe: the server exited (${signal ?? `code ${code}`})\n`);
  process.exit(code ?? (stopping ? 0 : 1));
});
