import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * A stdio server that crashes, in headless Chromium against the app server: it writes to stderr,
 * answers the connect, and exits with code 7 on its first tool call. The page shows its stderr
 * (text, never markup) in the Server output tab and under the connection error, and the badge
 * says the process exited instead of staying "Connected"; Connect starts it again.
 */

const FIXTURE = path.join(ROOT, 'tests/fixtures/servers/crashing-stdio-server.mjs');

describe('a stdio server that exits', () => {
  let env: Partial<AppAndBrowser> = {};
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-stdio-output-');
    context = await env.browser!.newContext({ viewport: { width: 1600, height: 1400 } });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server!.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  });
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser(env);
  });

  it('shows its stderr and the exited state with the code, and Connect starts it again', async () => {
    await page.click('[data-testid="connect-button"]'); // leave the demo mock
    await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    await page.selectOption('[data-testid="mode-select"]', 'stdio');
    await page.fill('[data-testid="url-input"]', `"${process.execPath}" "${FIXTURE}"`);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });

    await page.click('[data-tab="output"]');
    await page.waitForSelector('[data-testid="output-line"][data-stream="stderr"]');
    expect(await page.textContent('[data-testid="server-output"]')).toContain('crashing-fixture: listening on stdin');
    expect(await page.textContent('[data-testid="output-line"][data-stream="stdout"]')).toContain('not json: a banner on stdout');

    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="explode"] [data-testid="select-tool"]');
    await page.click('[data-testid="tool-call-form"][data-tool="explode"] [data-testid="call-tool"]');

    const badge = await page.waitForSelector('[data-testid="connection-status"][data-state="error"]', { timeout: 10_000 });
    expect(await badge.textContent()).toBe('Exited');
    expect(await page.textContent('[data-testid="connection-error"]')).toBe('the server process exited with code 7');
    const stderr = await page.waitForSelector('[data-testid="connection-stderr"]:has-text("FATAL")');
    expect(await stderr.textContent()).toContain('FATAL: <b>database</b> connection lost');
    // The server's text is shown as text: its "<b>" is not an element.
    expect(await stderr.$('b')).toBeNull();
    expect(await page.textContent('[data-testid="connect-button"]')).toBe('Connect');

    await page.click('[data-testid="show-server-output"]');
    await page.waitForSelector('[data-testid="output-line"][data-stream="exit"]');
    const lines = await page.$$eval('[data-testid="output-line"]', (els) =>
      els.map((e) => `${e.getAttribute('data-stream')} ${e.querySelector('pre')?.textContent}`),
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        'stderr FATAL: <b>database</b> connection lost',
        'stderr     at explode (crashing-stdio-server.mjs:17)',
        'exit the server process exited with code 7',
      ]),
    );

    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  }, 60_000);
});
