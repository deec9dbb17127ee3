import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../lib/client/http-transport';
import type { TransportEvent } from '../../lib/client/transport';
import { startAppServer, type AppServer } from '../../lib/server/app-server';
import { launchChromium } from '../e2e/browser';
import { openLink, type BrowserSession } from './session';

/**
 * An upstream behind the proxy answers 401 with `WWW-Authenticate: Basic realm="…"`. Relayed as
 * is to Loupe's page, the browser itself answers that challenge: a native sign-in dialog naming
 * Loupe's origin, with the upstream's words as the realm ("Loupe session expired: sign in").
 * The proxy moves such a challenge aside; the inspector's client puts it back, so the timeline
 * and the OAuth flow still see what the server sent. A Bearer challenge passes unchanged.
 */

const REALM = 'Basic realm="Loupe session expired: sign in again"';
const BEARER = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"';

let tmp: string;
let app: AppServer;
let upstream: http.Server;
let upstreamUrl: string;
let session: BrowserSession;
let browser: Browser | undefined;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-auth-dialog-'));
  app = await startAppServer({ port: 0, dataDir: path.join(tmp, 'data'), pages: (_req, res) => res.end('<!doctype html><title>page</title>') });
  upstream = http.createServer((req, res) => {
    res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': req.url === '/bearer' ? BEARER : REALM });
    res.end('{"error":"unauthorized"}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  session = await openLink(app.port, app.link());
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => upstream?.close(r));
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a 401 Basic challenge from an upstream behind the proxy', () => {
  it("raises no browser sign-in dialog in Loupe's name (real Chromium)", async () => {
    browser = await launchChromium();
    const context = await browser.newContext();
    const host = `127.0.0.1:${app.port}`;
    await context.addCookies([
      { name: 'loupe_session', value: session.cookie.split('=')[1] ?? '', url: `http://${host}/`, httpOnly: true, sameSite: 'Strict' },
    ]);
    const page = await context.newPage();
    await page.goto(`http://${host}/`);
    // The dialog is the browser's own, outside the page: CDP reports each challenge it would show.
    const cdp = await context.newCDPSession(page);
    const challenges: string[] = [];
    cdp.on('Fetch.requestPaused', (e) => void cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch(() => {}));
    cdp.on('Fetch.authRequired', (e) => {
      challenges.push(`${e.authChallenge.origin} ${e.authChallenge.scheme} ${e.authChallenge.realm}`);
      void cdp.send('Fetch.continueWithAuth', { requestId: e.requestId, authChallengeResponse: { response: 'CancelAuth' } }).catch(() => {});
    });
    await cdp.send('Fetch.enable', { handleAuthRequests: true, patterns: [{ urlPattern: '*' }] });
    const answer = await page.evaluate(
      async ({ url, key }) => {
        const res = await fetch('/api/proxy', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Loupe-Request': key },
          body: JSON.stringify({ url, method: 'POST', headers: {}, body: '{}' }),
        });
        return { status: res.status, challenge: res.headers.get('www-authenticate'), aside: res.headers.get('x-loupe-upstream-www-authenticate') };
      },
      { url: `${upstreamUrl}/basic`, key: session.key },
    );
    expect(challenges).toEqual([]);
    expect(answer).toEqual({ status: 401, challenge: null, aside: REALM });
    await context.close();
  }, 60_000);

  it('reaches the inspector transport as the upstream sent it; a Bearer challenge is relayed unchanged', async () => {
    // Node's fetch carries no cookie jar: add the page's credentials as the browser would.
    const withSession = (input: string, init: RequestInit) =>
      fetch(input, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), Cookie: session.cookie, 'X-Loupe-Request': session.key, Origin: app.url },
      });
    for (const [route, sent] of [
      ['/basic', REALM],
      ['/bearer', BEARER],
    ] as const) {
      const transport = createHttpTransport({ url: `${upstreamUrl}${route}`, proxy: { endpoint: `${app.url}/api/proxy` }, fetch: withSession });
      const events: TransportEvent[] = [];
      for await (const e of transport.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} })) events.push(e);
      const response = events.find((e) => e.type === 'response');
      expect(response, route).toMatchObject({ status: 401, headers: { 'www-authenticate': sent } });
      expect(JSON.stringify(response)).not.toContain('x-loupe-upstream');
    }
  });
});
