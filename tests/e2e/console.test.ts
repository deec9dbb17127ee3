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
    // networkidle: the favicon and the page's own requests (the inspector connecting) are done.
    await page.goto(`${base}${pathname}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(500);
    await own.close();
    expect(problems).toEqual([]);
  });
});
