import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../lib/shared/fingerprint';
import type { Started } from '../helpers/processes';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { httpTarget } from '../integration/http-target';
import { startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * The control room on the app server (`npm start`) in headless Chromium: copy the built-in demo scenario,
 * break its YAML and see the error at its line, fix it (making the report's first step manual)
 * and save, call a tool from a client and see it in the journal, advance the manual task from
 * the UI and see the client observe the new status, then follow a report-card grade to its
 * evidence in the journal.
 */

const lineOf = (text: string, pattern: RegExp): number => {
  const index = text.split('\n').findIndex((l) => pattern.test(l));
  if (index < 0) throw new Error(`no line matches ${pattern}`);
  return index + 1;
};

/**
 * Put the editor's cursor at the end of a 1-based line, the way a user would with the keyboard:
 * CodeMirror's "Go to line" (Ctrl-Alt-G). Arrow keys move by visual line, and long lines wrap.
 */
async function gotoLineEnd(page: Page, line: number): Promise<void> {
  await page.click('[data-testid="scenario-editor-content"]');
  await page.keyboard.press('Control+Alt+g');
  const input = await page.waitForSelector('.cm-gotoLine input, .cm-panel input[name="line"]');
  await input.fill(String(line));
  await input.press('Enter');
  await page.keyboard.press('End');
}

describe('control room', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;
  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-control-'));
  });
  afterAll(() => stopAppAndBrowser({ server, browser, dataDir }));

  it('explains how to get the token when the cookie is missing', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/scenarios/demo`);
    const message = await page.textContent('[data-testid="missing-token"]');
    expect(message).toContain('npm start');
    expect(await page.$('[data-testid="scenario-editor"]')).toBeNull();
    await page.close();
  });

  it('edits, saves and drives a scenario while a client uses it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/?token=${server.token}`);

    // Open the demo scenario from the list: it is built in, so it is read-only until copied.
    await page.goto(`${base}/scenarios`);
    await page.click('[data-testid="scenario-item"][data-id="demo"] a');
    await page.waitForURL(/\/scenarios\/demo$/);
    await page.waitForSelector('[data-testid="builtin-notice"]');
    expect(await page.isDisabled('[data-testid="save-scenario"]')).toBe(true);
    await page.fill('[data-testid="duplicate-id"]', 'demo-copy');
    await page.click('[data-testid="duplicate-scenario"]');
    await page.waitForURL(/\/scenarios\/demo-copy$/);
    await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
    await page.waitForSelector('[data-testid="editor-valid"]');
    expect(await page.$('[data-testid="builtin-notice"]')).toBeNull();
    const original = fs.readFileSync(path.join(dataDir, 'scenarios', 'demo-copy.yaml'), 'utf8');
    expect(await page.textContent('[data-testid="scenario-editor-content"]')).toContain('id: demo-copy');

    // Break it: a string where settings.pollIntervalMs needs a number.
    const pollLine = lineOf(original, /^ {2}pollIntervalMs: 1000$/);
    await gotoLineEnd(page, pollLine);
    for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('fast');
    const issue = await page.waitForSelector('[data-testid="editor-issue"][data-severity="error"]');
    expect(await issue.getAttribute('data-line')).toBe(String(pollLine));
    expect(await issue.textContent()).toContain('settings.pollIntervalMs');
    expect(await page.$$('[data-testid="editor-issue"]')).toHaveLength(1);
    expect(await page.$('.cm-lintRange-error')).not.toBeNull();
    expect(await page.$('.cm-lint-marker-error')).not.toBeNull();
    expect(await page.isDisabled('[data-testid="save-scenario"]')).toBe(true);

    // Fix it, and make the report's first step wait for a manual advance.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('1000');
    const delayLine = lineOf(original, /^\s+delayMs: 1500$/);
    await gotoLineEnd(page, delayLine);
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('manual: true');
    await page.waitForSelector('[data-testid="editor-valid"]');
    await page.click('[data-testid="save-scenario"]');
    await page.waitForSelector('[data-testid="editor-note"][data-tone="ok"]');
    const saved = fs.readFileSync(path.join(dataDir, 'scenarios', 'demo-copy.yaml'), 'utf8');
    expect(saved.split('\n')[delayLine - 1].trim()).toBe('manual: true');
    expect(saved.split('\n')[pollLine - 1]).toBe('  pollIntervalMs: 1000');

    // A client calls generate_report on the saved scenario; the call shows in the journal.
    const client = httpTarget(`${base}/mcp/demo-copy`);
    const opts = client.opts({ caps: CAPS.formAndTasks });
    const started = await callTool(client, 'generate_report', { size: 'small' }, opts);
    expect(started.body.result).toMatchObject({ resultType: 'task', status: 'working', statusMessage: 'Drafting outline for a small report' });
    const taskId = started.body.result.taskId as string;
    const call = await page.waitForSelector('[data-testid="journal-entry"][data-method="tools/call"][data-status="200"]');
    await (await call.$('[data-testid="journal-entry-toggle"]'))!.click();
    expect(await call.textContent()).toContain('generate_report');
    expect(await (await call.$('[data-testid="journal-headers"]'))!.textContent()).toContain('mcp-method');
    expect(await (await call.$('[data-testid="journal-request-body"]'))!.textContent()).toContain('"size": "small"');

    // The step is manual now: past the old 1.5 s delay the client still sees it working.
    const row = `[data-testid="task-row"][data-fingerprint="${fingerprint(taskId)}"]`;
    await page.waitForSelector(`${row}[data-status="working"]`);
    await new Promise((r) => setTimeout(r, 1_700));
    expect((await rpc(client, 'tasks/get', { taskId }, opts)).body.result.status).toBe('working');

    // Advance it from the UI; the client, polling at pollIntervalMs, sees the next status.
    await page.click(`${row} [data-testid="task-advance"]`);
    let seen: { status: string; inputRequests?: Record<string, unknown> } = { status: 'working' };
    let polls = 1;
    for (let i = 0; i < 10 && seen.status === 'working'; i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      seen = (await rpc(client, 'tasks/get', { taskId }, opts)).body.result;
      polls++;
    }
    expect(seen.status).toBe('input_required');
    expect(Object.keys(seen.inputRequests ?? {})).toEqual(['approve_outline']);
    await page.waitForSelector(`${row}[data-status="input_required"]`);
    expect(await page.textContent(`${row} [data-testid="task-status-message"]`)).toContain('Waiting for the outline to be approved');

    // The report card links its grades to the journal entries that prove them.
    // Every poll carried Mcp-Name: the grade passes with each tasks/get as its evidence.
    const grade = '[data-testid="grade"][data-grade-id="mcp-name"][data-status="pass"]';
    await page.waitForSelector(`${grade} [data-testid="grade-evidence"]:has-text("Show ${polls} journal entries")`);
    await page.click(`${grade} [data-testid="grade-evidence"]`);
    const lit = await page.$$eval('[data-testid="journal-entry"][data-highlighted="true"]', (els) => els.map((e) => e.getAttribute('data-method')));
    expect(lit).toEqual(Array(polls).fill('tasks/get'));
    expect(await page.$$('[data-testid="journal-entry"][data-highlighted="false"]')).not.toHaveLength(0);
    await context.close();
  });
});
