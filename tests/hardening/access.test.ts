import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { ROOT, startCliMock, type Started } from '../helpers/processes';
import { httpTarget } from '../integration/http-target';
import { raw } from './raw-http';

/**
 * The attack surfaces of DESIGN.md "Security": the control API and the proxy refuse what they
 * must, /mcp refuses DNS rebinding, nothing binds a public interface by accident, and task ids
 * of another principal answer exactly like unknown ones.
 */

const run = promisify(execFile);
let mock: Started;
let dataDir: string;
let port: number;
let host: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-hardening-'));
  mock = await startCliMock(['demo', '--data-dir', dataDir]);
  port = mock.port;
  host = `127.0.0.1:${port}`;
});
afterAll(async () => {
  await mock?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('control API', () => {
  const reset = (headers: Record<string, string>) =>
    raw(port, { method: 'POST', path: '/api/scenarios/demo/reset', headers: { Host: host, 'Content-Type': 'application/json', ...headers }, body: '{}' });

  it('refuses a missing or wrong token', async () => {
    expect((await reset({})).status).toBe(401);
    expect((await reset({ Authorization: 'Bearer not-the-token' })).status).toBe(401);
    expect((await raw(port, { path: '/api/scenarios', headers: { Host: host } })).status).toBe(401);
  });

  it('refuses a foreign Origin even with the token', async () => {
    expect((await reset({ Authorization: `Bearer ${mock.token}`, Origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await reset({ Authorization: `Bearer ${mock.token}`, Origin: 'http://127.0.0.1:1' })).status).toBe(403);
  });

  it('never takes the launch token from a cookie (a cookie reaches every port of the host)', async () => {
    expect((await reset({ Cookie: `loupe_token=${mock.token}` })).status).toBe(401);
    expect((await reset({ Cookie: `loupe_token=${mock.token}`, Origin: `http://${host}`, 'X-Loupe-Request': '1' })).status).toBe(401);
  });

  it('refuses a non-loopback Host (DNS rebinding)', async () => {
    expect((await reset({ Authorization: `Bearer ${mock.token}`, Host: 'evil.example.com' })).status).toBe(403);
  });

  it('accepts the explicit token from a CLI with no Origin', async () => {
    expect((await reset({ Authorization: `Bearer ${mock.token}` })).status).toBe(200);
  });
});

describe('proxy', () => {
  const proxy = (target: unknown, headers: Record<string, string> = { Authorization: `Bearer ${mock.token}` }) =>
    raw(port, { method: 'POST', path: '/api/proxy', headers: { Host: host, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(target) });
  const mcpCall = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' };

  it('needs the token', async () => {
    expect((await proxy({ url: `http://${host}/mcp`, ...mcpCall }, {})).status).toBe(401);
  });

  it("refuses Loupe's own control routes as a target", async () => {
    for (const url of [`http://${host}/api/scenarios/demo/reset`, `http://localhost:${port}/api/proxy`, `http://[::1]:${port}/api/scenarios`]) {
      const r = await proxy({ url, ...mcpCall });
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      expect(r.status, url).toBeLessThan(500);
    }
  });

  it('refuses targets that are not http(s)', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x', 'javascript:alert(1)', 'data:text/plain,hi', 'not a url']) {
      const r = await proxy({ url, ...mcpCall });
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      expect(r.status, url).toBeLessThan(500);
    }
  });

  it('refuses a foreign Origin', async () => {
    expect((await proxy({ url: `http://${host}/mcp`, ...mcpCall }, { Authorization: `Bearer ${mock.token}`, Origin: 'http://evil.example.com' })).status).toBe(
      403,
    );
  });
});

describe('/mcp', () => {
  it('refuses a non-loopback Host and a foreign Origin with 403', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
    expect((await raw(port, { method: 'POST', path: '/mcp', headers: { Host: 'evil.example.com', 'Content-Type': 'application/json' }, body })).status).toBe(
      403,
    );
    expect(
      (await raw(port, { method: 'POST', path: '/mcp', headers: { Host: host, Origin: 'http://evil.example.com', 'Content-Type': 'application/json' }, body }))
        .status,
    ).toBe(403);
  });

  it('answers a scenario id named like an Object property with 404, and keeps serving', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
    const headers = { Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    for (const id of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      const res = await raw(port, { method: 'POST', path: `/mcp/${id}`, headers, body });
      expect(res.status, id).toBe(404);
      const source = await raw(port, { path: `/api/scenarios/${id}/source`, headers: { Host: host, Authorization: `Bearer ${mock.token}` } });
      expect([400, 404], `${id}: ${source.text}`).toContain(source.status);
    }
    expect((await raw(port, { path: '/healthz', headers: { Host: host } })).status).toBe(200);
  });
});

describe('/healthz', () => {
  it('answers without a token, but only to a loopback Host', async () => {
    const ok = await raw(port, { path: '/healthz', headers: { Host: host } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ status: 'ok' });
    expect((await raw(port, { path: '/healthz', headers: { Host: 'evil.example.com' } })).status).toBe(403);
  });
});

describe('binding', () => {
  it('mcp-loupe mock refuses 0.0.0.0 without --allow-remote', async () => {
    const r = await run(process.execPath, [
      path.join(ROOT, 'bin/mcp-loupe.mjs'),
      'mock',
      'demo',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ]).catch((e: { code: number; stderr: string }) => e);
    expect((r as { code: number }).code).toBe(2);
    expect((r as { stderr: string }).stderr).toMatch(/Refusing to bind 0\.0\.0\.0/);
  });

  it('npm start refuses HOST=0.0.0.0 without --allow-remote', async () => {
    const r = await run(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], { env: { ...process.env, HOST: '0.0.0.0', PORT: '0' } }).catch(
      (e: { code: number; stderr: string; stdout: string }) => e,
    );
    expect((r as { code: number }).code).not.toBe(0);
    expect(`${(r as { stderr: string }).stderr}${(r as { stdout: string }).stdout}`).toMatch(/refusing to listen on 0\.0\.0\.0/);
  });
});

describe('task ids belong to a principal', () => {
  it("answers another principal's task id exactly like an unknown one", async () => {
    const target = httpTarget(mock.url);
    const created = await callTool(
      target,
      'generate_report',
      { size: 'small' },
      target.opts({ caps: CAPS.formAndTasks, headers: { Authorization: 'Bearer alice-token' } }),
    );
    const taskId = created.body.result.taskId as string;
    const unknownId = `${taskId.slice(0, -4)}zzzz`;
    for (const method of ['tasks/get', 'tasks/cancel'] as const) {
      const foreign = await rpc(
        target,
        method,
        { taskId },
        target.opts({ caps: CAPS.formAndTasks, headers: { Authorization: 'Bearer mallory-token' }, id: 7 }),
      );
      const unknown = await rpc(
        target,
        method,
        { taskId: unknownId },
        target.opts({ caps: CAPS.formAndTasks, headers: { Authorization: 'Bearer mallory-token' }, id: 7 }),
      );
      expect(foreign.status).toBe(unknown.status);
      expect(foreign.body).toEqual(unknown.body);
      expect(foreign.body.error?.code).toBe(-32602);
    }
    const owner = await rpc(target, 'tasks/get', { taskId }, target.opts({ caps: CAPS.formAndTasks, headers: { Authorization: 'Bearer alice-token' } }));
    expect(owner.body.result.taskId).toBe(taskId);
  });
});
