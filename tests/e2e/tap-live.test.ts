import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkServer, startTapProcess, type Started } from '../helpers/processes';
import { showFrames, startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * Journey: a real client (the SDK v2 client, with a retry-on-503 fetch as real clients have)
 * talks to a real server (the SDK v2 server) through `mcp-loupe tap`; the tap appears in the
 * running Loupe, its frames arrive live on the tap's page, a 503 switched on from the page makes
 * the client retry (each refusal marked on the timeline), and switched off lets calls through.
 * Needs `npm run build`.
 */

let env: Partial<AppAndBrowser> = {};
let sdk: Awaited<ReturnType<typeof startSdkServer>>;
let tap: Started;
let tapUrl: string;
let context: BrowserContext;
let page: Page;
/** Requests the client's fetch sent again after a 503. */
let retries = 0;

/** A fetch that does what well-behaved clients do with a 503: wait Retry-After, try again (twice at most). */
const retryingFetch: typeof fetch = async (input, init) => {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(input, init);
    if (res.status !== 503 || attempt >= 2) return res;
    retries += 1;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
  }
};

async function call(text: string): Promise<string> {
  const client = new Client({ name: 'tapped-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(tapUrl), { fetch: retryingFetch }));
    const result = await client.callTool({ name: 'word_count', arguments: { text } });
    return `count ${String((result.structuredContent as { count: number }).count)}`;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.close().catch(() => {});
  }
}

const frames = async () => Number(await page.getAttribute('[data-testid="tap-info"]', 'data-frames'));

beforeAll(async () => {
  [env, sdk] = await Promise.all([startAppAndBrowser('loupe-e2e-tap-'), startSdkServer()]);
  tap = await startTapProcess(['--upstream', sdk.url, '--data-dir', env.dataDir!]);
  tapUrl = tap.url;
  context = await env.browser!.newContext({ viewport: { width: 1600, height: 1400 } });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await tap?.stop();
  await sdk?.stop();
  await stopAppAndBrowser(env);
});

describe('a tap, live in the browser', () => {
  it('is listed on the home page and opens as a live session', async () => {
    await page.goto(`${env.base}/?token=${env.server!.token}`);
    await page.click('[data-testid="live-taps"] summary', { timeout: 20_000 });
    await page.click('[data-testid="live-tap-link"]');
    await page.waitForURL(/\/tap\/tap-/);
    await page.waitForSelector('[data-testid="tap-info"][data-state="live"]', { timeout: 15_000 });
    expect(await page.textContent('[data-testid="tap-info"]')).toContain(sdk.url);
    // Observing only: no tool forms that would send on the tapped connection.
    expect(await page.$('[data-testid="tool-call-form"]')).toBeNull();
  });

  it('shows the client’s frames as they pass', async () => {
    // One row per frame, so each direction and each fault mark has its own row.
    await showFrames(page);
    const before = await frames();
    expect(await call('one two two three')).toBe('count 4');
    await page.waitForSelector('[data-testid="timeline-row"][data-method="tools/call"][data-direction="in"]', { timeout: 15_000 });
    expect(await frames()).toBeGreaterThan(before);
    const seen = await frames();
    expect(await call('a b')).toBe('count 2');
    await expect.poll(frames, { timeout: 10_000 }).toBeGreaterThan(seen);
  });

  it('a 503 switched on from the page makes the client retry, each refusal marked; switched off, calls pass', async () => {
    await page.check('[data-fault="http-503"] [data-testid="fault-switch"]');
    // The switch reaches the tap over its control stream; the first call after it is refused.
    await expect.poll(() => call('x y z'), { timeout: 20_000, interval: 200 }).toMatch(/503/);
    expect(retries).toBeGreaterThanOrEqual(2);
    await page.waitForSelector('[data-testid="timeline-row"][data-kind="fault"]', { timeout: 10_000 });
    const statuses = await page.$$eval('[data-testid="timeline-row"] [data-testid="row-status"]', (cells) => cells.map((c) => c.textContent));
    expect(statuses.filter((s) => s === 'HTTP 503').length).toBeGreaterThanOrEqual(3);
    // One mark per refusal, naming the fault, its kind and the request; a mark, not a peer's error.
    const marks = page.locator('[data-testid="timeline-row"][data-kind="fault"]');
    await expect.poll(() => marks.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    // Each call connects anew, so the first refused request is its server/discover or, when the
    // switch landed between the two, its tools/call.
    expect(await marks.first().getAttribute('data-fault')).toMatch(/^http-503 · http-status · (server\/discover|tools\/call word_count)/);
    expect(await marks.first().getAttribute('data-error')).toBeNull();
    await marks.first().click();
    await expect.poll(async () => (await page.textContent('[data-testid="detail-fault"]')) ?? '', { timeout: 5000 }).toContain('http-503');
    // Filterable: "Faults only" leaves the marks alone.
    await page.click('[data-testid="timeline-filters"] summary');
    await page.check('[data-testid="filter-faults"]');
    const kinds = await page.$$eval('[data-testid="timeline-row"]', (rows) => rows.map((r) => r.getAttribute('data-kind')));
    expect(kinds.length).toBeGreaterThanOrEqual(3);
    expect(new Set(kinds)).toEqual(new Set(['fault']));
    await page.uncheck('[data-testid="filter-faults"]');
    await page.click('[data-testid="timeline-filters"] summary');

    await page.uncheck('[data-fault="http-503"] [data-testid="fault-switch"]');
    await expect.poll(() => call('back to normal'), { timeout: 20_000, interval: 200 }).toBe('count 3');
  });
});
