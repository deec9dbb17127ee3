import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecording, type Recording } from '../../lib/recording/schema';
import { ROOT, startSdkServer } from '../helpers/processes';
import { parseXml } from '../helpers/xml';

/**
 * `mcp-loupe tap` between real clients and real servers (the official SDKs on both sides): every
 * result is the same as without the tap, the recording holds every message, it opens as a mock,
 * the JUnit report parses, and over stdio the tap adds nothing to stdout and forwards exit codes
 * and signals. Needs `npm run build:cli`.
 */

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');
const SDK1_SERVER = path.join(ROOT, 'tests/fixtures/servers/sdk1-stdio-server.mjs');
const SECRET = 'tap-secret-4242-do-not-store';

interface Running {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM it and wait for it to end. */
  stop: () => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Run `mcp-loupe <args>` until it prints `READY <url>`. */
async function startReady(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp-loupe ${args[0]} did not start:\n${out}`)), 15_000);
    child.stdout!.on('data', () => {
      const m = /READY (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void ended.then(() => reject(new Error(`mcp-loupe ${args[0]} exited:\n${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return ended;
    },
  };
}

function readRecording(file: string): Recording {
  const opened = parseRecording(fs.readFileSync(file, 'utf8'));
  if (!opened.ok) throw new Error(opened.error);
  return opened.recording;
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tap-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What an SDK v2 client sees of the SDK v2 server: the same calls with or without the tap. */
async function v2Session(url: string) {
  const client = new ClientV2({ name: 'tap-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${SECRET}` } } }));
  try {
    return {
      server: client.getServerVersion(),
      tools: (await client.listTools()).tools,
      counted: await client.callTool({ name: 'word_count', arguments: { text: 'one two two three' } }),
      unique: await client.callTool({ name: 'word_count', arguments: { text: 'one two two three', unique: true } }),
      unknown: await client
        .callTool({ name: 'no_such_tool', arguments: {} })
        .catch((e: { code?: number; message?: string }) => ({ code: e.code, message: e.message })),
    };
  } finally {
    await client.close();
  }
}

describe('HTTP tap: SDK v2 client → tap → SDK v2 server', () => {
  let server: Awaited<ReturnType<typeof startSdkServer>>;
  let direct: Awaited<ReturnType<typeof v2Session>>;
  let tapped: Awaited<ReturnType<typeof v2Session>>;
  let tapOutput: string;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let seenByServer: number;
  const recordFile = () => path.join(dir, 'http.loupe.json');
  const reportFile = () => path.join(dir, 'http-report.xml');

  beforeAll(async () => {
    server = await startSdkServer({ LOG_HEADER: 'authorization' });
    direct = await v2Session(server.url);
    const before = server.output().split('SAW authorization').length;
    const tap = await startReady(['tap', '--upstream', server.url, '--port', '0', '--record', recordFile(), '--report', reportFile()]);
    tapped = await v2Session(tap.url);
    seenByServer = server.output().split('SAW authorization').length - before;
    exit = await tap.stop();
    tapOutput = tap.output();
  });
  afterAll(async () => server?.stop());

  it('gives the client the same results as talking to the server directly', () => {
    expect(tapped).toEqual(direct);
    expect(tapped.tools.map((t) => t.name)).toEqual(['word_count']);
    expect(tapped.unique).toMatchObject({ structuredContent: { count: 3 } });
  });

  it('relays the credential to the server but never stores or prints it', () => {
    expect(server.output()).toContain(`SAW authorization: Bearer ${SECRET}`);
    expect(fs.readFileSync(recordFile(), 'utf8')).not.toContain(SECRET);
    expect(tapOutput).not.toContain(SECRET);
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('records every request the server received, each with its response', () => {
    const recording = readRecording(recordFile());
    expect(recording.connection).toMatchObject({ target: server.url, transport: 'http' });
    const requests = recording.frames.filter((f) => f.kind === 'http-request');
    expect(requests).toHaveLength(seenByServer);
    expect(requests.map((f) => f.method).filter(Boolean)).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));
    expect(requests.filter((f) => f.method === 'tools/call')).toHaveLength(3);
    for (const r of requests) expect(recording.frames.some((f) => f.exchangeId === r.exchangeId && f.kind === 'http-response')).toBe(true);
    const answers = recording.frames.filter((f) => f.direction === 'in' && (f.kind === 'message' || f.kind === 'sse-frame') && f.method === 'tools/call');
    expect(answers.map((f) => (f.body as { result?: { content?: unknown } }).result?.content)).toContainEqual([{ type: 'text', text: '3 words' }]);
    expect(requests[0]!.headers?.authorization).toMatch(/^Bearer redacted-/);
  });

  it('writes a JUnit report a strict XML parser reads: a suite per graded peer, one case per rule', () => {
    const root = parseXml(fs.readFileSync(reportFile(), 'utf8'));
    expect(root.name).toBe('testsuites');
    expect(root.children.map((s) => s.name)).toEqual(['testsuite', 'testsuite']);
    expect(root.children.map((s) => s.attrs.name)).toEqual([`server (${server.url})`, `client (${server.url})`]);
    let failures = 0;
    for (const suite of root.children) {
      expect(suite.children.every((c) => c.name === 'testcase')).toBe(true);
      expect(Number(suite.attrs.tests)).toBe(suite.children.length);
      const failed = suite.children.filter((c) => c.children.some((x) => x.name === 'failure')).length;
      expect(Number(suite.attrs.failures)).toBe(failed);
      failures += failed;
    }
    expect(Number(root.attrs.failures)).toBe(failures);
    expect(Number(root.attrs.tests)).toBe(root.children.reduce((n, s) => n + s.children.length, 0));
  });

  it('keeps the recording on disk up to date while it runs, so a killed tap loses little', async () => {
    const file = path.join(dir, 'killed.loupe.json');
    const tap = await startReady(['tap', '--upstream', server.url, '--port', '0', '--record', file]);
    await v2Session(tap.url);
    await expect
      .poll(() => fs.existsSync(file) && readRecording(file).frames.filter((f) => f.kind === 'http-request' && f.method === 'tools/call').length, {
        timeout: 15_000,
      })
      .toBe(3);
    tap.child.kill('SIGKILL');
    expect((await tap.stop()).signal).toBe('SIGKILL');
  });

  it('replays the tapped recording as a mock that gives the client the same results', async () => {
    const replay = await startReady(['replay', recordFile(), '--port', '0']);
    try {
      expect(await v2Session(replay.url)).toEqual(direct);
    } finally {
      await replay.stop();
    }
  });
});

/** What the SDK 1.32.2 client sees of a 2025-11-25 stdio server. */
async function sdk1Session(command: string, args: string[]) {
  const client = new Client({ name: 'tap-sdk1', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  try {
    return {
      server: client.getServerVersion(),
      tools: (await client.listTools()).tools,
      call: await client.callTool({ name: 'word_count', arguments: { text: 'a b c d' } }),
      read: await client.readResource({ uri: 'file:///readme.txt' }),
    };
  } finally {
    await client.close();
  }
}

describe('stdio tap: SDK 1.32.2 client → tap → SDK 1.32.2 server (2025-11-25)', () => {
  it('gives the same results, and records every message linted as 2025-11-25', async () => {
    const file = path.join(dir, 'stdio-legacy.loupe.json');
    const direct = await sdk1Session(process.execPath, [SDK1_SERVER]);
    const tapped = await sdk1Session(process.execPath, [CLI, 'tap', '--record', file, '--', process.execPath, SDK1_SERVER]);
    expect(tapped).toEqual(direct);
    expect(tapped.call.content).toEqual([{ type: 'text', text: '4 words' }]);
    // The client closes the tap's stdin; the tap writes the recording as the server exits.
    await expect.poll(() => fs.existsSync(file) && readRecording(file).frames.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(9);
    const recording = readRecording(file);
    const sent = recording.frames.filter((f) => f.direction === 'out');
    expect(sent.map((f) => f.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'resources/read']);
    for (const request of sent.filter((f) => f.rpcId !== undefined))
      expect(recording.frames.filter((f) => f.direction === 'in' && f.exchangeId === request.exchangeId)).toHaveLength(1);
    const lintIds = Object.values(recording.lints)
      .flat()
      .map((l) => l.id);
    expect(lintIds).not.toContain('meta-required-missing');
  });
});

describe('stdio tap: SDK v2 client (2026-07-28) → tap → mcp-loupe mock demo --stdio', () => {
  async function session(args: string[]) {
    const client = new ClientV2({ name: 'tap-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioTransportV2({ command: process.execPath, args, stderr: 'ignore' }));
    try {
      return {
        tools: (await client.listTools()).tools.map((t) => t.name),
        echo: await client.callTool({ name: 'echo', arguments: { text: 'through the tap' } }),
      };
    } finally {
      await client.close();
    }
  }

  it('gives the same results as the mock without the tap', async () => {
    const mock = [CLI, 'mock', 'demo', '--stdio', '--store', 'memory'];
    const direct = await session(mock);
    const tapped = await session([CLI, 'tap', '--', process.execPath, ...mock]);
    expect(tapped).toEqual(direct);
    expect(tapped.echo.content).toEqual([{ type: 'text', text: 'through the tap' }]);
  });
});

/** Run a process with these stdin lines; its stdout, stderr and how it ended. */
function runWithInput(args: string[], lines: string[]): Promise<{ stdout: string; stderr: string; code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolve({ stdout, stderr, code, signal }));
    child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });
}

describe('stdio tap as a process', () => {
  const lines = [
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'word_count', arguments: { text: 'x y' } } }),
  ];

  it('writes byte for byte what the server writes to stdout, passes stderr through and exits with its code', async () => {
    const direct = await runWithInput([SDK1_SERVER, '--exit-code', '7'], lines);
    const tapped = await runWithInput([CLI, 'tap', '--', process.execPath, SDK1_SERVER, '--exit-code', '7'], lines);
    expect(direct.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(tapped.stdout).toBe(direct.stdout);
    expect(tapped.stderr).toBe(direct.stderr);
    expect(tapped.stderr).toContain('hello on stderr');
    expect([tapped.code, direct.code]).toEqual([7, 7]);
  });

  it('forwards SIGTERM to the server and dies of it like the server, after writing the recording', async () => {
    const file = path.join(dir, 'signalled.loupe.json');
    const child = spawn(process.execPath, [CLI, 'tap', '--record', file, '--', process.execPath, SDK1_SERVER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stdin.write(`${lines[0]}\n`);
    await expect.poll(() => stdout.includes('"id":1'), { timeout: 15_000 }).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(readRecording(file).frames.map((f) => [f.direction, f.method])).toEqual([
      ['out', 'initialize'],
      ['in', 'initialize'],
    ]);
  });

  it("keeps tapping when its client stops reading stdout: the recording and the report are written and the exit code is the server's", async () => {
    const file = path.join(dir, 'unread.loupe.json');
    const report = path.join(dir, 'unread.junit.xml');
    const child = spawn(process.execPath, [CLI, 'tap', '--record', file, '--report', report, '--', process.execPath, SDK1_SERVER, '--exit-code', '7'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // The client's read end is gone before the server answers: every answer the tap relays hits EPIPE.
    child.stdout.destroy();
    const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    child.stdin.end(`${lines.join('\n')}\n`);
    expect(await ended).toBe(7);
    expect(readRecording(file).frames.map((f) => [f.direction, f.method])).toEqual(
      expect.arrayContaining([
        ['in', 'initialize'],
        ['in', 'tools/call'],
      ]),
    );
    expect(fs.readFileSync(report, 'utf8')).toMatch(/^<\?xml/);
  });

  it('refuses a tap with neither an upstream nor a command, or a command not after --', async () => {
    const r = await runWithInput([CLI, 'tap'], []);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to tap');
    expect(r.stdout).toBe('');
    const bare = await runWithInput([CLI, 'tap', 'node', 'server.js'], []);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('after --');
  });
});

describe('mcp-loupe mock --report', () => {
  it("writes the client's report card as JUnit XML when the mock stops, the same grades the control API shows", async () => {
    const file = path.join(dir, 'mock-report.xml');
    const mock = await startReady(['mock', 'demo', '--port', '0', '--store', 'memory', '--report', file]);
    const token = /control token: (\S+)/.exec(mock.output())?.[1];
    const client = new ClientV2({ name: 'graded', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    await client.callTool({ name: 'echo', arguments: { text: 'graded' } });
    // A task-only tool called without declaring the tasks extension: a failing grade.
    await expect(client.callTool({ name: 'generate_report', arguments: { size: 'small' } })).rejects.toMatchObject({ code: -32021 });
    await client.close();
    const base = mock.url.replace(/\/mcp$/, '');
    const card = (await (await fetch(`${base}/api/scenarios/demo/report-card`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      grades: { id: string; status: 'pass' | 'fail' | 'not-observed' }[];
    };
    expect((await mock.stop()).code).toBe(0);
    const root = parseXml(fs.readFileSync(file, 'utf8'));
    const suite = root.children[0]!;
    expect(suite.attrs.name).toBe('client report card (scenario demo)');
    const verdicts = suite.children.map((c) => {
      const inner = c.children[0]?.name;
      return [c.attrs.name!.split(':')[0], inner === 'failure' ? 'fail' : inner === 'skipped' ? 'not-observed' : 'pass'];
    });
    expect(verdicts).toEqual(card.grades.map((g) => [g.id, g.status]));
    expect(Number(suite.attrs.failures)).toBe(card.grades.filter((g) => g.status === 'fail').length);
    expect(Number(suite.attrs.skipped)).toBe(card.grades.filter((g) => g.status === 'not-observed').length);
    expect(verdicts).toContainEqual(['extension-declared', 'fail']);
  });
});
