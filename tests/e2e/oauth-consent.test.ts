import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliMock, type Started } from '../helpers/processes';
import { launchChromium } from './browser';

/**
 * The mock authorization server's manual consent page in a real Chromium: the person clicks
 * Approve (or Deny) and the browser must land on the client's loopback redirect URI with the
 * answer. Chromium applies the page's CSP `form-action` to the redirect after the form post, so
 * a policy of `'self'` alone would strand the person on the consent page.
 */

const SCENARIO = {
  id: 'consent',
  server: { name: 'consent-mock', version: '1.0.0' },
  tools: [{ name: 'ping', result: { content: [{ type: 'text', text: 'pong' }] } }],
  auth: { server: { consent: 'manual' } },
};

describe('manual consent in Chromium', () => {
  let mock: Started;
  let browser: Browser;
  let client: http.Server;
  let redirectUri = '';
  let dir = '';
  const arrived: URL[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-consent-'));
    const file = path.join(dir, 'consent.json');
    fs.writeFileSync(file, JSON.stringify(SCENARIO));
    // The client's loopback redirect listener, on another port (another origin) than the mock.
    client = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', redirectUri);
      // Chromium asks for /favicon.ico as well; only the callbacks count.
      if (url.pathname === '/callback') arrived.push(url);
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>callback</title><p>You may close this window.</p>');
    });
    await new Promise<void>((r) => client.listen(0, '127.0.0.1', r));
    redirectUri = `http://127.0.0.1:${(client.address() as AddressInfo).port}/callback`;
    [mock, browser] = await Promise.all([startCliMock([file, '--store', 'memory', '--data-dir', dir]), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.stop();
    await new Promise<void>((r) => (client ? client.close(() => r()) : r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function authorizeUrl(state: string): Promise<string> {
    const issuer = `${new URL(mock.url).origin}/mcp/consent/as`;
    const reg = await fetch(`${issuer}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'e2e', token_endpoint_auth_method: 'none', application_type: 'native' }),
    });
    const { client_id } = (await reg.json()) as { client_id: string };
    const q = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: redirectUri,
      state,
      // Any S256-shaped challenge: this test stops at the redirect.
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: mock.url,
    });
    return `${issuer}/authorize?${q}`;
  }

  it('Approve lands on the loopback redirect URI with code, state and iss', async () => {
    const page = await browser.newPage();
    try {
      const blocked: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
      });
      const res = await page.goto(await authorizeUrl('st-approve'));
      expect(res?.headers()['content-security-policy']).toContain(new URL(redirectUri).origin);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL((u) => u.href.startsWith(redirectUri), { timeout: 15_000 });
      expect(blocked).toEqual([]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('code')).toMatch(/.{16,}/);
      expect(landed.searchParams.get('state')).toBe('st-approve');
      expect(landed.searchParams.get('iss')).toBe(`${new URL(mock.url).origin}/mcp/consent/as`);
      expect(await page.textContent('p')).toBe('You may close this window.');
      expect(arrived.at(-1)?.searchParams.get('state')).toBe('st-approve');
    } finally {
      await page.close();
    }
  });

  it('Deny lands on the redirect URI with access_denied', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(await authorizeUrl('st-deny'));
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.waitForURL((u) => u.href.startsWith(redirectUri), { timeout: 15_000 });
      const landed = new URL(page.url());
      expect([landed.searchParams.get('error'), landed.searchParams.get('state'), landed.searchParams.get('code')]).toEqual(['access_denied', 'st-deny', null]);
    } finally {
      await page.close();
    }
  });
});
