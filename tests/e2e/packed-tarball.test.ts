import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { freePort, ROOT, shellEnv, startCliOpen, startSdkServer, type Started } from '../helpers/processes';
import { httpTarget } from '../integration/http-target';
import { launchChromium } from './browser';

/**
 * Loupe as a new user gets it, once per `npm test` (the slow test of the e2e project): `npm
 * pack` (prepack builds the CLI, the library entries, their declarations and the pages), then
 * plain `npm install <tarball>` in an empty folder, run from a shell there (none of the outer
 * npm's variables). Then, in that folder:
 * - `npx mcp-loupe --no-open --port P`: the printed URL opens in Chromium connected to the demo,
 *   and a tool call shows its result; `--url <SDK v2 server>` and `-- node <stdio server>` (the
 *   installed `mcp-loupe mock demo --stdio`, and an SDK v2 stdio server) open connected to those
 *   servers, whose tools answer;
 * - `mcp-loupe/engine` and `mcp-loupe/msw` serve the official SDK v2 client (with msw and the
 *   client added to the folder), and their declarations type-check under `nodenext`;
 * - with better-sqlite3's binding deleted, `npx mcp-loupe` says once what it fell back to (Node 20
 *   has no node:sqlite: memory) and still serves tasks; with the package gone, it says to install it.
 *
 * better-sqlite3's install script first looks for a prebuilt binary (prebuild-install), which a
 * connected user downloads from GitHub in a second; this machine is offline, so without one it
 * compiles SQLite from source (minutes). When the repository's own install has a binding for
 * this Node, it is offered to prebuild-install as a local prebuild (its documented
 * `npm_config_better_sqlite3_local_prebuilds`), the download's stand-in; otherwise the install
 * compiles. Either way the install script runs, unflagged.
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-packed-'));
const app = path.join(work, 'app');
const dataDir = path.join(work, 'data');
const timings: Record<string, number> = {};
const env = shellEnv();

function step<T>(name: string, fn: () => T): T {
  const started = Date.now();
  try {
    return fn();
  } finally {
    timings[name] = Date.now() - started;
  }
}
const run = (cmd: string, args: string[], cwd: string, timeout: number, extra: NodeJS.ProcessEnv = {}) =>
  execFileSync(cmd, args, { cwd, timeout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...extra } });

/** The repository's compiled better-sqlite3 as the tarball prebuild-install would download, or undefined. */
function localPrebuild(): string | undefined {
  const binding = path.join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  if (!fs.existsSync(binding) || (process.platform === 'linux' && !glibc)) return undefined;
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string };
  const stage = path.join(work, 'prebuild-stage');
  fs.mkdirSync(path.join(stage, 'build/Release'), { recursive: true });
  fs.copyFileSync(binding, path.join(stage, 'build/Release/better_sqlite3.node'));
  const dir = path.join(work, 'prebuilds');
  fs.mkdirSync(dir);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  run('tar', ['czf', path.join(dir, name), '-C', stage, 'build'], work, 30_000);
  return dir;
}

/** `npx mcp-loupe --no-open args` from the install folder, as its user's shell runs it. */
const npxLoupe = (args: string[], extra: Record<string, string> = {}) =>
  startCliOpen(['--data-dir', dataDir, ...args], { CI: '1', ...extra }, { command: ['npx', 'mcp-loupe'], cwd: app, baseEnv: env });

let browser: Browser;
let sdk: Awaited<ReturnType<typeof startSdkServer>> | undefined;
let loupe: Started | undefined;
let tarball = '';

const connected = (page: Page) => page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
const toolNames = (page: Page) => page.$$eval('[data-testid="tools-table"] tbody tr[data-tool]', (rows) => rows.map((r) => r.getAttribute('data-tool')));

/** Open `url` in a fresh context, wait for the connection, fill the tool's form and call it; the result's text. */
async function openAndCall(url: string, tool: string, fields: Record<string, string>): Promise<{ page: Page; result: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await connected(page);
  await page.click(`[data-tool="${tool}"] [data-testid="select-tool"]`);
  const form = `[data-testid="tool-call-form"][data-tool="${tool}"]`;
  for (const [name, value] of Object.entries(fields)) await page.fill(`${form} input[name="${name}"]`, value);
  await page.click(`${form} [data-testid="call-tool"]`);
  const result = await page.waitForSelector(`${form} [data-testid="tool-result"]`, { timeout: 15_000 });
  expect(await result.getAttribute('data-outcome')).toBe('complete');
  expect(await result.getAttribute('data-is-error')).toBe('false');
  return { page, result: (await result.textContent()) ?? '' };
}

beforeAll(async () => {
  const packDir = path.join(work, 'pack');
  fs.mkdirSync(packDir);
  fs.mkdirSync(app);
  step('npm pack (prepack builds)', () => run('npm', ['pack', '--pack-destination', packDir, '--silent'], ROOT, 240_000));
  tarball = path.join(packDir, fs.readdirSync(packDir).find((f) => f.endsWith('.tgz')) ?? 'missing.tgz');
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }));
  const prebuilds = localPrebuild();
  const extra: NodeJS.ProcessEnv = prebuilds ? { npm_config_better_sqlite3_local_prebuilds: prebuilds } : {};
  step(`npm install <tarball> (${prebuilds ? 'local prebuild' : 'compiles better-sqlite3'})`, () =>
    run('npm', ['install', tarball], app, 600_000, { npm_config_prefer_offline: 'true', ...extra }),
  );
  [sdk, browser] = await Promise.all([startSdkServer(), launchChromium()]);
}, 900_000);
afterEach(async () => {
  await loupe?.stop();
  loupe = undefined;
});
afterAll(async () => {
  console.log(`packed-tarball timings (ms): ${JSON.stringify(timings)}`);
  await browser?.close();
  await sdk?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball, installed with plain npm install', () => {
  it('carries the pages, the CLI, the library entries and their declarations, and installs only what it loads', () => {
    const listing = run('tar', ['tzf', tarball], work, 30_000);
    const shipped = ['dist/app/index.html', 'dist/cli.mjs', 'bin/mcp-loupe.mjs', 'dist/engine.mjs', 'dist/msw.mjs', 'dist/engine.d.ts', 'dist/msw.d.ts'];
    // The editor hint in the README points at public/scenario.schema.json; examples/ documents the format.
    const docs = ['public/scenario.schema.json', 'examples/task-script.yaml', 'examples/mcp-app.yaml', 'examples/mcp-app-view.html', 'LICENSE', 'CHANGELOG.md'];
    for (const f of [...shipped, ...docs]) expect(listing).toContain(`package/${f}`);
    expect(listing).not.toContain('package/lib/');
    expect(listing).not.toContain('package/dist/app-server.mjs');
    // Only what the shipped code loads comes along: no Next, React, editor or CLI-parser packages.
    for (const name of ['next', 'react', 'react-dom', '@codemirror', 'commander', 'yaml'])
      expect(fs.existsSync(path.join(app, 'node_modules', name)), name).toBe(false);
    expect(fs.existsSync(path.join(app, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    // Declarations describe types: none carries a bundled document as a literal type.
    const types = path.join(app, 'node_modules/mcp-loupe/dist/types');
    const large = fs
      .readdirSync(types, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.d.ts') && fs.statSync(path.join(types, f)).size > 64 * 1024);
    expect(large).toEqual([]);
    // The README's "try one" for an installed package: the examples' path inside node_modules.
    const example = 'node_modules/mcp-loupe/examples/task-script.yaml';
    expect(run(process.execPath, ['node_modules/mcp-loupe/bin/mcp-loupe.mjs', 'validate', example], app, 60_000)).toContain(`${example}: valid scenario`);
  });

  it('npx mcp-loupe --port P: the printed URL opens the inspector connected to the demo, and a tool call answers', async () => {
    const port = await freePort();
    loupe = await npxLoupe(['--port', String(port)]);
    expect(loupe.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[\\w-]+$`));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(loupe.output()).not.toContain('SQLite is unavailable');
    const { page, result } = await openAndCall(loupe.url, 'echo', { text: 'hello from the tarball' });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('loupe-demo');
    expect(result).toContain('hello from the tarball');
    await page.context().close();
  });

  it('npx mcp-loupe --url <SDK v2 server>: opens connected to it through the proxy, and its tool answers', async () => {
    loupe = await npxLoupe(['--port', '0', '--url', sdk!.url]);
    const { page, result } = await openAndCall(loupe.url, 'word_count', { text: 'one two three' });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('sdk-fixture');
    expect(await toolNames(page)).toEqual(['word_count']);
    expect(result).toContain('3 words');
    await page.context().close();
  });

  it('npx mcp-loupe -- node <stdio server>: opens connected to the installed mcp-loupe mock over stdio', async () => {
    const bin = path.join(app, 'node_modules/mcp-loupe/bin/mcp-loupe.mjs');
    loupe = await npxLoupe(['--port', '0', '--', 'node', bin, 'mock', 'demo', '--stdio', '--data-dir', path.join(work, 'stdio-data')]);
    const { page, result } = await openAndCall(loupe.url, 'echo', { text: 'over stdio' });
    expect(await page.inputValue('[data-testid="mode-select"]')).toBe('stdio');
    expect(await page.textContent('[data-testid="server-info"]')).toContain('loupe-demo');
    expect(result).toContain('over stdio');
    await page.context().close();
  });

  it('npx mcp-loupe -- node <SDK v2 stdio server>: opens connected to it, and its tool answers', async () => {
    loupe = await npxLoupe(['--port', '0', '--', 'node', path.join(ROOT, 'tests/e2e/fixtures/sdk-stdio-server.mjs')]);
    const { page, result } = await openAndCall(loupe.url, 'word_count', { text: 'four words over stdio' });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('sdk-stdio-fixture');
    expect(result).toContain('4 words');
    await page.context().close();
  });

  it('serves mcp-loupe/msw and mcp-loupe/engine to @modelcontextprotocol/client@2.4.0 from the same folder, typed', () => {
    fs.writeFileSync(path.join(app, 'polyfills.mjs'), POLYFILLS);
    fs.writeFileSync(path.join(app, 'consumer.mjs'), CONSUMER);
    fs.writeFileSync(path.join(app, 'types-check.ts'), TYPES);
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    step('npm install msw, SDK client', () => run('npm', ['install', '--prefer-offline', 'msw@3.0.5', '@modelcontextprotocol/client@2.4.0'], app, 300_000));
    // The library entries import neither node:* nor better-sqlite3, so they run in browsers too.
    const installed = path.join(app, 'node_modules', 'mcp-loupe', 'dist');
    const entries = fs
      .readdirSync(installed, { recursive: true })
      .map(String)
      .filter((f) => /^(engine|msw|chunks\/.*)\.mjs$/.test(f));
    expect(entries).toEqual(expect.arrayContaining(['engine.mjs', 'msw.mjs']));
    for (const f of entries) expect(fs.readFileSync(path.join(installed, f), 'utf8'), f).not.toMatch(/["'](node:[a-z_/]+|better-sqlite3)["']/);

    const out = step('node consumer.mjs', () => run(process.execPath, ['--import', './polyfills.mjs', 'consumer.mjs'], app, 60_000));
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
    expect(result.server).toMatchObject({ name: 'loupe-demo' });
    expect(result.tools).toEqual(expect.arrayContaining(['charge', 'delete_note', 'echo', 'generate_report', 'search_notes', 'workspace_read']));
    expect(result.echo).toMatchObject({ content: [{ type: 'text', text: 'from the tarball' }] });
    expect(result.journal).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    expect(result.grades).toHaveLength(9);
    expect(result.grades.some((g: string) => g.endsWith(':fail'))).toBe(false);
    expect(result.discover).toContain('2026-07-28');
    expect(result.sqliteLoaded).toBe(false);
    step('tsc (nodenext) against the declarations', () =>
      run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app, 60_000),
    );
  });

  it('without the better-sqlite3 binding (or package): npx mcp-loupe says once what it fell back to and how to fix it, and serves tasks', async () => {
    // What an install that skipped build scripts (pnpm 10's default, --ignore-scripts) leaves.
    fs.rmSync(path.join(app, 'node_modules/better-sqlite3/build'), { recursive: true, force: true });
    loupe = await npxLoupe(['--port', '0']);
    const out = loupe.output();
    expect(out.split('SQLite is unavailable').length - 1).toBe(1);
    expect(out).toMatch(/kept in memory and will not survive a restart/);
    expect(out).toMatch(/has no node:sqlite/);
    expect(out).toMatch(/npm rebuild better-sqlite3/);
    const target = httpTarget(`http://127.0.0.1:${loupe.port}/mcp`);
    const created = await callTool(target, 'generate_report', { size: 'small' }, target.opts({ caps: CAPS.formAndTasks }));
    const { taskId } = created.body.result as { taskId: string };
    expect(taskId).toEqual(expect.any(String));
    const got = await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks }));
    expect(got.body.result).toMatchObject({ taskId, status: expect.any(String) });
    expect(loupe.output().split('SQLite is unavailable').length - 1).toBe(1);

    // npm drops an optional dependency whose build failed (or under --omit=optional): no package at
    // all, which a rebuild cannot fix, so the advice is to install it.
    await loupe.stop();
    fs.rmSync(path.join(app, 'node_modules/better-sqlite3'), { recursive: true, force: true });
    loupe = await npxLoupe(['--port', '0']);
    expect(loupe.output()).toMatch(/better-sqlite3 did not load \(Cannot find module 'better-sqlite3'/);
    expect(loupe.output()).toMatch(/Fix: run `npm install better-sqlite3` where mcp-loupe is installed/);
    expect(loupe.output()).not.toMatch(/npm rebuild/);
    expect((await fetch(`http://127.0.0.1:${loupe.port}/healthz`)).status).toBe(200);
  });
});

/** msw 3 expects Node 22 built-ins; a consumer on Node 20 loads these first (node --import). */
const POLYFILLS = `
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function () { let resolve, reject; const promise = new Promise((a, b) => { resolve = a; reject = b; }); return { promise, resolve, reject }; };
}
const extra = {
  intersection(o) { return new Set([...this].filter((v) => o.has(v))); },
  union(o) { return new Set([...this, ...o]); },
  difference(o) { return new Set([...this].filter((v) => !o.has(v))); },
  symmetricDifference(o) { return new Set([...[...this].filter((v) => !o.has(v)), ...[...o].filter((v) => !this.has(v))]); },
  isSubsetOf(o) { return [...this].every((v) => o.has(v)); },
  isSupersetOf(o) { return [...o].every((v) => this.has(v)); },
  isDisjointFrom(o) { return [...this].every((v) => !o.has(v)); },
};
for (const [k, f] of Object.entries(extra)) if (typeof Set.prototype[k] !== 'function') Object.defineProperty(Set.prototype, k, { value: f, configurable: true, writable: true });
if (typeof globalThis.EventSource === 'undefined') globalThis.EventSource = class { constructor() { throw new Error('EventSource is not available on Node 20'); } };
`;

const CONSUMER = `
import { setupServer } from 'msw/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMswHandlers } from 'mcp-loupe/msw';
import { createScenarioHandler } from 'mcp-loupe/engine';

const { handlers, engine } = createMswHandlers('demo');
const server = setupServer(...handlers);
server.listen({ onUnhandledFrame: 'error' });
const client = new Client({ name: 'scratch', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp')));
const tools = (await client.listTools()).tools.map((t) => t.name);
const echo = await client.callTool({ name: 'echo', arguments: { text: 'from the tarball' } });
const card = engine.reportCard();
const serverInfo = client.getServerVersion();
await client.close();
server.close();

// The plain fetch face, without MSW.
const direct = createScenarioHandler('demo');
const res = await direct.fetch(new Request('http://127.0.0.1/mcp', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
}));
const discover = await res.json();
console.log(JSON.stringify({
  server: serverInfo,
  tools,
  echo,
  journal: engine.journal.entries().map((e) => e.method),
  grades: card.grades.map((g) => g.id + ':' + g.status),
  discover: discover.result.supportedVersions,
  sqliteLoaded: Object.keys((await import('node:module')).createRequire(import.meta.url).cache ?? {}).some((k) => k.includes('better-sqlite3')),
}));
engine.close();
direct.close();
`;

const TYPES = `
import { createMswHandlers, type MswHandlers } from 'mcp-loupe/msw';
import { createScenarioHandler, type ReportCard, type JournalEntry } from 'mcp-loupe/engine';

const msw: MswHandlers = createMswHandlers('demo', { url: 'http://localhost/mcp' });
const card: ReportCard = msw.engine.reportCard();
const status: 'pass' | 'fail' | 'not-observed' = card.grades[0].status;
const entries: JournalEntry[] = createScenarioHandler({ id: 'x', server: { name: 'x', version: '1' } }).journal.entries();
// These only fail when the declarations resolved (an unresolved import would make them 'any').
// @ts-expect-error a grade status is a string union, not a number
const wrong: number = card.grades[0].status;
// @ts-expect-error fetch takes a Request
void msw.engine.fetch(42);
export { status, entries, wrong };
`;

const TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2023', 'dom'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  files: ['types-check.ts'],
};
