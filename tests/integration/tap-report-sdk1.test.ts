import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTapProcess, type Started } from '../helpers/processes';

/**
 * `mcp-loupe tap --report` between the official SDK 1.32.2 client and server (2025-11-25,
 * Streamable HTTP with sessions) doing an elicitation round: the client opens its GET stream,
 * the server asks elicitation/create on the tools/call stream, the client POSTs its answer.
 * All of it is correct JSON-RPC, so a CI run with the report must pass: 0 errors.
 * Needs `npm run build:cli`.
 */

let dir: string;
let server: ChildProcess;
let upstream: string;
let tap: Started;
let text: string;
let requests: { headers?: Record<string, string>; body?: Record<string, unknown> }[];
let report: { summary: { errors: number }; rules: { id: string; findings: { severity: string; message: string }[] }[] };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tap-sdk1-'));
  server = spawn(process.execPath, [path.join(ROOT, 'tests/fixtures/servers/sdk1-elicit.mjs'), '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the SDK 1.32.2 server did not start: ${out}`)), 15_000);
    server.stdout?.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  upstream = `http://127.0.0.1:${port}/mcp`;
  const file = path.join(dir, 'report.json');
  tap = await startTapProcess(['--upstream', upstream, '--data-dir', dir, '--report', file, '--record', path.join(dir, 'tap.loupe.json')]);
  const client = new Client({ name: 'sdk1-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(tap.url)));
  try {
    const out = await client.callTool({ name: 'confirm_delete', arguments: { id: 'n1' } });
    text = (out.content as { text: string }[])[0]!.text;
    // Give the client's GET stream time to open before the tap ends.
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    await client.close();
  }
  await tap.stop();
  report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const recording = JSON.parse(fs.readFileSync(path.join(dir, 'tap.loupe.json'), 'utf8')) as { frames: { kind: string; body?: never; headers?: never }[] };
  requests = recording.frames.filter((f) => f.kind === 'http-request');
}, 60_000);

afterAll(async () => {
  await tap?.stop();
  server?.kill('SIGTERM');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('tap --report: SDK 1.32.2 client → tap → SDK 1.32.2 server, an elicitation round', () => {
  it('relays the round: the server got the answer the client POSTed', () => {
    expect(text).toBe('elicitation accept {"confirm":true}');
  });

  it('saw the shapes at stake: a GET without body and the POSTed answer to elicitation/create', () => {
    expect(requests.some((r) => r.body === undefined && r.headers?.accept === 'text/event-stream')).toBe(true);
    expect(requests.map((r) => r.body).filter((b) => b && !('method' in b))).toEqual([
      { jsonrpc: '2.0', id: expect.anything(), result: { action: 'accept', content: { confirm: true } } },
    ]);
  });

  it('reports 0 errors: the POSTed answer and the GET stream are legal 2025-11-25 messages', () => {
    const errors = report.rules.flatMap((r) => r.findings.filter((f) => f.severity === 'error').map((f) => `${r.id}: ${f.message}`));
    expect(errors).toEqual([]);
    expect(report.summary.errors).toBe(0);
  });
});

describe('tap --report under a doubled SIGTERM', () => {
  it('still writes the report when the signal comes more than once (GNU timeout signals the child and its group)', async () => {
    const file = path.join(dir, 'twice.json');
    const twice = await startTapProcess(['--upstream', upstream, '--data-dir', dir, '--report', file]);
    // A client still connected, its GET stream open: closing the tap takes a moment.
    const client = new Client({ name: 'sdk1-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(twice.url)));
    await client.listTools();
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => twice.child.once('exit', (code, signal) => resolve([code, signal])));
    // Signal again and again until it exits: one lands while the tap is closing, as the second one
    // of a GNU timeout does at random.
    const pid = twice.child.pid!;
    const again = setInterval(() => {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* exited */
      }
    }, 1);
    try {
      expect(await exited).toEqual([0, null]);
    } finally {
      clearInterval(again);
    }
    await client.close().catch(() => {});
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ format: 'mcp-loupe-report', summary: { errors: 0 } });
  });
});
