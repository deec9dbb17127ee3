import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../lib/server/app-server';
import { launchChromium } from '../e2e/browser';
import { raw } from './raw-http';
import { openLink, type BrowserSession } from './session';

/**
 * The browser credential: a sign-in link carries a one-time value, never the control token; it
 * works once and is traded for a session that is not the token; a server on another port of the same host name receives the session cookie (real
 * Chromium sends it there) and cannot use it, not even against the stdio proxy; the page's own
 * calls, which carry the request key, can. Spawned stdio servers never see LOUPE_TOKEN.
 */

let tmp: string;
let app: AppServer;
let session: BrowserSession;
/** The one-time value of the link this suite signed in with. */
let link: string;
let browser: Browser | undefined;
const ENV_TOKEN = 'token-from-the-environment';

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cookie-'));
  process.env.LOUPE_TOKEN = ENV_TOKEN;
  process.env.LOUPE_SOME_SECRET = 'also-hidden';
  app = await startAppServer({ port: 0, dataDir: path.join(tmp, 'data'), pages: (_req, res) => res.end('<!doctype html><title>page</title>') });
  link = app.link();
  session = await openLink(app.port, link);
});
afterAll(async () => {
  delete process.env.LOUPE_TOKEN;
  delete process.env.LOUPE_SOME_SECRET;
  await browser?.close();
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const host = () => `127.0.0.1:${app.port}`;
const spawn = (headers: Record<string, string>, args = ['-e', 'setInterval(() => {}, 1000)']) =>
  raw(app.port, {
    method: 'POST',
    path: '/api/proxy/stdio',
    headers: { Host: host(), 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ command: process.execPath, args }),
  });
const kill = (id: string) =>
  raw(app.port, { method: 'DELETE', path: `/api/proxy/stdio/${id}`, headers: { Host: host(), Authorization: `Bearer ${app.token}` } });

describe('the token link', () => {
  it('works once; a second use from another browser is told to get a new link', async () => {
    const again = await raw(app.port, { path: `/?token=${link}`, headers: { Host: host() } });
    expect(again.status).toBe(410);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.text).toContain('This sign-in link works once and has been used');
    expect(again.text).toContain('npx mcp-loupe link');
    // The browser that opened it is only sent back to the page, with no new session.
    const back = await raw(app.port, { path: `/scenarios?token=${link}`, headers: { Host: host(), Cookie: session.cookie } });
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe('/scenarios');
    expect(back.headers['set-cookie']).toBeUndefined();
  });

  it('is never the control token: the token itself signs no browser in, so a link seen in a terminal or a process list is worth nothing once used', async () => {
    expect(link).not.toBe(app.token);
    const withToken = await raw(app.port, { path: `/?token=${app.token}`, headers: { Host: host() } });
    expect(withToken.status).toBe(401);
    expect(withToken.text).toContain('Not a sign-in link');
    expect(withToken.headers['set-cookie']).toBeUndefined();
    // Each link is its own: a second one works once too.
    const second = app.link();
    expect(second).not.toBe(link);
    expect((await raw(app.port, { path: `/?token=${second}`, headers: { Host: host() } })).status).toBe(303);
    expect((await raw(app.port, { path: `/?token=${second}`, headers: { Host: host() } })).status).toBe(410);
  });

  it('trades the link for a session that is not the token and is worth nothing as one', async () => {
    const value = session.cookie.split('=')[1] ?? '';
    expect(value).not.toContain(app.token);
    expect((await spawn({ Authorization: `Bearer ${value}` })).status).toBe(401);
    expect((await spawn({ Authorization: `Bearer ${session.key}` })).status).toBe(401);
  });
});

describe('a server on another loopback port', () => {
  it('receives the session cookie from the browser and cannot spawn with it (401); the page itself can', async () => {
    const received: string[] = [];
    const attacker = http.createServer((req, res) => {
      received.push(req.headers.cookie ?? '');
      res.end('<!doctype html><title>elsewhere</title>');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      browser = await launchChromium();
      const context = await browser.newContext();
      const cookieValue = session.cookie.split('=')[1] ?? '';
      await context.addCookies([{ name: 'loupe_session', value: cookieValue, url: `http://${host()}/`, httpOnly: true, sameSite: 'Strict' }]);
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      // Cookies are not scoped by port: the other server got the session cookie.
      expect(received.at(-1)).toBe(session.cookie);
      const stolen = received.at(-1) ?? '';
      for (const guess of ['1', 'true', cookieValue, '']) {
        const replay = await spawn({ Cookie: stolen, Origin: `http://${host()}`, 'X-Loupe-Request': guess });
        expect(replay.status, `key ${JSON.stringify(guess)}`).toBe(401);
      }
      expect((await spawn({ Cookie: stolen, Origin: `http://${host()}` })).status).toBe(401);
      const own = await spawn({ Cookie: stolen, Origin: `http://${host()}`, 'X-Loupe-Request': session.key });
      expect(own.status).toBe(201);
      await kill(JSON.parse(own.text).sessionId);
    } finally {
      await new Promise((r) => attacker.close(r));
    }
  }, 60_000);
});

describe('a page on another loopback port plants its own loupe_session cookie (cookie tossing)', () => {
  it("does not lock the user out: Loupe's page still reaches the API with its session and key", async () => {
    // Cookies are not scoped by port, and one with a longer Path is sent first: a server on another
    // port sets `loupe_session=planted; Path=/api`, so every API call carries it before the real one.
    const planter = http.createServer((_req, res) => {
      res.writeHead(200, { 'Set-Cookie': 'loupe_session=planted-by-another-port; Path=/api; SameSite=Lax', 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>elsewhere</title>');
    });
    await new Promise<void>((resolve) => planter.listen(0, '127.0.0.1', resolve));
    try {
      browser ??= await launchChromium();
      const context = await browser.newContext();
      const cookieValue = session.cookie.split('=')[1] ?? '';
      await context.addCookies([{ name: 'loupe_session', value: cookieValue, url: `http://${host()}/`, httpOnly: true, sameSite: 'Strict' }]);
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${(planter.address() as AddressInfo).port}/`);
      await page.goto(`http://${host()}/`);
      const answer = await page.evaluate(async (key) => {
        const res = await fetch('/api/scenarios', { headers: { 'X-Loupe-Request': key } });
        return { status: res.status, text: await res.text() };
      }, session.key);
      const sent = await context.cookies(`http://${host()}/api/scenarios`);
      expect(sent.filter((c) => c.name === 'loupe_session').map((c) => c.value)).toEqual(['planted-by-another-port', cookieValue]);
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text).scenarios.length).toBeGreaterThan(0);
      // The planted value is still nothing: alone, with the real key, it opens nothing.
      const planted = await raw(app.port, {
        path: '/api/scenarios',
        headers: { Host: host(), Cookie: 'loupe_session=planted-by-another-port', 'X-Loupe-Request': session.key },
      });
      expect(planted.status).toBe(401);
      await context.close();
    } finally {
      await new Promise((r) => planter.close(r));
    }
  }, 60_000);
});

describe('stdio children', () => {
  it("never inherit LOUPE_TOKEN or another of Loupe's secrets; plain settings and the rest pass", async () => {
    const print =
      'console.log(JSON.stringify({jsonrpc:"2.0",method:"env",params:{token:process.env.LOUPE_TOKEN??null,secret:process.env.LOUPE_SOME_SECRET??null,path:!!process.env.PATH}}))';
    const started = await spawn({ Authorization: `Bearer ${app.token}` }, ['-e', `${print}; setInterval(() => {}, 1000)`]);
    expect(started.status).toBe(201);
    const id = JSON.parse(started.text).sessionId as string;
    const line = await new Promise<string>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port: app.port, path: `/api/proxy/stdio/${id}`, headers: { Host: host(), Authorization: `Bearer ${app.token}` } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
            const m = /^data: (\{.*"method":"env".*\})$/m.exec(text);
            if (m?.[1]) {
              resolve(m[1]);
              req.destroy();
            }
          });
        },
      );
      req.on('error', reject);
    });
    expect(JSON.parse(line).params).toEqual({ token: null, secret: null, path: true });
    await kill(id);
  });
});
