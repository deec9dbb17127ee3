import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, startCliMock, type Started } from '../helpers/processes';
import { launchChromium } from './browser';

/**
 * A tool call from the inspector asks for progress (a progressToken) and shows what the server
 * reports while it works, and a call that takes too long can be cancelled from the form. The
 * server is `mcp-loupe mock` on a scenario file written here, reached through the proxy.
 */

const SCENARIO = `id: progress-e2e
server: { name: progress-e2e, version: 1.0.0 }
tools:
  - name: render
    description: Reports three steps of progress, then answers.
    progress:
      intervalMs: 700
      steps:
        - { progress: 1, total: 3, message: Rendering page 1 }
        - { progress: 2, total: 3, message: Rendering page 2 }
        - { progress: 3, total: 3, message: Rendering page 3 }
    result: { content: [{ type: text, text: rendered }] }
  - name: stall
    description: Takes a minute to answer.
    progress:
      intervalMs: 60000
      steps: [{ progress: 1, message: never }]
    result: { content: [{ type: text, text: late }] }
`;

describe('tool call progress and cancel in the inspector', () => {
  let app: Started;
  let mock: Started;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-progress-'));
    const file = path.join(dir, 'progress.yaml');
    fs.writeFileSync(file, SCENARIO);
    [app, mock] = await Promise.all([startApp(path.join(dir, 'app')), startCliMock([file, '--store', 'memory'])]);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
    await page.goto(`http://127.0.0.1:${app.port}/?token=${app.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
    await page.click('[data-testid="connect-button"]'); // leave the demo mock
    await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    await page.fill('[data-testid="url-input"]', mock.url);
    await page.selectOption('[data-testid="mode-select"]', 'proxy');
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 15_000 });
    await page.click('[data-tab="tools"]');
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await mock?.stop();
    await app?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the progress the server reports while a call runs, then the result', async () => {
    await page.click('[data-tool="render"] [data-testid="select-tool"]');
    const form = '[data-testid="tool-call-form"][data-tool="render"]';
    await page.click(`${form} [data-testid="call-tool"]`);
    const progress = await page.waitForSelector(`${form} [data-testid="call-progress"]`, { timeout: 10_000 });
    expect(await progress.textContent()).toMatch(/[12] of 3\s*Rendering page [12]/);
    expect(await page.getAttribute(`${form} [data-testid="call-progress"] progress`, 'max')).toBe('3');
    const result = await page.waitForSelector(`${form} [data-testid="tool-result"]`, { timeout: 10_000 });
    expect(await result.textContent()).toContain('rendered');
    expect(await page.$(`${form} [data-testid="call-progress"]`)).toBeNull();
    // The request asked for it: its progressToken is on the wire.
    const journal = await fetch(new URL('/api/scenarios/progress-e2e/journal', mock.url), { headers: { Authorization: `Bearer ${mock.token}` } });
    const entries = ((await journal.json()) as { entries: { method?: string; requestBody: { params?: { _meta?: { progressToken?: unknown } } } }[] }).entries;
    const call = entries.find((e) => e.method === 'tools/call');
    expect(call?.requestBody.params?._meta?.progressToken).toBeDefined();
  }, 30_000);

  it('cancels a call that has not answered: the form says so at once and can call again', async () => {
    await page.click('[data-tool="stall"] [data-testid="select-tool"]');
    const form = '[data-testid="tool-call-form"][data-tool="stall"]';
    await page.click(`${form} [data-testid="call-tool"]`);
    await page.waitForSelector(`${form} [data-testid="mrtr-round"]`);
    const started = Date.now();
    await page.click(`${form} [data-testid="cancel-call"]`);
    const outcome = await page.waitForSelector(`${form} [data-testid="tool-result"], ${form} [data-testid="call-problem"]`, { timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await outcome.textContent()).toMatch(/cancel/i);
    // The Call button is usable again.
    expect(await page.isEnabled(`${form} [data-testid="call-tool"]`)).toBe(true);
  }, 30_000);
});
