import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes';
import type { WireMessage } from './wire';

/** `mcp-loupe mock --stdio`: newline-delimited JSON-RPC, cancellation by notifications/cancelled. */

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let child: ChildProcess | undefined;
let dataDir: string | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function start(scenario: string) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-stdio-'));
  child = spawn(process.execPath, [path.join(ROOT, 'bin/mcp-loupe.mjs'), 'mock', scenario, '--stdio', '--data-dir', dataDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const messages: WireMessage[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    messages.push(JSON.parse(line));
    for (const w of waiters.splice(0)) w();
  });
  const send = (m: unknown) => child!.stdin!.write(`${JSON.stringify(m)}\n`);
  const until = async (pred: (m: WireMessage) => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = messages.find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(messages)}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  return { send, until, messages };
}

describe('stdio transport', () => {
  it('answers requests line by line, and a malformed line with -32700 without stopping', async () => {
    const s = start('demo');
    s.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    expect((await s.until((m) => m.id === 1)).result).toMatchObject({ resultType: 'complete', ttlMs: 300000 });
    child!.stdin!.write('{not json\n');
    expect((await s.until((m) => m.error?.code === -32700)).id).toBeNull();
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { _meta: META, name: 'echo', arguments: { text: 'still here' } } });
    expect((await s.until((m) => m.id === 2)).result.content[0].text).toBe('still here');
  });

  it("says on stderr that a scenario's faults are not applied over stdio, naming them", async () => {
    const s = start(path.join(ROOT, 'examples', 'faults.yaml'));
    let stderr = '';
    child!.stderr!.on('data', (d) => (stderr += d));
    s.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    await s.until((m) => m.id === 1);
    expect(stderr).toContain("note: the scenario's 5 faults act on HTTP only; over stdio they are not applied (first-forecast-crashes, gateway-503");
  });

  it('answers a request whose id is not a string or number with -32600 (id null), as over HTTP, instead of dropping it as a notification', async () => {
    const s = start('demo');
    for (const id of [{ a: 1 }, [1], true]) {
      const before = s.messages.length;
      s.send({ jsonrpc: '2.0', id, method: 'ping' });
      const refused = await s.until((m) => s.messages.indexOf(m) >= before && m.error?.code === -32600);
      expect(refused.id, JSON.stringify(id)).toBeNull();
    }
    // A notification (no id at all) is still never answered: the next answer is the ping's.
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 9, method: 'ping' });
    await s.until((m) => m.id === 9);
    expect(s.messages).toHaveLength(4);
  });

  it('stops a request on notifications/cancelled and never answers it', async () => {
    const s = start('conformance');
    s.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'tools/call',
      params: { _meta: { ...META, progressToken: 'p1' }, name: 'test_tool_with_progress', arguments: {} },
    });
    await s.until((m) => m.method === 'notifications/progress');
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'user pressed stop' } });
    s.send({ jsonrpc: '2.0', id: 'after', method: 'tools/list', params: { _meta: META } });
    await s.until((m) => m.id === 'after');
    await new Promise((r) => setTimeout(r, 400));
    expect(s.messages.some((m) => m.id === 'slow')).toBe(false);
    expect(s.messages.filter((m) => m.method === 'notifications/progress').length).toBeLessThan(3);
  });

  it('ends a listen on notifications/cancelled without answering it (the client cancelled it; only a server-ended listen gets a final result)', async () => {
    const s = start('demo');
    const caps = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': caps };
    s.send({ jsonrpc: '2.0', id: 'task', method: 'tools/call', params: { _meta: meta, name: 'generate_report', arguments: { size: 'large' } } });
    const taskId = (await s.until((m) => m.id === 'task')).result.taskId as string;
    s.send({ jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { _meta: meta, notifications: { taskIds: [taskId] } } });
    await s.until((m) => m.method === 'notifications/subscriptions/acknowledged');
    s.send({ jsonrpc: '2.0', id: 'cancel', method: 'tasks/cancel', params: { _meta: meta, taskId } });
    await s.until((m) => m.id === 'cancel');
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L', reason: 'done listening' } });
    s.send({ jsonrpc: '2.0', id: 'after', method: 'ping', params: { _meta: META } });
    await s.until((m) => m.id === 'after');
    await new Promise((r) => setTimeout(r, 400));
    expect(s.messages.filter((m) => m.id === 'L')).toEqual([]);
  });

  it('caps a line at maxBodyBytes (4 MiB by default), as HTTP caps a body: a 64 MB line is answered -32600 and dropped without being held', async () => {
    const s = start('demo');
    // Peak resident memory of the mock, from /proc (Linux): a line held whole would add its size several times over.
    const peakKb = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child!.pid}/status`, 'utf8'))![1]);
    s.send({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: META } });
    await s.until((m) => m.id === 0);
    const before = peakKb();
    const chunk = Buffer.alloc(1 << 20, 'x');
    child!.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"');
    for (let i = 0; i < 64; i++) if (!child!.stdin!.write(chunk)) await new Promise((r) => child!.stdin!.once('drain', r));
    child!.stdin!.write('"}}}\n');
    const refused = await s.until((m) => m.id === null && m.error?.code === -32600);
    expect(refused.error.message).toMatch(
      /^Request too large: a line of 671\d{5} bytes exceeds the limit of 4194304 bytes \(the scenario's settings\.maxBodyBytes\)/,
    );
    expect(peakKb() - before).toBeLessThan(48 * 1024);
    s.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { _meta: META, name: 'echo', arguments: { text: 'after the flood' } } });
    expect((await s.until((m) => m.id === 2)).result.content[0].text).toBe('after the flood');
    expect(s.messages.some((m) => m.id === 1)).toBe(false);
  });
});
