import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../lib/client/http-transport';
import type { TransportEvent } from '../../lib/client/transport';
import { startAppServer, type AppServer } from '../../lib/server/app-server';
import { CAPS, callTool } from '../helpers/rpc';
import { httpTarget } from '../integration/http-target';
import { raw } from './raw-http';
import { openLink, type BrowserSession } from './session';

/**
 * A hostile upstream behind the proxy: it answers redirects into Loupe's own API and headers
 * that would log the user out or pose as Loupe. The proxy refuses every redirect (502
 * `redirect`, no Location), so nothing reaches the API; the client shows the refusal; the
 * cookie alone, as a form or a followed redirect would carry it, opens nothing.
 */

let tmp: string;
let app: AppServer;
let upstream: http.Server;
let upstreamUrl: string;
let session: BrowserSession;
/** Every request the app server received, as `METHOD path`. */
const seen: string[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-redirects-'));
  app = await startAppServer({ port: 0, dataDir: path.join(tmp, 'data'), pages: (_req, res) => res.end('<!doctype html><title>page</title>') });
  app.server.prependListener('request', (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`));
  upstream = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream.invalid');
    const status = Number(url.pathname.slice(1));
    if (status >= 300 && status < 400) {
      res.writeHead(status, { Location: `http://127.0.0.1:${app.port}${url.searchParams.get('to')}` });
      return res.end();
    }
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Clear-Site-Data': '"cookies", "storage"',
      'X-Loupe-Proxy-Error': 'self',
      'X-Loupe-Builtin': 'true',
      'X-Upstream': 'kept',
    });
    res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  session = await openLink(app.port, app.link());
});
afterAll(async () => {
  await new Promise((r) => upstream?.close(r));
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const host = () => `127.0.0.1:${app.port}`;
/** What Loupe's own page sends: its cookie, its key, its Origin. */
const pageHeaders = () => ({
  Host: host(),
  Origin: `http://${host()}`,
  Cookie: session.cookie,
  'X-Loupe-Request': session.key,
  'Content-Type': 'application/json',
});
const viaProxy = (url: string, headers: Record<string, string> = pageHeaders()) =>
  raw(app.port, {
    method: 'POST',
    path: '/api/proxy',
    headers,
    body: JSON.stringify({ url, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
  });
const taskIds = async () => {
  const res = await raw(app.port, { path: '/api/scenarios/demo/tasks', headers: { Host: host(), Authorization: `Bearer ${app.token}` } });
  return (JSON.parse(res.text) as { tasks: { taskId: string }[] }).tasks.map((t) => t.taskId).sort();
};

describe('redirects from the upstream', () => {
  it('are refused with a specific error, and nothing reaches the API', async () => {
    const mcp = httpTarget(`${app.url}/mcp`);
    await callTool(mcp, 'generate_report', { size: 'small' }, mcp.opts({ caps: CAPS.formAndTasks }));
    await callTool(mcp, 'generate_report', { size: 'large' }, mcp.opts({ caps: CAPS.formAndTasks }));
    const charge = () => callTool(mcp, 'charge', { account: 'acct_1', amountCents: 500, idempotencyKey: 'k-redirect' }, mcp.opts());
    const receipt = (await charge()).body.result.structuredContent.receipt;
    const before = await taskIds();
    expect(before).toHaveLength(2);
    seen.length = 0;
    for (const status of [301, 302, 303, 307, 308]) {
      for (const to of ['/api/scenarios/demo/reset', '/api/recordings', '/api/proxy/stdio']) {
        const res = await viaProxy(`${upstreamUrl}/${status}?to=${to}`);
        expect(res.status, `${status} → ${to}`).toBe(502);
        expect(res.headers['x-loupe-proxy-error']).toBe('redirect');
        expect(res.headers.location).toBeUndefined();
        expect(JSON.parse(res.text).error).toContain(`answered ${status} redirecting to "http://${host()}${to}"`);
      }
    }
    expect(seen.every((r) => r === 'POST /api/proxy')).toBe(true);
    expect(seen).toHaveLength(15);
    // A reset would have emptied both: the tasks are there, and the ledger answers the same receipt.
    expect(await taskIds()).toEqual(before);
    const retried = (await charge()).body.result.structuredContent;
    expect(retried).toMatchObject({ replayed: true, receipt });
  });

  it('reach the timeline as a proxy error through the inspector transport', async () => {
    // Node's fetch carries no cookie jar: add the page's credentials as the browser would.
    const withSession = (input: string, init: RequestInit) =>
      fetch(input, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), Cookie: session.cookie, 'X-Loupe-Request': session.key, Origin: `http://${host()}` },
      });
    const transport = createHttpTransport({
      url: `${upstreamUrl}/307?to=/api/scenarios/demo/reset`,
      proxy: { endpoint: `${app.url}/api/proxy` },
      fetch: withSession,
    });
    const events: TransportEvent[] = [];
    for await (const e of transport.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} })) events.push(e);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'error',
        cause: 'proxy',
        message: expect.stringMatching(/^Proxy refused the request \(redirect\): .* answered 307 redirecting to/),
      }),
    );
    expect(events.some((e) => e.type === 'response')).toBe(false);
  });
});

describe('the custom request header', () => {
  const reset = (headers: Record<string, string>) => raw(app.port, { method: 'POST', path: '/api/scenarios/demo/reset', headers, body: '{}' });

  it('is required beside the session cookie: a form or a followed redirect carries only the cookie', async () => {
    const { 'X-Loupe-Request': _key, ...cookieOnly } = pageHeaders();
    expect((await reset({ ...cookieOnly, 'Content-Type': 'application/x-www-form-urlencoded' })).status).toBe(401);
    expect((await reset(cookieOnly)).status).toBe(401);
    const guessed = await reset({ ...cookieOnly, 'X-Loupe-Request': '1' });
    expect(guessed.status).toBe(401);
    expect(JSON.parse(guessed.text).error).toMatch(/X-Loupe-Request/);
    expect((await viaProxy(`${upstreamUrl}/200`, cookieOnly)).status).toBe(401);
    expect((await reset(pageHeaders())).status).toBe(200);
  });
});

describe('headers from the upstream', () => {
  it('drops Clear-Site-Data and every x-loupe-* header, keeps the rest', async () => {
    const res = await viaProxy(`${upstreamUrl}/200`);
    expect(res.status).toBe(200);
    expect(res.headers['clear-site-data']).toBeUndefined();
    expect(res.headers['x-loupe-proxy-error']).toBeUndefined();
    expect(res.headers['x-loupe-builtin']).toBeUndefined();
    expect(res.headers['x-upstream']).toBe('kept');
  });
});

describe('framing', () => {
  it("Loupe's pages refuse every frame; the sandbox page admits only the inspector's origin", async () => {
    for (const p of ['/', '/scenarios/demo', '/recording']) {
      const page = await raw(app.port, { path: p, headers: { Host: host() } });
      expect(page.headers['content-security-policy'], p).toBe("frame-ancestors 'none'");
      expect(page.headers['x-frame-options'], p).toBe('DENY');
    }
    const sandbox = await raw(app.port, {
      path: `/sandbox/proxy.html?host=${encodeURIComponent(`http://${host()}`)}`,
      headers: { Host: `localhost:${app.port}` },
    });
    expect(sandbox.status).toBe(200);
    expect(sandbox.headers['content-security-policy']).toContain(`frame-ancestors http://${host()}`);
    expect(sandbox.headers['x-frame-options']).toBeUndefined();
  });

  it('the sandbox page refuses as its embedder any page but this Loupe under its other loopback name', async () => {
    const sandboxOf = (inspector: string, pageHost = `localhost:${app.port}`) =>
      raw(app.port, { path: `/sandbox/proxy.html?host=${encodeURIComponent(inspector)}&csp=%7B%7D`, headers: { Host: pageHost } });
    // Another server on loopback (a dev server on another port, a *.localhost name), or this page's own origin.
    const other = app.port === 9999 ? 9998 : 9999;
    for (const [inspector, pageHost] of [
      [`http://127.0.0.1:${other}`, `localhost:${app.port}`],
      [`http://a.localhost:${other}`, `127.0.0.1:${app.port}`],
      [`http://localhost:${other}`, `127.0.0.1:${app.port}`],
      [`http://localhost:${app.port}`, `localhost:${app.port}`],
    ] as const) {
      const page = await sandboxOf(inspector, pageHost);
      expect(page.status, inspector).toBe(400);
      expect(page.headers['content-security-policy'], inspector).toContain("frame-ancestors 'none'");
      expect(page.text, inspector).not.toContain(inspector);
    }
    // This Loupe's inspector, whichever loopback name it was opened on.
    for (const [inspector, pageHost] of [
      [`http://127.0.0.1:${app.port}`, `localhost:${app.port}`],
      [`http://localhost:${app.port}`, `127.0.0.1:${app.port}`],
      [`http://a.localhost:${app.port}`, `127.0.0.1:${app.port}`],
    ] as const) {
      const page = await sandboxOf(inspector, pageHost);
      expect(page.status, inspector).toBe(200);
      const directives = String(page.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim());
      expect(directives, inspector).toContain(`frame-ancestors ${inspector}`);
    }
  });

  it('the sandbox page refuses loopback addresses this Loupe does not listen on: 127.0.0.2, [::1] when it does not hold it', async () => {
    const sandboxOf = (inspector: string) =>
      raw(app.port, { path: `/sandbox/proxy.html?host=${encodeURIComponent(inspector)}&csp=%7B%7D`, headers: { Host: `localhost:${app.port}` } });
    // 127.0.0.2 pairs with localhost, but another process may serve a page there.
    const other = await sandboxOf(`http://127.0.0.2:${app.port}`);
    expect(other.status).toBe(400);
    expect(other.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // [::1] is admitted exactly when this Loupe listens there (it does wherever the machine has IPv6 loopback).
    const v6 = await sandboxOf(`http://[::1]:${app.port}`);
    expect(v6.status).toBe((await listensOnIpv6(app.port)) ? 200 : 400);
  });
});

/** Whether something answers Loupe's /healthz on [::1]:port. */
async function listensOnIpv6(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://[::1]:${port}/healthz`)).status === 200;
  } catch {
    return false;
  }
}
