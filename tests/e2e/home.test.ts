import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Started } from '../helpers/processes';
import { launchChromium } from './browser';

/** The home page on the app server (`npm start`), in headless Chromium: connected to the demo mock. */
describe('home page', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-home-'));
    server = await startApp(dataDir);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('swaps the launch token for an HttpOnly cookie and drops it from the URL', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const base = `http://127.0.0.1:${server.port}`;
    await page.goto(`${base}/?token=${server.token}`);
    expect(new URL(page.url()).searchParams.get('token')).toBeNull();
    const cookie = (await context.cookies()).find((c) => c.name === 'loupe_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.value).not.toBe(server.token);
    // The request key left the address bar for this origin's storage.
    await page.waitForFunction(() => !location.hash.includes('loupe-key') && !!localStorage.getItem('loupe-api-key'));
    expect(await page.content()).not.toContain(server.token!);
    await context.close();
  });

  it('keeps the session when a page plants another key in the fragment; a new link in the same browser takes over', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const base = `http://127.0.0.1:${server.port}`;
    const storedKey = () => page.evaluate(() => localStorage.getItem('loupe-api-key'));
    await page.goto(`${base}/?token=${server.token}`);
    await page.waitForFunction(() => !!localStorage.getItem('loupe-api-key'));
    const first = await storedKey();
    // Any web page can send the browser here: the planted key must not replace the working one.
    await page.goto(`${base}/scenarios#loupe-key=planted-by-someone-else`);
    await page.waitForSelector('[data-testid="scenario-item"][data-id="demo"]');
    expect(await page.$('[data-testid="missing-token"]')).toBeNull();
    expect(await storedKey()).toBe(first);
    expect(page.url()).not.toContain('loupe-key');
    // A real new link (a new session cookie and its key) is adopted once the server accepts it.
    await page.goto(`${base}/scenarios?token=${server.token}`);
    await page.waitForSelector('[data-testid="scenario-item"][data-id="demo"]');
    await expect.poll(storedKey).not.toBe(first);
    await context.close();
  });

  it('shows the demo server connected, with its tools', async () => {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.port}/`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 15_000 });
    const table = await page.textContent('[data-testid="tools-table"]');
    for (const tool of ['generate_report', 'delete_note', 'charge', 'workspace_read']) expect(table).toContain(tool);
    await page.close();
  });
});
