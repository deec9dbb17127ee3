import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../lib/shared/fingerprint';
import type { Started } from '../helpers/processes';
import { CAPS, callTool } from '../helpers/rpc';
import { httpTarget } from '../integration/http-target';
import { startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * The control room's actions as a user meets them, on the app server in headless Chromium: a way
 * back to the inspector, New scenario from the starter template, soft-wrapped long lines, Revert
 * edits (the saved file back, state kept), Reset behind a confirmation dialog that says what it
 * wipes, Advance explained and off while a task waits for the client, and Complete replacing the
 * waiting status message.
 */

describe('control room actions', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-control-actions-'));
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${base}/?token=${server.token}`);
  });
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser({ server, browser, dataDir });
  });

  it('links back to the inspector from the scenario list and the control room, keeping the session', async () => {
    await page.goto(`${base}/scenarios`);
    await page.waitForSelector('[data-testid="scenario-list"]');
    await page.click('[data-testid="back-to-inspector"]');
    await page.waitForURL(`${base}/`);
    expect(await page.$('[data-testid="missing-token"]')).toBeNull();
    await page.goto(`${base}/scenarios/demo`);
    await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
    expect(await page.textContent('[data-testid="back-to-inspector"]')).toContain('Inspector');
    await page.click('[data-testid="back-to-inspector"]');
    await page.waitForURL(`${base}/`);
    // Back in the list, the session still holds: scenarios load, no token hint.
    await page.goto(`${base}/scenarios`);
    await page.waitForSelector('[data-testid="scenario-list"]');
  });

  it('creates a new scenario from the starter template, and refuses an id already taken', async () => {
    await page.goto(`${base}/scenarios`);
    await page.fill('[data-testid="new-scenario-id"]', 'demo');
    await page.click('[data-testid="new-scenario"]');
    expect(await (await page.waitForSelector('[data-testid="new-scenario-error"]')).textContent()).toContain('already exists');

    await page.fill('[data-testid="new-scenario-id"]', 'fresh-one');
    await page.click('[data-testid="new-scenario"]');
    await page.waitForURL(/\/scenarios\/fresh-one$/);
    await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
    await page.waitForSelector('[data-testid="editor-valid"]');
    expect(await page.textContent('[data-testid="scenario-editor-content"]')).toContain('id: fresh-one');
    expect(fs.readFileSync(path.join(dataDir, 'scenarios', 'fresh-one.yaml'), 'utf8')).toContain('id: fresh-one');
    // The mock serves it at once: its echo tool answers a client.
    const client = httpTarget(`${base}/mcp/fresh-one`);
    const echoed = await callTool(client, 'echo', { text: 'hello there' }, client.opts({ caps: CAPS.none }));
    expect(echoed.body.result.content).toEqual([{ type: 'text', text: 'hello there' }]);
    await page.waitForSelector('[data-testid="journal-entry"][data-method="tools/call"]');
  });

  it('wraps long lines instead of scrolling sideways', async () => {
    await page.click('[data-testid="scenario-editor-content"]');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(`# ${'a long comment that keeps going '.repeat(8)}end`);
    await page.waitForSelector('[data-testid="save-scenario"]:has-text("Save *")');
    const scroller = await page.$eval('[data-testid="scenario-editor"] .cm-scroller', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroller.scroll).toBeLessThanOrEqual(scroller.client);
    const tail = await page.$$eval('[data-testid="scenario-editor"] .cm-line', (lines) => lines.at(-1)?.getBoundingClientRect().height ?? 0);
    const first = await page.$eval('[data-testid="scenario-editor"] .cm-line', (l) => l.getBoundingClientRect().height);
    expect(tail).toBeGreaterThan(first * 1.5);
  });

  it('reverts unsaved edits to the saved file without touching the journal', async () => {
    const journal = await page.$$('[data-testid="journal-entry"]');
    expect(journal.length).toBeGreaterThan(0);
    await page.click('[data-testid="revert-scenario"]');
    await page.waitForSelector('[data-testid="editor-note"][data-tone="ok"]:has-text("Reverted")');
    expect(await page.textContent('[data-testid="scenario-editor-content"]')).not.toContain('a long comment');
    expect(await page.textContent('[data-testid="save-scenario"]')).toBe('Save');
    expect(await page.isDisabled('[data-testid="revert-scenario"]')).toBe(true);
    expect(await page.$$('[data-testid="journal-entry"]')).toHaveLength(journal.length);
  });

  it('asks before Reset, says what it wipes, and wipes only when confirmed', async () => {
    const before = (await page.$$('[data-testid="journal-entry"]')).length;
    await page.click('[data-testid="reset-scenario"]');
    const dialog = await page.waitForSelector('[data-testid="reset-dialog"][open]');
    expect(await dialog.getAttribute('aria-labelledby')).toBeTruthy();
    expect(await page.getByRole('dialog', { name: 'Reset fresh-one?' }).isVisible()).toBe(true);
    const text = await dialog.textContent();
    expect(text).toContain('live tasks, its journal');
    expect(text).toContain('does not touch the file');
    // Focus starts on the harmless choice; Escape backs out.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('confirm-cancel');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="reset-dialog"]:not([open])', { state: 'attached' });
    expect(await page.$$('[data-testid="journal-entry"]')).toHaveLength(before);

    await page.click('[data-testid="reset-scenario"]');
    await page.click('[data-testid="reset-dialog"] [data-testid="confirm-ok"]');
    await page.waitForSelector('[data-testid="editor-note"][data-tone="ok"]:has-text("Reset")');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="journal-entry"]').length === 0, undefined, { polling: 100 });
  });

  it('explains why Advance is off while a task waits for the client, and Complete clears the waiting message', async () => {
    await page.goto(`${base}/scenarios/demo`);
    await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
    const client = httpTarget(`${base}/mcp/demo`);
    const started = await callTool(client, 'generate_report', { size: 'small' }, client.opts({ caps: CAPS.formAndTasks }));
    const taskId = started.body.result.taskId as string;
    const row = `[data-testid="task-row"][data-fingerprint="${fingerprint(taskId)}"]`;
    // The first step is timed: the task asks for the outline's approval on its own.
    await page.waitForSelector(`${row}[data-status="input_required"]`, { timeout: 20_000 });
    expect(await page.textContent(`${row} [data-testid="task-status-message"]`)).toContain('Waiting for the outline to be approved');
    expect(await page.isDisabled(`${row} [data-testid="task-advance"]`)).toBe(true);
    expect(await page.getAttribute(`${row} [data-testid="task-advance"]`, 'title')).toContain("Waiting for the client's answer");
    expect(await page.textContent(`${row} [data-testid="advance-reason"]`)).toContain('Complete or Fail end it now');
    expect(await page.isDisabled(`${row} [data-testid="task-complete"]`)).toBe(false);

    await page.click(`${row} [data-testid="task-complete"]`);
    await page.waitForSelector(`${row}[data-status="completed"]`);
    const message = await page.textContent(`${row} [data-testid="task-status-message"]`);
    expect(message).not.toContain('Waiting for the outline');
    expect(message).toBe('No status message');
    expect(await page.$(`${row} [data-testid="advance-reason"]`)).toBeNull();
  });
});
