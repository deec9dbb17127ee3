import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from '../helpers/processes';
import { launchChromium, startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * Every page opens without a console error or an uncaught exception: what a user sees in the
 * developer tools is the first sign of a broken page (a missing favicon included).
 */

const PAGES = ['/', '/scenarios', '/scenarios/demo', '/recording'];

describe('no console error on any page', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;
  // The session: its cookie and the request key the page keeps in this origin's localStorage.
  let session: Awaited<ReturnType<BrowserContext['storageState']>>;
  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-console-'));
    // Signed in as `npm start`'s URL does it, so the pages show what they show a user.
    const context = await browser.newContext();
    await (await context.newPage()).goto(`${base}/?token=${server.token}`);
    session = await context.storageState();
    await context.close();
  });
  afterAll(() => stopAppAndBrowser({ server, browser, dataDir }));

  it.each(PAGES)('%s', async (pathname) => {
    // A browser of its own: Chromium asks for a missing favicon once per browser, not per page.
    const own = await launchChromium();
    const context = await own.newContext({ storageState: session });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}${m.location().url ? ` (${m.location().url})` : ''}`);
    });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    await page.goto(`${base}${pathname}`, { waitUntil: 'load' });
    // The inspector connects on load and then keeps a listen open (the network is never idle):
    // wait for the connection to settle; every page then gets a moment for the favicon and the rest.
    if (pathname === '/') await page.waitForSelector('[data-testid="connection-status"]:is([data-state="connected"], [data-state="error"])');
    await page.waitForTimeout(1000);
    await own.close();
    expect(problems).toEqual([]);
  });
});
