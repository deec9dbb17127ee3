import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecordingText } from '../../../lib/recording/open';
import { createMockHost, type MockHost } from '../../../lib/server/mock-host';
import { createMockRouter } from '../../../lib/server/mock-router';
import { createReplayServerHandler } from '../../../lib/server/replay-server';

/** `GET /healthz` on the CLI's servers: `mcp-loupe mock` (the mock router) and `mcp-loupe replay`. */

const health = (host: string, method = 'GET') => new Request('http://127.0.0.1:3001/healthz', { method, headers: { host } });

describe('/healthz', () => {
  let dir: string;
  let mockHost: MockHost;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-healthz-'));
    mockHost = createMockHost({ dataDir: dir });
  });
  afterAll(() => {
    mockHost.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers on the mock router without a token, after the Host check', async () => {
    const router = createMockRouter(mockHost, 'demo', { token: 'secret' });
    const ok = await router.fetch(health('127.0.0.1:3001'));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'ok' });
    expect((await router.fetch(health('localhost:3001', 'HEAD'))).status).toBe(200);
    expect((await router.fetch(health('evil.example:3001'))).status).toBe(403);
    expect((await router.fetch(health('127.0.0.1:3001', 'POST'))).status).toBe(405);
  });

  it('answers on a replayed recording, whose POSTs still replay on any path', async () => {
    const text = fs.readFileSync(path.join(__dirname, '../../fixtures/recordings/v2.json'), 'utf8');
    const opened = openRecordingText(text);
    if (!opened.ok) throw new Error(opened.error);
    const replay = createReplayServerHandler(opened.recording);
    const ok = await replay.fetch(health('127.0.0.1:3002'));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'ok' });
    expect((await replay.fetch(health('evil.example:3002'))).status).toBe(403);
    const post = new Request('http://127.0.0.1:3002/healthz', {
      method: 'POST',
      headers: { host: '127.0.0.1:3002', 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }),
    });
    expect((await (await replay.fetch(post)).json()) as object).toHaveProperty('jsonrpc', '2.0');
  });
});
