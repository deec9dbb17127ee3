import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Started } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { launchChromium, showFrames } from './browser';

/**
 * The streams panel in headless Chromium against a scenario that cuts every listen stream at
 * its third event (after the acknowledgement and the first snapshot, at the task's next status
 * change): the inspector listens for a task, and each drop shows the reconnect plan being
 * executed (backoff 250 ms × 2ⁿ, a new listen with the same filter, the task refetched once the
 * new listen is acknowledged, no Last-Event-ID) until the task ends and the listen is closed.
 */

const CUT_LISTEN = {
  id: 'cut-listen',
  name: 'Listen streams cut at each status change',
  server: { name: 'cut-listen', version: '1.0.0' },
  settings: { pollIntervalMs: 1_000 },
  tools: [
    {
      name: 'build_project',
      inputSchema: { type: 'object', properties: { project: { type: 'string' } }, required: ['project'] },
      task: {
        mode: 'required',
        steps: [
          { statusMessage: 'Resolving', delayMs: 1_200 },
          { statusMessage: 'Compiling', delayMs: 1_200 },
          { statusMessage: 'Testing', delayMs: 1_200 },
          // Two more status changes than the two drops need: the listen starts when the page gets
          // to it, and on a loaded machine that can be a status change or two after the call.
          { statusMessage: 'Packaging', delayMs: 1_200 },
          { statusMessage: 'Publishing', delayMs: 1_200 },
          { result: { content: [{ type: 'text', text: 'Built {{args.project}}' }] } },
        ],
      },
    },
  ],
  faults: [{ name: 'proxy-cuts-listen', match: { method: 'subscriptions/listen' }, action: { kind: 'drop', afterEvents: 3 } }],
};
describe('streams panel: a dropped listen and its reconnect plan', () => {
  let server: Started;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-streams-'));
    server = await startApp(dataDir);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    page = await context.newPage();
    await page.goto(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-listens after each drop with the plan, then closes the listen when the task ends', async () => {
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    const saved = await controlApi(`http://127.0.0.1:${server.port}`, server.token!, `/api/scenarios/${CUT_LISTEN.id}/source`, 'PUT', CUT_LISTEN);
    expect(saved.status).toBe(200);
    await page.fill('[data-testid="url-input"]', `/mcp/${CUT_LISTEN.id}`);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]');
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="build_project"] [data-testid="select-tool"]');
    await page.fill('[data-testid="tool-call-form"] input[name="project"]', 'loupe');
    await page.check('[data-testid="run-as-task"]');
    await page.click('[data-testid="call-tool"]');
    const card = await page.waitForSelector('[data-testid="task-card"][data-status="working"]');
    const fp = await card.getAttribute('data-fp');
    await page.check('[data-testid="task-card"] [data-testid="listen-toggle"]');
    await page.click('[data-tab="streams"]');

    // Two drops, each with its plan carried out: backoff doubling, re-listen, refetch.
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="listen-drop"] [data-testid="plan-refetch"][data-done="true"]').length >= 2,
      undefined,
      { timeout: 10_000 },
    );
    const drops = await page.$$eval('[data-testid="listen-drop"]', (els) =>
      els.map((d) => ({ attempt: d.getAttribute('data-attempt'), text: d.textContent ?? '' })),
    );
    expect(drops[0].attempt).toBe('0');
    expect(drops[0].text).toContain('wait 250 ms');
    expect(drops[1].text).toContain('wait 500 ms');
    for (const d of drops.slice(0, 2)) {
      expect(d.text).toContain(`same filters (tasks ${fp})`);
      expect(d.text).toContain(`refetch ${fp} with tasks/get`);
      expect(d.text).toContain('no Last-Event-ID');
    }
    // Each cut stream was acknowledged and then ended without its final response (the mock
    // closes the body; a cut network connection shows as network-error).
    const listenRows = await page.$$eval('[data-testid="stream-row"][data-method="subscriptions/listen"]', (rows) =>
      rows.map((r) => ({ close: r.getAttribute('data-close'), ack: r.querySelector('[data-testid="stream-ack"]')?.textContent })),
    );
    expect(listenRows.filter((r) => (r.close === 'network-error' || r.close === 'server-closed') && r.ack === 'acknowledged').length).toBeGreaterThanOrEqual(2);

    // Each re-listen is a new request, and none is flagged for sending Last-Event-ID.
    await showFrames(page);
    const requests = await page.$$eval('[data-testid="timeline-row"][data-method="subscriptions/listen"][data-direction="out"]', (rows) =>
      rows.map((r) => r.querySelector('[data-testid="lint-badge"]')?.getAttribute('title') ?? ''),
    );
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const lints of requests) expect(lints).not.toMatch(/Last-Event-ID/i);

    await page.click('[data-tab="tasks"]');
    await page.waitForSelector('[data-testid="task-card"][data-status="completed"]', { timeout: 15_000 });
    await page.click('[data-tab="streams"]');
    await page.waitForSelector('[data-testid="listen-card"][data-state="closed"]', { timeout: 10_000 });
    expect(await page.isChecked('[data-testid="task-card"] [data-testid="listen-toggle"]')).toBe(false);

    // One drop per cut stream, however the timeline's batches and the listener's reports
    // interleaved; every drop but the last was re-listened and refetched (the last may have been
    // closed with the task during its backoff).
    const summary = await page.$eval('[data-testid="listen-card"]', (c) => c.textContent ?? '');
    const dropCount = Number(/(\d+) drops?/.exec(summary)?.[1]);
    const cut = await page.$$eval(
      '[data-testid="stream-row"][data-method="subscriptions/listen"]',
      (rows) => rows.filter((r) => ['network-error', 'server-closed'].includes(r.getAttribute('data-close') ?? '')).length,
    );
    expect(dropCount).toBe(cut);
    const steps = await page.$$eval('[data-testid="listen-drop"]', (els) =>
      els.map((d) => ['plan-relisten', 'plan-refetch'].map((id) => d.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-done'))),
    );
    for (const done of steps.slice(0, -1)) expect(done).toEqual(['true', 'true']);
  });
});
