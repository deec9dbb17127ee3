import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, freePort } from '../helpers/processes';

/** `npm start` (scripts/start.mjs) serves the app and /mcp on 127.0.0.1 and prints a token URL. */
describe('npm start', () => {
  let child: ChildProcess | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-start-'));
  afterAll(async () => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the URL with a token and answers server/discover on /mcp', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), LOUPE_DATA_DIR: dataDir },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not print its URL:\n${out}`)), 150_000);
      child!.stdout!.on('data', () => {
        const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    expect(new URL(url).port).toBe(String(port));
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { id: number; result: Record<string, unknown> };
    expect(body.id).toBe(1);
    expect(body.result).toMatchObject({ resultType: 'complete', supportedVersions: ['2026-07-28', '2025-11-25'], ttlMs: 300000, cacheScope: 'public' });
    expect((body.result._meta as Record<string, { name: string }>)['io.modelcontextprotocol/serverInfo'].name).toBe('loupe-demo');

    // The same server answers /healthz and serves the exported pages, after the token exchange.
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
    const exchange = await fetch(url, { redirect: 'manual' });
    expect(exchange.status).toBe(303);
    // The clean URL, with the session's request key in the fragment (lib/server/launch-access.ts).
    expect(exchange.headers.get('location')).toMatch(/^\/#loupe-key=[\w-]+$/);
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toContain('<title>Loupe</title>');
  });
});
