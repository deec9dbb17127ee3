import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, startSdkServer, type Started } from '../helpers/processes';
import { launchChromium, showFrames } from './browser';

/**
 * Inspecting a server Loupe did not write: the official TypeScript SDK v2
 * (`@modelcontextprotocol/server@2.4.0`, `createMcpHandler`, stateless, 2026-07-28) serving one
 * tool on its own port, started by the test. It is a different origin with no CORS, so the
 * inspector goes through Loupe's token-gated proxy (the page holds the cookie after `/?token=`).
 */

describe('inspecting the official SDK v2 server through the proxy', () => {
  let app: Started;
  let sdk: Awaited<ReturnType<typeof startSdkServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-sdk-'));
    [app, sdk] = await Promise.all([startApp(dataDir), startSdkServer()]);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    page = await context.newPage();
    await page.goto(`http://127.0.0.1:${app.port}/?token=${app.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await sdk?.stop();
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('connects, lists the SDK’s tool, calls it with the generated form and shows the result and its entries', async () => {
    await page.click('[data-testid="connect-button"]'); // leave the demo mock
    await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    await page.fill('[data-testid="url-input"]', sdk.url);
    await page.selectOption('[data-testid="mode-select"]', 'proxy');
    await page.selectOption('[data-testid="era-select"]', 'modern');
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 15_000 });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('sdk-fixture');

    await page.waitForSelector('[data-tool="word_count"]');
    const tools = await page.$$eval('[data-testid="tools-table"] tbody tr[data-tool]', (rows) => rows.map((r) => r.getAttribute('data-tool')));
    expect(tools).toEqual(['word_count']);

    // The form comes from the SDK's inputSchema (zod → JSON Schema): a text field and a checkbox.
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="word_count"] [data-testid="select-tool"]');
    const form = '[data-testid="tool-call-form"][data-tool="word_count"]';
    expect(await page.getAttribute(`${form} [data-field="text"]`, 'data-kind')).toBe('text');
    expect(await page.getAttribute(`${form} [data-field="unique"]`, 'data-kind')).toBe('boolean');
    await page.click(`${form} [data-testid="call-tool"]`);
    expect(await page.textContent(`${form} [data-field="text"]`)).toContain('Required');
    await page.fill(`${form} input[name="text"]`, 'the quick brown fox jumps over the lazy dog the end');
    await page.check(`${form} input[name="unique"]`);
    await page.click(`${form} [data-testid="call-tool"]`);
    const result = await page.waitForSelector(`${form} [data-testid="tool-result"]`, { timeout: 10_000 });
    expect(await result.getAttribute('data-outcome')).toBe('complete');
    expect(await result.getAttribute('data-is-error')).toBe('false');
    expect(await result.textContent()).toContain('9 words');

    // Every exchange went over the wire through the proxy and sits on the timeline.
    await showFrames(page);
    const methods = await page.$$eval('[data-testid="timeline-row"][data-direction="out"]', (rows) => rows.map((r) => r.getAttribute('data-method')));
    expect(methods).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    await page.selectOption('[data-testid="filter-method"]', 'tools/call');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline-row"][data-method="tools/call"]').length >= 3);
    const rows = await page.$$eval('[data-testid="timeline-row"][data-method="tools/call"]', (els) =>
      els.map((r) => ({
        kind: r.getAttribute('data-kind'),
        dir: r.getAttribute('data-direction'),
        status: r.querySelector('[data-testid="row-status"]')?.textContent ?? '',
      })),
    );
    const sent = rows.filter((r) => r.dir === 'out');
    const answered = rows.filter((r) => r.dir === 'in' && (r.kind === 'message' || r.kind === 'sse-frame'));
    expect(sent).toHaveLength(1);
    expect(answered).toHaveLength(1);
    expect(rows.some((r) => r.kind === 'http-response' && r.status.includes('200'))).toBe(true);
  });
});
