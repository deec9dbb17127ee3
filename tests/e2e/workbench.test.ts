import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from '../helpers/processes';
import { startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * The inspector's workbench in headless Chromium on the demo: the layout at 1280×800 and
 * 1440×900 (nothing in the panels cut off, the app view wide enough to use, the toolbar on one
 * line) and in small windows (800×600, 390×844: rows to read, nothing off the page sideways), resizable panes remembered, the timeline's one row per exchange that unfolds into its
 * frames and whose waterfall zooms and pans, the JSON tree that folds and copies a value or its
 * path, and a task's input request shown where the user is looking.
 */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
];

async function connected(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
}

async function callTool(page: Page, name: string, asTask = false): Promise<void> {
  await page.click('[data-tab="tools"]');
  await page.click(`[data-testid="tools-table"] tr[data-tool="${name}"] [data-testid="select-tool"]`);
  if (name === 'generate_report') await page.selectOption('[data-testid="tool-call-form"] select[name="size"]', 'small');
  if (asTask) await page.check('[data-testid="run-as-task"]');
  await page.click(`[data-testid="tool-call-form"][data-tool="${name}"] [data-testid="call-tool"]`);
}

/**
 * What is cut off in the shown tab: every control, header cell and cell whose box runs past the
 * visible box of the nearest ancestor that clips or scrolls sideways (or past the panel), and
 * every such ancestor whose content is wider than it.
 */
function clipped(page: Page, panel: string): Promise<string[]> {
  return page.$eval(`[data-panel="${panel}"]`, (root) => {
    const out: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const clips = (el: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    for (const el of root.querySelectorAll('*')) {
      if (el instanceof HTMLElement && el !== root && clips(el) && el.scrollWidth > el.clientWidth + 1 && el.getClientRects().length) {
        out.push(`${name(el)} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      }
    }
    for (const el of root.querySelectorAll('button, input, select, textarea, th, td, iframe, [data-testid="tools-table"] span')) {
      const r = el.getBoundingClientRect();
      if (!r.width || !el.getClientRects().length) continue;
      let box: Element | null = el.parentElement;
      while (box && box !== root && !clips(box)) box = box.parentElement;
      const b = (box ?? root).getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1)
        out.push(`${name(el)} [${Math.round(r.left)}, ${Math.round(r.right)}] outside [${Math.round(b.left)}, ${Math.round(b.right)}]`);
    }
    return out;
  });
}

describe('inspector workbench', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-workbench-'));
  });
  afterAll(() => stopAppAndBrowser({ server, browser, dataDir }));

  for (const viewport of VIEWPORTS) {
    it(`cuts nothing off in the panels at ${viewport.width}×${viewport.height}, and the demo's app view is at least 600 px wide`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${base}/?token=${server.token}`);
      await connected(page);
      const toolbar = await page.locator('[data-testid="timeline-toolbar"]').boundingBox();
      expect(toolbar!.height).toBeLessThan(44); // one line of controls

      await callTool(page, 'notes_timeline');
      await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
      const frame = await page.locator('[data-testid="app-view"] iframe').boundingBox();
      expect(frame!.width).toBeGreaterThanOrEqual(600);
      expect(await clipped(page, 'tools')).toEqual([]);

      await callTool(page, 'generate_report', true);
      await page.waitForSelector('[data-testid="task-card"]');
      expect(await clipped(page, 'tasks')).toEqual([]);
      // A listen stream, so the SSE table has a row.
      await page.check('[data-testid="task-card"] [data-testid="listen-toggle"]');
      await page.click('[data-tab="streams"]');
      await page.waitForSelector('[data-testid="stream-row"]');
      for (const column of ['Keep-alives', 'Bytes', 'Lifetime', 'Close']) await page.waitForSelector(`[data-testid="streams-table"] th >> text=${column}`);
      expect(await clipped(page, 'streams')).toEqual([]);
      for (const tab of ['resources', 'prompts']) {
        await page.click(`[data-tab="${tab}"]`);
        await page.waitForSelector(`[data-panel="${tab}"]:not([hidden])`);
        expect(await clipped(page, tab)).toEqual([]);
      }
      await context.close();
    });
  }

  // Small windows: a 13" laptop's browser at 800×600 keeps the panes side by side, a phone-sized one stacks them.
  for (const viewport of [
    { width: 800, height: 600, stacked: false },
    { width: 390, height: 844, stacked: true },
  ]) {
    it(`at ${viewport.width}×${viewport.height} the timeline shows at least five rows, nothing runs off the page sideways, and the header follows the rows`, async () => {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      await page.goto(`${base}/?token=${server.token}`);
      await connected(page);
      await page.waitForSelector('[data-testid="timeline-row"]');
      // Five rows of 28 px fit in the list (it was two at 800×600, and 2 px tall at 390×844).
      const list = (await page.locator('[data-testid="timeline-list"]').boundingBox())!;
      expect(list.height).toBeGreaterThanOrEqual(5 * 28);
      // The page itself never scrolls sideways; what is wider scrolls inside its own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      const timeline = (await page.locator('[data-testid="timeline"]').boundingBox())!;
      const detail = (await page.locator('[data-testid="detail-pane"]').boundingBox())!;
      if (viewport.stacked) {
        expect(detail.y).toBeGreaterThanOrEqual(timeline.y + timeline.height);
        expect(detail.width).toBeGreaterThan(viewport.width - 40);
        expect(await page.$('[data-testid="splitter-timeline-detail"]')).toBeNull();
      } else {
        expect(detail.x).toBeGreaterThanOrEqual(timeline.x + timeline.width);
        expect(await page.$('[data-testid="splitter-timeline-detail"]')).not.toBeNull();
      }

      // Scrolled sideways, the column names stay over their columns.
      const scrolled = await page.$eval('[data-testid="timeline-list"]', (el) => {
        el.scrollLeft = el.scrollWidth;
        return el.scrollLeft;
      });
      const sizeHead = page.locator('[data-testid="time-axis"] span', { hasText: /^size$/ });
      const sizeCell = page.locator('[data-testid="timeline-row"] [data-testid="row-size"]').first();
      await expect.poll(async () => Math.round((await sizeHead.boundingBox())!.x - (await sizeCell.boundingBox())!.x)).toBe(0);
      if (viewport.stacked) expect(scrolled).toBeGreaterThan(0);

      // A row still opens in the detail pane, and the panels below are reachable.
      await page.locator('[data-testid="timeline-row"]').first().click();
      await page.waitForSelector('[data-testid="detail-pane"]:not([data-empty])');
      await page.click('[data-tab="tools"]');
      await page.locator('[data-testid="tools-table"] tr[data-tool="echo"]').scrollIntoViewIfNeeded();
      expect(await page.locator('[data-testid="tools-table"] tr[data-tool="echo"]').isVisible()).toBe(true);
      await context.close();
    });
  }

  it('keeps the panes and what is typed in them when the window narrows until they stack, and widens again', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/`);
    await connected(page);
    await page.click('[data-tab="tools"]');
    await page.click('[data-testid="tools-table"] tr[data-tool="echo"] [data-testid="select-tool"]');
    const text = '[data-testid="tool-call-form"][data-tool="echo"] input[name="text"]';
    await page.fill(text, 'half written');
    await page.setViewportSize({ width: 600, height: 800 });
    await page.waitForSelector('[data-split="timeline-detail"][data-stacked]');
    expect(await page.inputValue(text)).toBe('half written');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForSelector('[data-testid="splitter-timeline-detail"]');
    expect(await page.inputValue(text)).toBe('half written');
    await page.close();
  });

  it('resizes the panes with the keyboard and remembers the size after a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/`);
    await connected(page);
    const splitter = page.locator('[data-testid="splitter-timeline-detail"]');
    const before = Number(await splitter.getAttribute('aria-valuenow'));
    const width = (await page.locator('[data-testid="timeline"]').boundingBox())!.width;
    await splitter.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    expect(Number(await splitter.getAttribute('aria-valuenow'))).toBe(before + 10);
    expect((await page.locator('[data-testid="timeline"]').boundingBox())!.width).toBeGreaterThan(width + 100);
    await page.reload();
    await connected(page);
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="splitter-timeline-detail"]')?.getAttribute('aria-valuenow')) === n,
      before + 10,
    );
    await page.close();
  });

  it('shows one row per exchange with method, status, duration and size, which unfolds into its frames', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${base}/`);
    await connected(page);
    const row = page.locator('[data-testid="timeline-row"][data-kind="exchange"][data-method="tools/list"]');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    await page.waitForFunction(() =>
      document.querySelector('[data-kind="exchange"][data-method="tools/list"] [data-testid="row-status"]')?.textContent?.includes('complete'),
    );
    expect(await row.locator('[data-testid="row-status"]').textContent()).toBe('200 complete');
    expect(await row.locator('[data-testid="row-duration"]').textContent()).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    expect(await row.locator('[data-testid="row-size"]').textContent()).toMatch(/^\d+(\.\d+)? (B|KiB)$/);
    expect(await page.locator('[data-testid="timeline-row"][data-method="tools/list"]').count()).toBe(1);

    await row.locator('[data-expand]').click();
    expect(await row.getAttribute('aria-expanded')).toBe('true');
    const frames = await page.$$eval('[data-testid="timeline-row"][data-child][data-method="tools/list"]', (els) =>
      els.map((e) => `${e.getAttribute('data-direction')} ${e.getAttribute('data-kind')}`),
    );
    expect(frames).toEqual(['out http-request', 'in http-response', 'in message']);
    // The exchange's answer opens in the detail, with the exchange's other frames one click away.
    expect(await page.getAttribute('[data-testid="detail-pane"]', 'data-entry-id')).toBe(await row.getAttribute('data-id'));
    await page.click('[data-testid="exchange-frames"] button[data-frame-kind="http-request"]');
    await page.waitForSelector('[data-testid="detail-facts"] >> text=http-request');

    // ← folds it again, from the keyboard.
    await row.click();
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => !document.querySelector('[data-testid="timeline-row"][data-child]'));
    await page.close();
  });

  it('zooms and pans the waterfall with its buttons and keys, and fits the rows in view again', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${base}/`);
    await connected(page);
    await page.waitForSelector('[data-testid="timeline-row"][data-kind="exchange"][data-method="tools/list"]');
    const head = page.locator('[data-testid="waterfall-head"]');
    const window = async () => ({ from: Number(await head.getAttribute('data-from')), to: Number(await head.getAttribute('data-to')) });
    const fit = await window();
    expect(fit.to).toBeGreaterThan(fit.from);
    // The bars drawn (their place and length on the window), every row's.
    const bars = () => page.$$eval('[data-testid="timeline-row"] [data-waterfall] span', (els) => els.map((e) => e.getAttribute('style')).join('|'));
    const fitBars = await bars();

    await page.click('[data-testid="zoom-in"]');
    const zoomed = await window();
    expect(zoomed.to - zoomed.from).toBeCloseTo((fit.to - fit.from) / 2, -1);
    expect(await head.getAttribute('data-pinned')).toBe('true');
    expect(await bars()).not.toBe(fitBars);

    await page.click('[data-testid="pan-later"]');
    const panned = await window();
    expect(panned.from).toBeGreaterThan(zoomed.from);
    expect(Math.abs(panned.to - panned.from - (zoomed.to - zoomed.from))).toBeLessThanOrEqual(1);

    await page.focus('[data-testid="timeline-list"]');
    await page.keyboard.press('-');
    const out = await window();
    expect(out.to - out.from).toBeGreaterThan(panned.to - panned.from);
    await page.keyboard.press('0');
    await page.waitForFunction(() => !document.querySelector('[data-testid="waterfall-head"]')?.hasAttribute('data-pinned'));
    expect(await window()).toEqual(fit);

    // Ctrl + wheel over the bars zooms around the pointer (one listener, bound once, through every commit since).
    const column = await page.locator('[data-testid="timeline-row"] [data-waterfall]').first().boundingBox();
    await page.mouse.move(column!.x + column!.width / 2, column!.y + column!.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.querySelector('[data-testid="waterfall-head"]')?.getAttribute('data-pinned') === 'true');
    const wheeled = await window();
    expect(wheeled.to - wheeled.from).toBeLessThan(fit.to - fit.from);
    await page.close();
  });

  it('folds the JSON of an answer and copies a value and its JSONPath', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await connected(page);
    await page.click('[data-testid="timeline-row"][data-kind="exchange"][data-method="tools/list"]');
    const tree = page.locator('[data-testid="detail-json-tree"]');
    await tree.waitFor();
    // Deep levels start folded: the tools array shows its length only.
    expect(await tree.locator('[data-json-node="$.result.tools"]').textContent()).toContain('8 items');
    expect(await tree.locator('[data-json-node="$.result.tools[0]"]').count()).toBe(0);
    await tree.locator('button[aria-label="Unfold $.result.tools"]').click();
    await tree.locator('button[aria-label="Unfold $.result.tools[0]"]').click();
    const name = (await tree.locator('[data-json-node="$.result.tools[0].name"]').textContent())!.split(': ')[1]!;
    await tree.locator('[data-path="$.result.tools[0].name"]').click();
    expect(await page.textContent('[data-testid="json-selected-path"]')).toBe('$.result.tools[0].name');

    await page.click('[data-testid="json-copy-path"]');
    await page.waitForSelector('[data-testid="json-copied"] >> text=Copied the path');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('$.result.tools[0].name');
    await page.click('[data-testid="json-copy-value"]');
    await page.waitForSelector('[data-testid="json-copied"] >> text=Copied the value');
    expect(JSON.stringify(await page.evaluate(() => navigator.clipboard.readText()))).toBe(name);

    await tree.locator('button[aria-label="Fold $.result"]').click();
    expect(await tree.locator('[data-json-node="$.result.tools"]').count()).toBe(0);
    // Raw shows the text as it came.
    await page.click('[data-testid="json-raw-toggle"]');
    const raw = JSON.parse((await page.textContent('[data-testid="detail-json"]'))!) as { result: { tools: unknown[] } };
    expect(raw.result.tools).toHaveLength(8);
    await context.close();
  });

  it("shows a task's input request where the user is: the Tasks tab opens on the new task and its badge counts the tasks waiting", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/?token=${server.token}`);
    await connected(page);
    await callTool(page, 'generate_report', true);
    await page.waitForSelector('[data-tab="tasks"][aria-selected="true"]');
    await page.waitForSelector('[data-testid="task-card"][data-status="input_required"]', { timeout: 20_000 });
    expect(await page.textContent('[data-tab="tasks"] [data-testid="tasks-input-badge"]')).toBe('1 input');
    await page.click('[data-tab="tools"]');
    expect(await page.isVisible('[data-tab="tasks"] [data-testid="tasks-input-badge"]')).toBe(true);
    await page.close();
  });
});
