import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { httpTarget } from './http-target';

/**
 * The library as another project gets it: `npm pack` (prepack builds dist/ and the type
 * declarations), install the tarball into a scratch project next to msw and the official
 * SDK client, then there an MSW `setupServer` serves the demo scenario to the SDK client pinned
 * to 2026-07-28. Scripts are not run on install (better-sqlite3 is not compiled): the library
 * entries must not need it. A type check with `moduleResolution: nodenext` proves the
 * declarations resolve.
 */

const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-packed-'));
afterAll(() => {
  console.log(`packed-library timings (ms): ${JSON.stringify(timings)}`);
  fs.rmSync(work, { recursive: true, force: true });
});

const timings: Record<string, number> = {};
function step<T>(name: string, fn: () => T): T {
  const started = Date.now();
  try {
    return fn();
  } finally {
    timings[name] = Date.now() - started;
  }
}
const run = (cmd: string, args: string[], cwd: string, timeout: number) =>
  execFileSync(cmd, args, { cwd, timeout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

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

describe('packed library (npm pack → scratch project)', () => {
  const app = path.join(work, 'app');
  it('serves a scenario through MSW to @modelcontextprotocol/client@2.4.0 pinned to 2026-07-28', () => {
    const packDir = path.join(work, 'pack');
    fs.mkdirSync(packDir);
    fs.mkdirSync(app);
    step('npm pack (prepack builds dist and types)', () => run('npm', ['pack', '--pack-destination', packDir, '--silent'], root, 120_000));
    const tarball = fs.readdirSync(packDir).find((f) => f.endsWith('.tgz'));
    expect(tarball, 'npm pack wrote a tarball').toBeDefined();
    const listing = run('tar', ['tzf', path.join(packDir, tarball!)], work, 30_000);
    // The editor hint in the README points at public/scenario.schema.json; examples/ documents the format.
    const shipped = ['public/scenario.schema.json', 'examples/task-script.yaml', 'examples/mcp-app.yaml', 'examples/mcp-app-view.html'];
    for (const f of ['dist/engine.mjs', 'dist/msw.mjs', 'dist/engine.d.ts', 'dist/msw.d.ts', 'dist/cli.mjs', 'bin/mcp-loupe.mjs', ...shipped])
      expect(listing).toContain(`package/${f}`);
    expect(listing).not.toContain('package/lib/');
    expect(listing).toContain('package/LICENSE');
    expect(listing).toContain('package/CHANGELOG.md');

    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }));
    fs.writeFileSync(path.join(app, 'polyfills.mjs'), POLYFILLS);
    fs.writeFileSync(path.join(app, 'consumer.mjs'), CONSUMER);
    fs.writeFileSync(path.join(app, 'types-check.ts'), TYPES);
    fs.writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
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
      }),
    );
    step('npm install (tarball, msw, SDK client)', () =>
      run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--ignore-scripts',
          '--loglevel=error',
          path.join(packDir, tarball!),
          'msw@3.0.5',
          '@modelcontextprotocol/client@2.4.0',
        ],
        app,
        150_000,
      ),
    );
    // The library entries import neither node:* nor better-sqlite3, so they run in browsers too.
    const installed = path.join(app, 'node_modules', 'mcp-loupe', 'dist');
    for (const f of fs
      .readdirSync(installed, { recursive: true })
      .map(String)
      .filter((f) => /^(engine|msw|chunks\/.*)\.mjs$/.test(f))) {
      expect(fs.readFileSync(path.join(installed, f), 'utf8'), f).not.toMatch(/["'](node:[a-z_/]+|better-sqlite3)["']/);
    }

    // Only what the shipped code loads comes along: no Next, React or editor packages.
    for (const name of ['next', 'react', 'react-dom', '@codemirror', 'commander', 'yaml'])
      expect(fs.existsSync(path.join(app, 'node_modules', name)), name).toBe(false);

    const out = step('node consumer.mjs', () => run(process.execPath, ['--import', './polyfills.mjs', 'consumer.mjs'], app, 60_000));
    const result = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(result.server).toMatchObject({ name: 'loupe-demo' });
    expect(result.tools).toEqual(expect.arrayContaining(['charge', 'delete_note', 'echo', 'generate_report', 'search_notes', 'workspace_read']));
    expect(result.echo).toMatchObject({ content: [{ type: 'text', text: 'from the tarball' }] });
    expect(result.journal).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    expect(result.grades).toHaveLength(9);
    expect(result.grades.some((g: string) => g.endsWith(':fail'))).toBe(false);
    expect(result.discover).toContain('2026-07-28');
    expect(result.sqliteLoaded).toBe(false);

    step('tsc (nodenext) against the declarations', () =>
      run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app, 60_000),
    );
  });

  it('runs the installed CLI without a compiled better-sqlite3: one warning, then tasks in memory', async () => {
    // The install above skipped scripts, as pnpm does by default: better-sqlite3 has no binding.
    const child = spawn(
      process.execPath,
      [path.join(app, 'node_modules', 'mcp-loupe', 'bin', 'mcp-loupe.mjs'), 'mock', '--port', '0', '--data-dir', path.join(work, 'data')],
      {
        cwd: app,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no READY:\n${out}`)), 30_000);
        child.stdout.on('data', () => {
          const m = /READY (http:\/\/\S+)/.exec(out);
          if (m?.[1]) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
      });
      const target = httpTarget(url);
      const created = await callTool(target, 'generate_report', { size: 'small' }, target.opts({ caps: CAPS.formAndTasks }));
      const { taskId } = created.body.result as { taskId: string };
      const got = await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks }));
      expect(got.body.result).toMatchObject({ taskId });
      expect(out.split('SQLite is unavailable').length - 1).toBe(1);
      expect(out).toMatch(/will not survive a restart/);
      expect(out).toMatch(/npm rebuild better-sqlite3/);
    } finally {
      child.kill();
    }
  });
});
