import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createParser } from 'eventsource-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../lib/client/frames';
import { parseRecording } from '../../lib/recording/schema';
import { startAppServer, type AppServer } from '../../lib/server/app-server';
import { ROOT, startSdkServer } from '../helpers/processes';

/**
 * A tap live in a running Loupe: `mcp-loupe tap` finds the Loupe through the data directory,
 * its session appears under `/api/taps` (token-gated) with every frame, faults switched through
 * Loupe reach the tap (a 503 with Retry-After, marked on the timeline) and switch off again, and
 * a Loupe started after the tap picks the session up. The official Inspector CLI runs through a
 * stdio tap in front of the ext-apps basic server. Needs `npm run build:cli`.
 */

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');
const children: ChildProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tap-live-'));
  dirs.push(d);
  return d;
}

/** `mcp-loupe tap ...` until its READY line. */
async function startTap(args: string[]): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [CLI, 'tap', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tap did not start:\n${out}`)), 15_000);
    child.stdout!.on('data', () => {
      const m = /READY (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', () => reject(new Error(`tap exited:\n${out}`)));
  });
  return { url, child, output: () => out };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The app server on a data directory (its pages are not under test here). */
const startLoupe = (dataDir: string) => startAppServer({ port: 0, dataDir, store: 'memory', pages: (_req, res) => res.writeHead(404).end() });

const auth = (app: AppServer) => ({ authorization: `Bearer ${app.token}` });

async function taps(app: AppServer): Promise<{ id: string; frames: number; target: string; endedAt?: number }[]> {
  const res = await fetch(`${app.url}/api/taps`, { headers: auth(app) });
  return ((await res.json()) as { taps: { id: string; frames: number; target: string; endedAt?: number }[] }).taps;
}

/** The frames Loupe holds for a tap: the first event of its live feed. */
async function snapshot(app: AppServer, id: string): Promise<{ frames: Frame[]; faults: unknown[] }> {
  const ctrl = new AbortController();
  const res = await fetch(`${app.url}/api/taps/${id}/events`, { headers: auth(app), signal: ctrl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let found: { frames: Frame[]; faults: unknown[] } | undefined;
  const parser = createParser({
    onEvent: (e) => {
      if (e.event === 'tap:snapshot') found = JSON.parse(e.data) as { frames: Frame[]; faults: unknown[] };
    },
  });
  while (!found) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  ctrl.abort();
  return found!;
}

async function v2Call(url: string, fetchImpl?: typeof fetch) {
  const client = new Client({ name: 'tap-live-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetchImpl ? { fetch: fetchImpl } : {}));
  try {
    return await client.callTool({ name: 'word_count', arguments: { text: 'one two two three' } });
  } finally {
    await client.close();
  }
}

afterEach(async () => {
  await Promise.all(children.splice(0).map(stop));
});
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('an HTTP tap live in the running Loupe', () => {
  let sdk: Awaited<ReturnType<typeof startSdkServer>>;
  let app: AppServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tempDir();
    [sdk, app] = await Promise.all([startSdkServer(), startLoupe(dataDir)]);
  });
  afterAll(async () => {
    await app?.close();
    await sdk?.stop();
  });

  it('advertises the Loupe in the data directory to its owner only, and gates the feed with the token', async () => {
    const advert = path.join(dataDir, 'loupe-server.json');
    expect(fs.statSync(advert).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(advert, 'utf8'))).toMatchObject({ url: app.url, token: app.token, pid: process.pid });
    expect((await fetch(`${app.url}/api/taps`)).status).toBe(401);
    const forged = await fetch(`${app.url}/api/taps`, { method: 'POST', body: JSON.stringify({ target: 'x', transport: 'http' }) });
    expect(forged.status).toBe(401);
  });

  it('shows the tapped session with every frame, and switches a 503 fault on and off from Loupe', async () => {
    const tap = await startTap(['--upstream', sdk.url, '--data-dir', dataDir]);
    const result = await v2Call(tap.url);
    expect(result).toMatchObject({ structuredContent: { count: 4 } });
    await expect.poll(async () => (await taps(app)).find((t) => t.target.startsWith(sdk.url))?.frames ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    const [mine] = (await taps(app)).filter((t) => t.target.startsWith(sdk.url));
    await expect
      .poll(async () => (await snapshot(app, mine!.id)).frames.filter((f) => f.method === 'tools/call').map((f) => f.kind), { timeout: 10_000 })
      .toEqual(['http-request', 'http-response', 'message']);
    const call = (await snapshot(app, mine!.id)).frames.filter((f) => f.method === 'tools/call');
    expect(JSON.stringify(call.map((f) => f.body))).toContain('"count":4');

    const switched = await fetch(`${app.url}/api/taps/${mine!.id}/faults`, {
      method: 'PUT',
      headers: { ...auth(app), 'content-type': 'application/json' },
      body: JSON.stringify({
        faults: [{ id: 'busy', enabled: true, fault: { match: { method: 'tools/call' }, action: { kind: 'http-status', status: 503, retryAfter: 0 } } }],
      }),
    });
    expect(switched.status).toBe(200);
    // The switch travels to the tap process over its control stream; the next call gets the 503.
    const tryCall = () =>
      v2Call(tap.url).then(
        () => 'ok',
        (e: Error) => e.message,
      );
    await expect.poll(tryCall, { timeout: 10_000 }).toMatch(/503/);
    await expect
      .poll(
        async () =>
          (await snapshot(app, mine!.id)).frames.filter((f) => f.kind === 'fault' && f.fault?.rule === 'busy' && f.fault.kind === 'http-status').length,
        {
          timeout: 10_000,
        },
      )
      .toBeGreaterThan(0);
    const marked = (await snapshot(app, mine!.id)).frames.filter((f) => f.httpStatus === 503);
    expect(marked[0]?.headers?.['retry-after']).toBe('0');

    await fetch(`${app.url}/api/taps/${mine!.id}/faults`, {
      method: 'PUT',
      headers: { ...auth(app), 'content-type': 'application/json' },
      body: JSON.stringify({ faults: [] }),
    });
    await expect.poll(tryCall, { timeout: 10_000 }).toBe('ok');
    await stop(tap.child);
    await expect.poll(async () => (await taps(app)).find((t) => t.id === mine!.id)?.endedAt, { timeout: 5000 }).toBeTypeOf('number');
  });

  it('keeps relaying and recording with no Loupe, and a Loupe started later picks the session up', async () => {
    const later = tempDir();
    const record = path.join(later, 'rec.json');
    const tap = await startTap(['--upstream', sdk.url, '--data-dir', later, '--record', record]);
    expect(await v2Call(tap.url)).toMatchObject({ structuredContent: { count: 4 } });
    const app2 = await startLoupe(later);
    try {
      await expect.poll(async () => (await taps(app2))[0]?.frames ?? 0, { timeout: 15_000 }).toBeGreaterThan(2);
      const { frames } = await snapshot(app2, (await taps(app2))[0]!.id);
      expect(frames.some((f) => f.method === 'tools/call' && f.direction === 'in')).toBe(true);
    } finally {
      await stop(tap.child);
      await app2.close();
    }
    const opened = parseRecording(fs.readFileSync(record, 'utf8'));
    expect(opened.ok && opened.recording.frames.some((f) => f.method === 'tools/call')).toBe(true);
  });
});

describe('the official Inspector CLI through a stdio tap', () => {
  it('calls the ext-apps basic server’s tool, and the session in Loupe shows the call', async () => {
    const dataDir = tempDir();
    const app = await startLoupe(dataDir);
    try {
      const server = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
      const args = ['-y', '@modelcontextprotocol/inspector@2.12.0', '--cli', '--method', 'tools/call', '--tool-name', 'get-time'];
      const tapCmd = ['--', process.execPath, CLI, 'tap', '--data-dir', dataDir, '--', process.execPath, server, '--stdio'];
      const child = spawn('npx', [...args, ...tapCmd], { cwd: tempDir(), stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        child.once('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code).toBe(0);
      const result = JSON.parse(out) as { structuredContent: { time: string } };
      expect(Number.isNaN(Date.parse(result.structuredContent.time))).toBe(false);
      await expect.poll(async () => (await taps(app)).find((t) => t.target.includes('--stdio'))?.endedAt, { timeout: 10_000 }).toBeTypeOf('number');
      const [tap] = await taps(app);
      expect(tap).toMatchObject({ target: expect.stringContaining('server-basic-vanillajs') });
      const { frames } = await snapshot(app, tap!.id);
      const answer = frames.find((f) => f.method === 'tools/call' && f.direction === 'in');
      expect(JSON.stringify(answer?.body)).toContain(result.structuredContent.time);
      expect(frames.map((f) => f.method)).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call']));
    } finally {
      await app.close();
    }
  }, 150_000);
});

describe('faults from a file on a stdio tap', () => {
  it('answers the first tools/call with the JSON-RPC error of the file, lets the second through, and marks the fault in the recording', async () => {
    const dir = tempDir();
    const faultsFile = path.join(dir, 'faults.yaml');
    fs.writeFileSync(
      faultsFile,
      'faults:\n  - name: first-call-fails\n    match: { method: tools/call, nth: 1 }\n    action: { kind: rpc-error, code: -32603, message: injected }\n',
    );
    const record = path.join(dir, 'rec.json');
    const server = path.join(ROOT, 'tests/fixtures/servers/sdk1-stdio-server.mjs');
    const client = new Sdk1Client({ name: 'stdio-faults', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'tap', '--no-live', '--faults', faultsFile, '--record', record, '--', process.execPath, server],
        stderr: 'ignore',
      }),
    );
    const first = await client.callTool({ name: 'word_count', arguments: { text: 'a b' } }).then(
      () => 'ok',
      (e: Error) => e.message,
    );
    const second = await client.callTool({ name: 'word_count', arguments: { text: 'a b' } });
    await client.close();
    expect(first).toContain('injected');
    expect(second.content).toEqual([{ type: 'text', text: '2 words' }]);
    await expect.poll(() => fs.existsSync(record), { timeout: 15_000 }).toBe(true);
    const opened = parseRecording(fs.readFileSync(record, 'utf8'));
    const frames = opened.ok ? opened.recording.frames : [];
    const mark = frames.find((f) => f.kind === 'fault');
    expect(mark).toMatchObject({ method: 'tools/call', fault: { rule: 'first-call-fails', kind: 'rpc-error', request: 'tools/call word_count' } });
    // An injected error is not the server's: its rules are not held against it on that exchange.
    expect(opened.ok && opened.recording.lints[mark!.exchangeId]?.filter((l) => l.severity === 'error')).toEqual([]);
    expect(frames.some((f) => f.kind === 'error')).toBe(false);
    expect(
      frames
        .filter((f) => f.method === 'tools/call' && f.direction === 'in' && f.kind === 'message')
        .map((f) => (f.body as { error?: { message: string } }).error?.message),
    ).toEqual(['injected', undefined]);
  });
});

describe('tap --open', () => {
  it('starts a Loupe when none runs on the data directory, and the tap is live in it', async () => {
    const dataDir = path.join(tempDir(), 'fresh');
    const child = spawn(
      process.execPath,
      [CLI, 'tap', '--open', '--data-dir', dataDir, '--', process.execPath, path.join(ROOT, 'tests/fixtures/servers/sdk1-stdio-server.mjs')],
      {
        cwd: ROOT,
        env: { ...process.env, CI: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let err = '';
    let out = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => (out += d));
    await expect.poll(() => /Loupe is running: (http:\S+)\/\?token=(\S+)/.test(err), { timeout: 20_000 }).toBe(true);
    const [, url, link] = /Loupe is running: (http:\S+)\/\?token=(\S+)/.exec(err)!;
    // The printed link signs a browser in once; the control token stays in the owner-only advert.
    const { token } = JSON.parse(fs.readFileSync(path.join(dataDir, 'loupe-server.json'), 'utf8')) as { token: string };
    expect(link).not.toBe(token);
    child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    const list = async () => {
      const res = await fetch(`${url}/api/taps`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { taps: { frames: number; transport: string }[] }).taps;
    };
    await expect.poll(async () => (await list())[0]?.frames ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect((await list())[0]?.transport).toBe('stdio');
    // With CI set no browser is opened; the tap says so on stderr, never on stdout.
    expect(err).toContain('not opening a browser');
    expect(
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    child.stdin!.end();
  });
});
