import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecording } from '../../lib/recording/schema';
import { startCliMock, startTapProcess, type Started } from '../helpers/processes';

/**
 * `mcp-loupe tap --upstream` holds a request's Origin to the rule `mock` and `open` use: a page
 * of another site gets 403 from the tap itself, the upstream never sees the request and the
 * user's recording never holds it; a loopback page, or a client that sends no Origin, goes
 * through. The upstream is a plain node:http server that checks nothing, as many MCP servers
 * do, so whatever the tap lets through is answered. Needs `npm run build:cli`.
 */

const BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';

let dir: string;
let upstream: http.Server;
let tap: Started;
/** The Origin header of every request the upstream received. */
const reached: (string | undefined)[] = [];

function post(origin?: string, url = tap.url): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (origin) headers.Origin = origin;
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tap-origin-'));
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      reached.push(req.headers.origin);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  tap = await startTapProcess(['--upstream', upstreamUrl, '--data-dir', dir, '--no-live', '--record', path.join(dir, 'tap.loupe.json')]);
});
afterAll(async () => {
  await tap?.stop();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('HTTP tap: the Origin check of mock', () => {
  it('refuses a foreign Origin with the JSON-RPC error code mock uses (-32600 Invalid Request, not -32603 Internal error)', async () => {
    const mock = await startCliMock(['demo', '--store', 'memory', '--data-dir', path.join(dir, 'mock')]);
    try {
      const fromMock = await post('https://evil.example', mock.url);
      expect(fromMock.status).toBe(403);
      const mockCode = JSON.parse(fromMock.text).error.code;
      expect(mockCode).toBe(-32600);
      const fromTap = await post('https://evil.example');
      expect(fromTap.status).toBe(403);
      expect(JSON.parse(fromTap.text).error.code).toBe(mockCode);
    } finally {
      await mock.stop();
    }
  });

  it('answers a foreign Origin 403 itself, relays a loopback one and one without Origin, and records only those', async () => {
    for (const origin of ['https://evil.example', 'http://attacker.localhost.evil.example:80', 'null']) {
      const refused = await post(origin);
      expect(refused.status, origin).toBe(403);
      expect(refused.text, origin).toContain('Origin is not allowed');
    }
    expect(reached).toEqual([]);

    expect((await post(`http://localhost:${tap.port}`)).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(reached).toEqual([`http://localhost:${tap.port}`, undefined]);

    await tap.stop();
    const file = path.join(dir, 'tap.loupe.json');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('evil.example');
    const opened = parseRecording(text);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.recording.frames.filter((f) => f.kind === 'http-request')).toHaveLength(2);
  });
});
