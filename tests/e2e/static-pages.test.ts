import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from '../helpers/processes';
import { ROOT } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * The pages as the app server serves them, from Next's static export: every `/scenarios/<id>`
 * and `/replay/<id>` is the exported placeholder (`_`), yet the URL stays the one asked for, the
 * page works on the real id, client navigations find their payloads (`.txt`), and no request
 * of a page fails (the favicon included) or logs an error.
 */

/** Every failed response and console error of a page, to assert none happened. */
function watch(page: Page): { problems: string[]; payloads: string[] } {
  const seen = { problems: [] as string[], payloads: [] as string[] };
  page.on('response', (r) => {
    if (r.status() >= 400) seen.problems.push(`${r.status()} ${r.url()}`);
    if (new URL(r.url()).pathname.endsWith('.txt')) seen.payloads.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.problems.push(`page error: ${e.message}`));
  return seen;
}

describe('static export: dynamic pages', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;
  let context: BrowserContext;
  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-static-'));
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/?token=${server.token}`);
    await page.close();
  });
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser({ server, browser, dataDir });
  });

  it('opens /scenarios/demo from the placeholder: the URL and the id stay demo, nothing fails', async () => {
    const page = await context.newPage();
    const seen = watch(page);
    await page.goto(`${base}/scenarios/demo`);
    await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
    expect(await page.textContent('h1')).toContain('demo');
    expect(await page.textContent('[data-testid="scenario-editor-content"]')).toContain('id: demo');
    // Give the router time to rewrite the address bar if it were going to.
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/scenarios/demo');
    expect(seen.problems).toEqual([]);
    await page.close();
  });

  it('navigates list → scenario → list → another scenario on the client, with the exported payloads', async () => {
    const page = await context.newPage();
    const seen = watch(page);
    await page.goto(`${base}/scenarios`);
    await page.waitForSelector('[data-testid="scenario-item"][data-id="demo"]');
    // A full page load would drop this marker; a client navigation keeps it.
    await page.evaluate(() => Object.assign(window, { loupeMarker: 'same document' }));
    await page.click('[data-testid="scenario-item"][data-id="demo"] a');
    await page.waitForURL(/\/scenarios\/demo$/);
    await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
    expect(await page.textContent('h1')).toContain('demo');
    await page.click('a[href="/scenarios"]');
    await page.waitForSelector('[data-testid="scenario-item"][data-id="conformance"]');
    await page.click('[data-testid="scenario-item"][data-id="conformance"] a');
    await page.waitForURL(/\/scenarios\/conformance$/);
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('conformance'));
    await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
    expect(await page.evaluate(() => (window as unknown as { loupeMarker?: string }).loupeMarker)).toBe('same document');
    expect(new URL(page.url()).pathname).toBe('/scenarios/conformance');
    expect(seen.payloads.length).toBeGreaterThan(0);
    expect(seen.payloads.filter((p) => !p.startsWith('200 '))).toEqual([]);
    expect(seen.problems).toEqual([]);
    await page.close();
  });

  it('opens /replay/<id> on the inspector connected to that replay', async () => {
    const recording = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/recordings/v2.json'), 'utf8')) as unknown;
    const started = await controlApi(base, server.token!, '/api/recordings/replay', 'POST', recording);
    expect(started.status).toBe(201);
    const id = started.json.id as string;
    const page = await context.newPage();
    const seen = watch(page);
    const mcpPaths = new Set<string>();
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/mcp')) mcpPaths.add(new URL(r.url()).pathname);
    });
    await page.goto(`${base}/replay/${id}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe(`/replay/${id}`);
    expect([...mcpPaths]).toEqual([`/mcp/replay/${id}`]);
    expect(seen.problems).toEqual([]);
    await page.close();
  });
});
