import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from '../helpers/processes';
import { openTimelineFilters as openFilters, startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * The inspector's timeline on the app server (`npm start`), in headless Chromium: the home page connects to
 * the demo mock by itself, its frames land on the timeline, an entry opens in the detail pane
 * (raw JSON, headers with secrets masked), filters and search narrow the list, and a broken
 * scenario saved through the control API shows its lint on the entry where it broke the spec.
 */

const BROKEN = `id: broken-codes
name: Broken codes
server:
  name: broken
  version: "1.0.0"
tools:
  - name: echo
    result:
      content:
        - type: text
          text: hi
faults:
  - name: undefined-code
    match: { method: tools/list }
    action: { kind: rpc-error, code: -32023, message: Replay store full }
`;

const rows = (page: Page) =>
  page.$$eval('[data-testid="timeline-row"]', (els) =>
    els.map((e) => ({
      id: e.getAttribute('data-id'),
      method: e.getAttribute('data-method'),
      kind: e.getAttribute('data-kind'),
      direction: e.getAttribute('data-direction'),
      text: e.textContent ?? '',
    })),
  );

async function shown(page: Page): Promise<number> {
  return Number(await page.getAttribute('[data-testid="timeline-count"]', 'data-shown'));
}

async function connected(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
}

describe('inspector timeline', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-timeline-'));
  });
  afterAll(() => stopAppAndBrowser({ server, browser, dataDir }));

  it('connects to the demo on load and shows discover and tools/list on the timeline', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await connected(page);
    await page.waitForSelector('[data-testid="timeline-row"][data-method="tools/list"][data-kind="exchange"]', { timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('[data-kind="exchange"][data-method="tools/list"]')?.textContent?.includes('complete'));
    // Then the listen for the demo's list changes (a 2026-07-28 server sends them only there), left open.
    await page.waitForSelector('[data-testid="timeline-row"][data-method="subscriptions/listen"][data-kind="exchange"]', { timeout: 15_000 });
    const list = await rows(page);
    expect(list.map((r) => r.method)).toEqual(['server/discover', 'tools/list', 'subscriptions/listen']);
    // Unfolded into frames, the discover exchange starts with the request sent.
    await page.selectOption('[data-testid="timeline-view"]', 'frames');
    const frames = await rows(page);
    expect(frames.find((r) => r.method === 'server/discover' && r.kind === 'http-request')?.direction).toBe('out');
    expect(frames.find((r) => r.method === 'tools/list' && r.kind === 'message' && r.direction === 'in')?.text).toContain('complete');
    expect(await page.textContent('[data-testid="server-info"]')).toContain('2026-07-28');
    expect(await page.textContent('[data-testid="tools-table"]')).toContain('generate_report');
    await page.close();
  });

  it('opens an entry in the detail pane: raw JSON and headers', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await connected(page);
    await page.click('[data-testid="timeline-row"][data-method="tools/list"][data-kind="exchange"]');
    await page.waitForSelector('[data-testid="detail-json-tree"]');
    await page.click('[data-testid="json-raw-toggle"]');
    const json = JSON.parse((await page.textContent('[data-testid="detail-json"]'))!) as { result: { tools: { name: string }[] } };
    expect(json.result.tools.map((t) => t.name)).toContain('delete_note');
    expect(await page.textContent('[data-testid="detail-json"]')).toMatch(/\n {2}"jsonrpc": "2.0"/);
    const headers = await page.textContent('[data-testid="detail-headers"]');
    expect(headers).toContain('mcp-method');
    expect(headers).toContain('tools/list');
    expect(headers).toContain('Response headers · HTTP 200');
    await page.close();
  });

  it('masks the bearer token in header views until Reveal is clicked', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await connected(page);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    await page.click('[data-testid="timeline-toolbar"] >> text=Clear');
    await page.click('[data-testid="headers-toggle"]');
    await page.fill('[data-testid="bearer-input"]', 'sekrit-token-4711');
    await page.click('[data-testid="connect-button"]');
    await connected(page);
    await page.click('[data-testid="timeline-row"][data-method="server/discover"][data-kind="exchange"]');
    const masked = await page.textContent('[data-testid="detail-headers"] tr[data-header="authorization"]');
    expect(masked).toContain('Bearer •');
    expect(masked).not.toContain('sekrit');
    await page.click('[data-testid="reveal-toggle"]');
    expect(await page.textContent('[data-testid="detail-headers"] tr[data-header="authorization"]')).toContain('Bearer sekrit-token-4711');
    await page.close();
  });

  it('connects through the token-gated proxy too (cookie auth, same origin)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/?token=${server.token}`);
    await connected(page);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    await page.click('[data-testid="timeline-toolbar"] >> text=Clear');
    await page.selectOption('[data-testid="mode-select"]', 'proxy');
    const proxied = page.waitForRequest((r) => r.url().endsWith('/api/proxy') && r.method() === 'POST');
    await page.click('[data-testid="connect-button"]');
    expect(JSON.parse((await proxied).postData()!)).toMatchObject({ url: `${base}/mcp`, method: 'POST' });
    await connected(page);
    await page.waitForSelector('[data-testid="timeline-row"][data-method="tools/list"][data-kind="exchange"]');
    expect(await page.textContent('[data-testid="tools-table"]')).toContain('delete_note');
    await context.close();
  });

  it('narrows the list with filters and search', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await connected(page);
    await page.waitForSelector('[data-testid="timeline-row"][data-method="tools/list"][data-kind="exchange"]');
    await page.selectOption('[data-testid="timeline-view"]', 'frames');
    const total = await shown(page);
    expect(total).toBeGreaterThanOrEqual(6);

    await page.selectOption('[data-testid="filter-method"]', 'server/discover');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="timeline-count"]')?.getAttribute('data-shown')) < n, total);
    expect((await rows(page)).every((r) => r.method === 'server/discover')).toBe(true);
    await page.selectOption('[data-testid="filter-method"]', '');

    await openFilters(page);
    await page.selectOption('[data-testid="filter-direction"]', 'out');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="timeline-count"]')?.getAttribute('data-shown')) < n, total);
    const sent = await rows(page);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.every((r) => r.direction === 'out')).toBe(true);
    await page.selectOption('[data-testid="filter-direction"]', 'all');

    // Search looks into bodies: only the tools/list answer carries input schemas.
    await page.fill('[data-testid="timeline-search"]', 'inputSchema');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="timeline-count"]')?.getAttribute('data-shown')) < n, total);
    const found = await rows(page);
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found.every((r) => r.method === 'tools/list')).toBe(true);
    await page.fill('[data-testid="timeline-search"]', 'no-such-text-anywhere');
    await page.waitForSelector('[data-testid="timeline-empty"]');
    expect(await shown(page)).toBe(0);
    await page.close();
  });

  it('shows the lint of a broken scenario on the entry that broke the spec', async () => {
    const put = await fetch(`${base}/api/scenarios/broken-codes/source`, { method: 'PUT', headers: { Authorization: `Bearer ${server.token}` }, body: BROKEN });
    expect(put.status).toBe(200);
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await connected(page);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    await page.fill('[data-testid="url-input"]', '/mcp/broken-codes');
    await page.click('[data-testid="connect-button"]');
    await connected(page);
    await openFilters(page);
    await page.check('[data-testid="filter-lints"]');
    const badge = await page.waitForSelector('[data-testid="timeline-row"][data-method="tools/list"][data-kind="exchange"] [data-testid="lint-badge"]', {
      timeout: 15_000,
    });
    expect(await badge.getAttribute('data-severity')).toBe('error');
    // Only linted entries are listed, and the demo's clean discover is not among them.
    expect((await rows(page)).every((r) => r.method !== 'server/discover')).toBe(true);
    await page.click('[data-testid="timeline-row"][data-method="tools/list"][data-kind="exchange"]');
    const lint = await page.waitForSelector('[data-testid="detail-lints"] li[data-lint-id="error-code-reserved-undefined"]');
    expect(await lint.textContent()).toContain('-32023');
    expect(await page.getAttribute('[data-testid="detail-lints"] [data-testid="lint-spec-link"]', 'href')).toMatch(/^https:\/\/.*#error-codes$/);
    await page.close();
  });
});
