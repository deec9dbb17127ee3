import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, freePort, startCliMock, type Started } from '../helpers/processes';

/**
 * What every `mcp-loupe` command does when it is used wrongly or cannot do its job, run as a user
 * runs it (`node bin/mcp-loupe.mjs ...`): exit code 2 for usage mistakes (commander's parse
 * errors included), 1 for failures, a readable message and no stack; with --json, one JSON
 * document on stdout carrying `error`; --version from package.json; and no ESC character in
 * any output, on a pipe or on a terminal with NO_COLOR, even when the server sends some.
 */

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');
const RECORDING = path.join(ROOT, 'tests', 'fixtures', 'recordings', 'v2.json');
const ESC = '\u001b';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI with a clean environment (no LOUPE_TOKEN, no colour forcing). */
function cli(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  const { LOUPE_TOKEN: _t, FORCE_COLOR: _f, NO_COLOR: _n, ...base } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A server that answers like an MCP server whose texts carry terminal escape sequences. */
function hostileServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const m = JSON.parse(body) as { id: number; method: string };
      const results: Record<string, unknown> = {
        'server/discover': { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private' },
        'tools/list': {
          resultType: 'complete',
          tools: [{ name: 'paint', description: `${ESC}[31mred${ESC}[0m ${ESC}]0;retitled\u0007`, inputSchema: { type: 'object' } }],
        },
        'tools/call': { resultType: 'complete', content: [{ type: 'text', text: `${ESC}[2Jcleared the screen\u009b31m` }] },
      };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: results[m.method] ?? {} }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

describe('mcp-loupe exit codes, messages and --json errors', () => {
  let mock: Started;
  let conformance: Started;
  let closed: string;
  let dataDir: string;
  let hostile: Awaited<ReturnType<typeof hostileServer>>;
  let deadLoupe: { dir: string; pid: number };
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-conventions-'));
    [mock, conformance, hostile] = await Promise.all([
      startCliMock(['demo', '--data-dir', path.join(dataDir, 'a')]),
      startCliMock(['conformance', '--data-dir', path.join(dataDir, 'b')]),
      hostileServer(),
    ]);
    // A port nothing listens on: connecting to it is refused.
    closed = `http://127.0.0.1:${await freePort()}/mcp`;
    // The advert a killed Loupe leaves: its process (one that has exited) no longer runs.
    const gone = spawnSync(process.execPath, ['-e', '']);
    deadLoupe = { dir: path.join(dataDir, 'dead'), pid: gone.pid ?? 0 };
    fs.mkdirSync(deadLoupe.dir);
    fs.writeFileSync(path.join(deadLoupe.dir, 'loupe-server.json'), JSON.stringify({ url: mock.url, token: 'stale', pid: deadLoupe.pid }), { mode: 0o600 });
  });
  afterAll(async () => {
    await Promise.all([mock?.stop(), conformance?.stop(), hostile?.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 2 for usage mistakes and 1 for failures, each with a message a person can act on', async () => {
    const refused = (url: () => string) => new RegExp(`cannot reach ${url().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: connection refused`);
    const table: [string[] | (() => string[]), number, RegExp | (() => RegExp)][] = [
      // commander's own parse errors
      [['--bogus'], 2, /unknown option '--bogus'/],
      [['nope'], 2, /unknown command 'nope'/],
      [['discover'], 2, /no server: give --url URL, or a stdio server after --/],
      [['discover', '--url'], 2, /option '--url <url>' argument missing/],
      [() => ['call', '--url', mock.url], 2, /missing required argument 'tool'/],
      [() => ['discover', 'extra', '--url', mock.url], 2, /too many arguments for 'discover'/],
      [['export', RECORDING], 2, /required option '--out <file>' not specified/],
      [['task'], 2, /Usage: mcp-loupe task/],
      // values the commands check
      [['mock', '--port', 'abc'], 2, /--port must be an integer from 0 to 65535 \(0 picks any free port\), not "abc"/],
      [['mock', '--port', '70000'], 2, /--port must be an integer from 0 to 65535 .*not "70000"/],
      [['replay', RECORDING, '--port', '-1'], 2, /--port must be an integer from 0 to 65535 .*not "-1"/],
      [['mock', 'no-such-scenario'], 2, /"no-such-scenario" is neither a built-in scenario \(demo, conformance, .*\) nor a scenario file/],
      [['mock', '--host', '0.0.0.0', '--port', '0'], 2, /Refusing to bind 0\.0\.0\.0/],
      [['mock', '--token', 'abc', '--port', '0'], 2, /mock takes its control token from LOUPE_TOKEN, not --token/],
      [['discover', '--url', 'ftp://example.com/mcp'], 2, /--url must be http\(s\), not ftp:/],
      [['tools', '--url', 'not a url'], 2, /--url "not a url" is not a URL/],
      [() => ['discover', '--url', mock.url, '--timeout', 'soon'], 2, /--timeout must be a positive number of milliseconds, not "soon"/],
      [() => ['discover', '--url', mock.url, '--era', 'future'], 2, /--era must be modern, legacy or auto, not "future"/],
      [() => ['tools', '--url', mock.url, '--header', 'no colon'], 2, /--header "no colon" must look like "Name: value"/],
      [['validate', 'no-such-file.yaml'], 2, /no-such-file\.yaml: no such file/],
      [['export', 'no-such-file.json', '--out', '-'], 2, /no-such-file\.json: no such file/],
      // a device never ends: refused, not read until memory runs out
      [['export', '/dev/zero', '--out', '-'], 2, /Cannot read \/dev\/zero: it is a device or a socket, not a file/],
      [() => ['scenarios', 'list', '--url', mock.url], 2, /needs a token: pass --token or set LOUPE_TOKEN/],
      [() => ['tasks', 'advance', 'T1', '--url', mock.url], 2, /needs a token: pass --token or set LOUPE_TOKEN/],
      // a Loupe that died and left its advert behind: passing its --data-dir again would not help
      [
        () => ['tasks', 'advance', 'T1', '--url', mock.url, '--data-dir', deadLoupe.dir],
        2,
        () => new RegExp(`the Loupe recorded in .*dead \\(pid ${deadLoupe.pid}, .*\\) is not running: start it again \\(\`mcp-loupe open --data-dir`),
      ],
      [() => ['call', 'echo', 'text=hi', '--url', mock.url, '--record', dataDir], 2, /--record .* names a directory: give a file path like .*session\.json/],
      // failures: nothing listens, the port is taken, the server says no
      [() => ['discover', '--url', closed], 1, () => refused(() => closed)],
      [() => ['tools', '--url', closed], 1, () => refused(() => closed)],
      [() => ['call', 'echo', 'text=hi', '--url', closed], 1, () => refused(() => closed)],
      [() => ['task', 'get', 'T1', '--url', closed], 1, () => refused(() => closed)],
      [() => ['tasks', 'advance', 'T1', '--url', closed, '--token', 't'], 1, () => refused(() => closed)],
      [() => ['scenarios', 'list', '--url', closed, '--token', 't'], 1, () => refused(() => closed)],
      [
        ['discover', '--url', 'http://127.0.0.1:1/mcp'],
        1,
        /cannot reach http:\/\/127\.0\.0\.1:1\/mcp: fetch refuses port 1 \(one of the ports browsers block\)/,
      ],
      [['discover', '--url', 'http://no-such-host.invalid/mcp'], 1, /cannot reach http:\/\/no-such-host\.invalid\/mcp: host not found/],
      [
        () => ['mock', '--port', String(mock.port), '--data-dir', path.join(dataDir, 'busy')],
        1,
        () => new RegExp(`port ${mock.port} is in use; pass --port 0 for any free port`),
      ],
      [() => ['replay', RECORDING, '--port', String(mock.port)], 1, () => new RegExp(`port ${mock.port} is in use; pass --port 0 for any free port`)],
      [() => ['call', 'no_such_tool', '--url', mock.url], 1, /JSON-RPC error -32602/],
      [() => ['scenarios', 'list', '--url', mock.url, '--token', 'wrong'], 1, /Failed to list scenarios: A valid Loupe token is required/],
    ];
    // A few at a time: each is a Node process, and some start a server.
    const runs: Run[] = [];
    for (let i = 0; i < table.length; i += 6)
      runs.push(...(await Promise.all(table.slice(i, i + 6).map(([args]) => cli(typeof args === 'function' ? args() : args)))));
    table.forEach(([args, code, message], i) => {
      const r = runs[i]!;
      const shown = `mcp-loupe ${(typeof args === 'function' ? args() : args).join(' ')}\n${r.stderr}`;
      expect(r.code, shown).toBe(code);
      expect(r.stderr, shown).toMatch(typeof message === 'function' ? message() : message);
      // A message, not a stack trace or undici's bare words.
      expect(r.stderr, shown).not.toMatch(/^\s+at /m);
      expect(r.stderr, shown).not.toContain('fetch failed');
      expect(r.stderr, shown).not.toContain('EADDRINUSE');
    });
  });

  it('--help and --version exit 0; --version is the version in package.json', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const [v, V, help, sub] = await Promise.all([cli(['--version']), cli(['-V']), cli(['--help']), cli(['call', '--help'])]);
    expect(v).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(V.stdout).toBe(`${version}\n`);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: mcp-loupe [options] [command]');
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('Usage: mcp-loupe call [options] <tool> [args...]');
  });

  it("top-level --help shows the default command's main options, which only `open --help` listed", async () => {
    const [help, call] = await Promise.all([cli(['--help']), cli(['call', '--help'])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Without a command, mcp-loupe runs `open`');
    for (const flag of ['--url <url>', '--header <"Name: value">', '--port <n>', '--no-open', '--scenario <file>', '-- command args'])
      expect(help.stdout).toMatch(new RegExp(`\\n  ${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\S`));
    expect(help.stdout).toContain('All of them: mcp-loupe open --help');
    // A command's own help stays its own.
    expect(call.stdout).not.toContain('Without a command');
  });

  it('tasks: each action says what it does, a bad --json body and a finished task are failures that say why', async () => {
    const help = await cli(['tasks', '--help']);
    expect(help.stdout).toMatch(/advance \[options\] <taskId> +finish the current step now/);
    expect(help.stdout).toMatch(/expire \[options\] <taskId> +delete the task as if its TTL had run out/);
    const started = await cli(['call', 'generate_report', 'size=small', '--task', '--json', '--url', mock.url]);
    const taskId = (JSON.parse(started.stdout) as { task: { taskId: string } }).task.taskId;
    const control = (action: string, ...more: string[]) => cli(['tasks', action, taskId, '--url', mock.url, '--token', mock.token!, ...more]);
    const notAResult = await control('complete', '--json', '{"result":5}');
    expect(notAResult.code).toBe(1);
    expect(notAResult.stderr).toMatch(/Failed to complete task: result: .*\("result" must be a tool result/);
    expect((await control('complete')).stdout).toMatch(/is now completed/);
    const again = await control('fail');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('Failed to fail task: Task is already completed: fail changes nothing');
  });

  it('with --json, every failure is one JSON document on stdout with error.code and error.message', async () => {
    const json = (r: Run) => JSON.parse(r.stdout) as { error?: { code: string; message: string; rpc?: { code: number } }; task?: { status: string } };
    const unreachable = await cli(['discover', '--url', closed, '--json']);
    expect(unreachable.code).toBe(1);
    expect(json(unreachable)).toEqual({ error: { code: 'unreachable', message: `cannot reach ${closed}: connection refused` } });
    expect(unreachable.stderr).toBe('');

    // Parse errors too, wherever --json is on the command line; commander prints nothing of its own.
    for (const args of [
      ['--json', 'nope'],
      ['tools', '--json', '--bogus', '--url', mock.url],
      ['call', '--json', '--url', mock.url],
      ['task', 'get', 'T1', '--json'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(json(r).error, args.join(' ')).toMatchObject({ code: 'usage', message: expect.any(String) });
      expect(r.stderr, args.join(' ')).toBe('');
    }
    expect(json(await cli(['nope', '--json'])).error?.message).toMatch(/^unknown command 'nope'/);
    const badUrl = await cli(['tools', '--url', 'ftp://example.com', '--json']);
    expect([badUrl.code, json(badUrl).error]).toEqual([2, { code: 'usage', message: '--url must be http(s), not ftp:' }]);

    const rpc = await cli(['call', 'no_such_tool', '--url', mock.url, '--json']);
    expect(rpc.code).toBe(1);
    expect(json(rpc).error).toMatchObject({ code: 'rpc', rpc: { code: -32602 } });

    // A failed task: the task beside the error, still one document.
    const failed = await cli(['call', 'protocol_error_job', '--task', '--wait', '--json', '--url', conformance.url.replace(/\/mcp$/, '/mcp/conformance')]);
    expect(failed.code).toBe(1);
    expect(json(failed)).toMatchObject({
      error: { code: 'task-failed', message: expect.stringContaining('Simulated internal failure') },
      task: { status: 'failed' },
    });

    // Success has no error member.
    const ok = await cli(['tools', '--url', mock.url, '--json']);
    expect(ok.code).toBe(0);
    expect(json(ok).error).toBeUndefined();

    // `tasks complete --json BODY` is a request body, not JSON output: errors stay text.
    const body = await cli(['tasks', 'complete', 'T1', '--url', closed, '--token', 't', '--json', '{"result":{}}']);
    expect(body.code).toBe(1);
    expect(body.stdout).toBe('');
    expect(body.stderr).toContain(`cannot reach ${closed}: connection refused`);
  });

  it('prints no ESC character on a pipe or with NO_COLOR on a terminal, even when the server sends some', async () => {
    const runs = await Promise.all([
      cli(['--help']),
      cli(['--bogus']),
      cli(['tools', '--url', hostile.url]),
      cli(['call', 'paint', '--url', hostile.url]),
      cli(['discover', '--url', closed]),
      cli(['tools', '--url', hostile.url], { NO_COLOR: '1' }),
    ]);
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(ESC);
    // The server's escape sequences are shown, not obeyed.
    expect(runs[2]!.stdout).toContain('\\x1b[31mred\\x1b[0m \\x1b]0;retitled\\x07');
    expect(runs[3]!.stdout).toContain('\\x1b[2Jcleared the screen\\x9b31m');
    // --json keeps them as JSON escapes, which are not control characters either.
    const json = await cli(['tools', '--url', hostile.url, '--json']);
    expect(json.stdout).not.toContain(ESC);
    expect((JSON.parse(json.stdout) as { tools: { description: string }[] }).tools[0]!.description).toContain(`${ESC}[31mred`);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)('prints no ESC character on a terminal with NO_COLOR', async () => {
    const { LOUPE_TOKEN: _t, FORCE_COLOR: _f, ...base } = process.env;
    for (const command of [`node ${CLI} --help`, `node ${CLI} --bogus`, `node ${CLI} tools --url ${hostile.url}`]) {
      // util-linux `script` runs the command on a pseudo-terminal, so stdout and stderr are TTYs.
      const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...base, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let seen = '';
      child.stdout.on('data', (d) => (seen += d));
      await new Promise((r) => child.on('close', r));
      expect(seen, command).not.toContain(ESC);
      expect(seen.length, command).toBeGreaterThan(0);
    }
  });
});
