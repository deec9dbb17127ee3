import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Started } from '../helpers/processes';
import { type Sdk1Server, startSdk1Server } from '../helpers/sdk1-server';
import { launchChromium, showFrames } from './browser';

/**
 * The inspector and the official SDK 1.32.2 server (2025-11-25, sessions) through Loupe's proxy:
 * `server.server.elicitInput()` goes out on the session's standalone GET stream, not on the
 * call's stream, so the inspector must open that stream after initialize. The question shows
 * as the same dialog as a call-stream one, the answer ends the call, and the GET stream's frames
 * are on the timeline.
 */

describe('the inspector keeps the session GET stream of a 2025-11-25 server', () => {
  let app: Started;
  let sdk: Sdk1Server | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-get-stream-'));
    sdk = await startSdk1Server();
    app = await startApp(dataDir);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    page = await context.newPage();
    await page.goto(`http://127.0.0.1:${app.port}/?token=${app.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await sdk?.stop();
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks the person for an elicitation the server sent on the GET stream, and shows that stream', async () => {
    await page.click('[data-testid="connect-button"]'); // leave the demo mock
    await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    await page.fill('[data-testid="url-input"]', sdk?.url ?? '');
    await page.selectOption('[data-testid="mode-select"]', 'proxy');
    await page.selectOption('[data-testid="era-select"]', 'legacy');
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 15_000 });

    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="ask_aside"] [data-testid="select-tool"]');
    await page.click('[data-testid="tool-call-form"][data-tool="ask_aside"] [data-testid="call-tool"]');
    const dialog = '[data-testid="server-request"][data-method="elicitation/create"]';
    await page.waitForSelector(`${dialog} [data-testid="input-requests"]`, { timeout: 10_000 });
    expect(await page.textContent(dialog)).toContain('What is your name?');
    await page.fill(`${dialog} input[name="name"]`, 'Ada');
    await page.click(`${dialog} button[data-action="accept"]`);
    await page.waitForSelector(dialog, { state: 'detached' });
    const result = await page.waitForSelector('[data-testid="tool-call-form"][data-tool="ask_aside"] [data-testid="tool-result"]', { timeout: 10_000 });
    expect(await result.textContent()).toContain('aside accept {"name":"Ada"}');

    await showFrames(page);
    await page.waitForSelector('[data-testid="timeline-row"][data-method="elicitation/create"][data-kind="sse-frame"]', { timeout: 10_000 });
  });
});
