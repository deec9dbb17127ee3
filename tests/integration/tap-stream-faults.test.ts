import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../lib/client/frames';
import { createTapObserver } from '../../lib/recording/tap-frames';
import type { TapFaultEntry } from '../../lib/scenario/tap-faults';
import { createTapFaults } from '../../lib/server/tap-faults';
import { startHttpTap } from '../../lib/server/tap-http';
import { runStdioTap } from '../../lib/server/tap-stdio';

/**
 * The stream faults on both taps, on real connections: a dropped stream, a stalled one, a frame
 * that is not JSON, notifications sent twice. Over HTTP against a raw node:http upstream that
 * answers a tools/call with an SSE stream (two progress notifications, then the result); over
 * stdio through the stdio tap (as `mcp-loupe tap -- …` runs it) in front of a small line server that does the same. Each fault
 * is what the client gets, and is marked with a `fault` frame naming it.
 */

const NOTE = (n: number) => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n}}}`;
const RESULT = '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}';
const CALL = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{}}}';

const fault = (id: string, action: TapFaultEntry['fault']['action']): TapFaultEntry[] => [
  { id, enabled: true, fault: { name: id, match: { method: 'tools/call' }, action } },
];

describe('stream faults on the HTTP tap', () => {
  let upstream: http.Server;
  let upstreamUrl: string;
  /** Resolves when the upstream has written its whole answer to the newest request. */
  let answered: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        answered = new Promise((done) => res.on('finish', () => done()));
        // A client that takes only JSON gets the result as one JSON body.
        if (!req.headers.accept?.includes('text/event-stream')) return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(RESULT);
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end(`data: ${NOTE(1)}\n\ndata: ${NOTE(2)}\n\ndata: ${RESULT}\n\n`);
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
  });

  /** One tools/call through a tap with these faults: the text the client got, whether its stream failed, and the frames. */
  async function through(entries: TapFaultEntry[], opts: { abortAfterUpstream?: boolean; accept?: string } = {}) {
    const frames: Frame[] = [];
    const tap = await startHttpTap({
      upstream: new URL(upstreamUrl),
      host: '127.0.0.1',
      port: 0,
      observer: createTapObserver({ sink: (f) => frames.push(f), connectionId: 't' }),
      faults: createTapFaults(entries),
    });
    const controller = new AbortController();
    let text = '';
    let failed = false;
    try {
      const res = await fetch(tap.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: opts.accept ?? 'application/json, text/event-stream' },
        body: CALL,
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      if (opts.abortAfterUpstream) {
        // The upstream has said everything; a stalled stream still holds it back. Then the client gives up.
        void answered.then(() => setTimeout(() => controller.abort(), 300));
      }
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      failed = true;
    }
    const ended = opts.accept ? (f: Frame) => f.kind === 'fault' : (f: Frame) => f.kind === 'sse-close';
    await expect.poll(() => frames.some(ended)).toBe(true);
    await tap.close();
    return { text, failed, frames };
  }

  it('drop: the stream is cut after the first event, the result never comes, the close says so', async () => {
    const { text, failed, frames } = await through(fault('cut', { kind: 'drop', afterEvents: 1 }));
    expect(failed).toBe(true);
    expect(text).toBe(`data: ${NOTE(1)}\n\n`);
    expect(frames.find((f) => f.kind === 'fault')?.fault).toMatchObject({ rule: 'cut', kind: 'drop', request: 'tools/call slow' });
    expect(frames.find((f) => f.kind === 'sse-close')).toMatchObject({ closeReason: 'network-error' });
  });

  it('drop on an answer that is not a stream: the JSON passes untouched, and the mark says the fault did not apply', async () => {
    const { text, failed, frames } = await through(fault('cut', { kind: 'drop', afterEvents: 0 }), { accept: 'application/json' });
    expect(failed).toBe(false);
    expect(text).toBe(RESULT);
    expect(frames.filter((f) => f.kind === 'fault').map((f) => f.fault)).toEqual([
      expect.objectContaining({ rule: 'cut', kind: 'drop', note: 'the answer was not an SSE stream: not applied' }),
    ]);
  });

  it('stall: after the first event nothing more is relayed, not even the end', async () => {
    const { text, failed, frames } = await through(fault('hold', { kind: 'stall', afterEvents: 1 }), { abortAfterUpstream: true });
    expect(failed).toBe(true);
    expect(text).toBe(`data: ${NOTE(1)}\n\n`);
    expect(frames.filter((f) => f.kind === 'sse-frame')).toHaveLength(1);
    expect(frames.find((f) => f.kind === 'fault')?.fault).toMatchObject({ rule: 'hold', kind: 'stall' });
    expect(frames.find((f) => f.kind === 'sse-close')).toMatchObject({ closeReason: 'client-closed' });
  });

  it('garbage: a frame that is not JSON comes first, then the stream as the server sent it', async () => {
    const { text, frames } = await through(fault('junk', { kind: 'garbage', afterEvents: 0 }));
    expect(text).toBe(`data: {"jsonrpc":"2.0","id":\n\ndata: ${NOTE(1)}\n\ndata: ${NOTE(2)}\n\ndata: ${RESULT}\n\n`);
    expect(frames.filter((f) => f.kind === 'sse-frame')[0]).toMatchObject({ errorText: expect.stringContaining('not JSON') });
    expect(frames.find((f) => f.kind === 'fault')?.fault).toMatchObject({ rule: 'junk', kind: 'garbage' });
  });

  it('duplicate: every notification comes twice, the result once', async () => {
    const { text, frames } = await through(fault('twice', { kind: 'duplicate' }));
    expect(text).toBe(`data: ${NOTE(1)}\n\ndata: ${NOTE(1)}\n\ndata: ${NOTE(2)}\n\ndata: ${NOTE(2)}\n\ndata: ${RESULT}\n\n`);
    expect(frames.filter((f) => f.kind === 'sse-frame').map((f) => f.raw)).toEqual([NOTE(1), NOTE(1), NOTE(2), NOTE(2), RESULT]);
    expect(frames.find((f) => f.kind === 'fault')?.fault).toMatchObject({ rule: 'twice', kind: 'duplicate' });
  });
});

describe('stream faults on the stdio tap', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tap-stdio-faults-'));
  const server = path.join(dir, 'line-server.mjs');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeAll(() => {
    // A line server: a tools/call gets two progress notifications, then its result.
    fs.writeFileSync(
      server,
      `import readline from 'node:readline';
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method !== 'tools/call') return;
  process.stdout.write(${JSON.stringify(`${NOTE(1)}\n${NOTE(2)}\n`)});
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [] } }) + '\\n');
});
`,
    );
  });

  /** One tools/call through the stdio tap with these faults (the lines the client got, and the frames). */
  async function through(entries: TapFaultEntry[]) {
    const frames: Frame[] = [];
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const exited = runStdioTap({
      command: process.execPath,
      args: [server],
      observer: createTapObserver({ sink: (f) => frames.push(f), connectionId: 's' }),
      stdin,
      stdout,
      stderr: new PassThrough(),
      faults: createTapFaults(entries),
    });
    stdin.write(`${CALL}\n`);
    await expect.poll(() => out.includes('"id":7,"result"'), { timeout: 20_000 }).toBe(true);
    stdin.end();
    await exited;
    return { lines: out.split('\n').filter(Boolean), frames };
  }

  it('garbage: a line that is not JSON reaches the client before the answer', async () => {
    const { lines, frames } = await through(fault('junk', { kind: 'garbage', afterEvents: 0 }));
    expect(lines).toEqual(['{"jsonrpc":"2.0","id":', NOTE(1), NOTE(2), RESULT]);
    expect(frames.find((f) => f.kind === 'fault')?.fault).toMatchObject({ rule: 'junk', kind: 'garbage', request: 'tools/call slow' });
  });

  it('duplicate: the notifications of the call come twice, its answer once', async () => {
    const { lines, frames } = await through(fault('twice', { kind: 'duplicate' }));
    expect(lines).toEqual([NOTE(1), NOTE(1), NOTE(2), NOTE(2), RESULT]);
    expect(frames.filter((f) => f.direction === 'in' && f.kind === 'message').map((f) => f.raw ?? JSON.stringify(f.body))).toEqual([
      NOTE(1),
      NOTE(1),
      NOTE(2),
      NOTE(2),
      RESULT,
    ]);
  });

  it('drop and stall have no stdio form: the call passes, and the mark says the fault did not apply', async () => {
    const { lines, frames } = await through([...fault('cut', { kind: 'drop', afterEvents: 1 }), ...fault('hold', { kind: 'stall', afterEvents: 0 })]);
    expect(lines).toEqual([NOTE(1), NOTE(2), RESULT]);
    expect(frames.filter((f) => f.kind === 'fault').map((f) => f.fault)).toEqual([
      { rule: 'cut', kind: 'drop', request: 'tools/call slow', note: 'no stdio form: not applied' },
      { rule: 'hold', kind: 'stall', request: 'tools/call slow', note: 'no stdio form: not applied' },
    ]);
  });
});
