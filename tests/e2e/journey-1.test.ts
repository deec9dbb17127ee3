import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Started } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { launchChromium, showFrames } from './browser';

/**
 * Journey 1 ("my task never completes"), in headless Chromium against the app server (`npm start`): the home
 * page is already connected to the demo mock; run generate_report as a task and watch it go
 * working → input_required, answer the approval form in place, see it complete with its
 * result, with every poll inside the task's span on the timeline; start another and cancel it,
 * followed to `cancelled` while the panel says the ack is not final; then connect to a
 * deliberately broken scenario and find its lint on the entry that breaks the spec.
 */

const BROKEN = {
  id: 'broken-journey',
  name: 'Broken on purpose',
  server: { name: 'broken', version: '0.0.1' },
  tools: [
    {
      name: 'fine',
      description: 'Answers correctly',
      inputSchema: { type: 'object', properties: {} },
      result: { content: [{ type: 'text', text: 'all good' }] },
    },
    // -32050 sits in the range 2026-07-28 reserves (-32020..-32099) without being defined there.
    {
      name: 'boom',
      description: 'Fails with a code the spec reserves',
      inputSchema: { type: 'object', properties: {} },
      error: { code: -32050, message: 'Boom' },
    },
  ],
};

describe('journey 1: a task on the demo mock, a cancel, and a broken server’s lints', () => {
  let server: Started;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;
  let base: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-journey1-'));
    server = await startApp(dataDir);
    base = `http://127.0.0.1:${server.port}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    page = await context.newPage();
    await page.goto(`${base}/?token=${server.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
    // This journey reads the timeline frame by frame (polls, cancels, answers).
    await showFrames(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const card = (fp: string) => `[data-testid="task-card"][data-fp="${fp}"]`;

  async function callAsTask(): Promise<string> {
    const before = await page.$$eval('[data-testid="task-card"]', (cards) => cards.map((c) => c.getAttribute('data-fp')));
    await page.click('[data-tab="tools"]');
    await page.click('[data-testid="call-tool"]');
    const handle = await page.waitForFunction((known) => {
      const first = document.querySelector('[data-testid="task-card"]');
      const fp = first?.getAttribute('data-fp');
      return fp && !known.includes(fp) ? fp : null;
    }, before);
    return (await handle.jsonValue()) as string;
  }

  it('runs generate_report as a task: working, input_required, the approval answered in place, completed with its result', async () => {
    await page.waitForSelector('[data-testid="tools-table"] [data-tool="generate_report"]');
    await page.click('[data-tool="generate_report"] [data-testid="select-tool"]');
    await page.selectOption('[data-testid="tool-call-form"] select[name="size"]', 'small');
    await page.check('[data-testid="run-as-task"]');
    expect(await page.textContent('[data-testid="call-tool"]')).toBe('Call as task');
    const fp = await callAsTask();
    expect(fp).toMatch(/^[0-9a-f]{8}$/);
    expect(await page.textContent('[data-testid="created-task-fp"]')).toBe(fp);

    // working first (drafting takes 1.5 s), with the live diagram on it.
    await page.waitForSelector(`${card(fp)}[data-status="working"] [data-node="working"][data-current="true"]`);
    expect(await page.textContent(`${card(fp)} [data-testid="status-message"]`)).toContain('Drafting outline for a small report');
    await page.waitForSelector(`${card(fp)}[data-status="input_required"]`, { timeout: 10_000 });
    expect(await page.getAttribute(`${card(fp)} [data-node="working"]`, 'data-visited')).toBe('true');
    expect(await page.getAttribute(`${card(fp)} [data-node="input_required"]`, 'data-current')).toBe('true');
    expect(await page.getAttribute(`${card(fp)} [data-testid="ttl-countdown"]`, 'data-state')).toBe('ok');

    // The approval form, answered where the task shows it (tasks/update).
    const form = `${card(fp)} [data-testid="input-requests"] [data-key="approve_outline"]`;
    await page.check(`${form} input[name="approved"]`);
    await page.click(`${form} button[data-action="accept"]`);
    await page.waitForSelector(`${form}[data-answered="true"]`);

    await page.waitForSelector(`${card(fp)}[data-status="completed"]`, { timeout: 15_000 });
    expect(await page.getAttribute(`${card(fp)} [data-node="completed"]`, 'data-current')).toBe('true');
    const result = await page.textContent(`${card(fp)} [data-testid="task-result"]`);
    expect(result).toContain('Report ready');
    expect(result).toContain('Outline approved: true');
    const cadence = await page.getAttribute(`${card(fp)} [data-testid="poll-cadence"]`, 'data-too-fast');
    expect(cadence).toBe('false');

    // Task ids are bearer tokens: the panels and the timeline list show fingerprints only.
    const live = await controlApi(base, server.token!, '/api/scenarios/demo/tasks', 'GET');
    const ids = (live.json.tasks as { taskId: string }[]).map((t) => t.taskId);
    expect(ids.length).toBeGreaterThan(0);
    const html = await page.content();
    for (const id of ids) expect(html).not.toContain(id);

    // The polls sit inside the task's span on the timeline.
    await page.selectOption('[data-testid="filter-task"]', fp);
    const lane = await page.waitForSelector(`[data-testid="span-lane"][data-kind="task"][data-label="task ${fp}"]`);
    const first = Number(await lane.getAttribute('data-first-id'));
    const last = Number(await lane.getAttribute('data-last-id'));
    const polls = await page.$$eval('[data-testid="timeline-row"][data-method="tasks/get"]', (rows) => rows.map((r) => Number(r.getAttribute('data-id'))));
    expect(polls.length).toBeGreaterThanOrEqual(4);
    for (const id of polls) {
      expect(id).toBeGreaterThanOrEqual(first);
      expect(id).toBeLessThanOrEqual(last);
    }
    // The span opens with the tools/call that created the task, before any poll.
    expect(first).toBeLessThan(Math.min(...polls));
    await page.selectOption('[data-testid="filter-task"]', '');
  });

  it('follows a cancel to its terminal status, saying the ack is not final until then', async () => {
    const fp = await callAsTask();
    await page.waitForSelector(`${card(fp)}[data-status="working"]`);
    // Record every text the cancel note shows, however briefly (the next poll may be near).
    await page.evaluate(
      (sel) => {
        const seen: string[] = [];
        (window as unknown as { __cancelNotes: string[] }).__cancelNotes = seen;
        new MutationObserver(() => {
          const note = document.querySelector(sel);
          if (note?.textContent && seen[seen.length - 1] !== note.textContent) seen.push(note.textContent);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      },
      `${card(fp)} [data-testid="cancel-pending"]`,
    );
    await page.click(`${card(fp)} [data-testid="cancel-task"]`);
    await page.waitForSelector(`${card(fp)}[data-status="cancelled"]`, { timeout: 10_000 });
    const notes = await page.evaluate(() => (window as unknown as { __cancelNotes: string[] }).__cancelNotes);
    expect(notes.some((n) => n.includes('cancel requested — the ack is not final'))).toBe(true);
    expect(await page.$(`${card(fp)} [data-testid="cancel-pending"]`)).toBeNull();
    expect(await page.textContent(`${card(fp)} [data-testid="cancel-outcome"]`)).toContain('ended cancelled');
    expect(await page.getAttribute(`${card(fp)} [data-node="cancelled"]`, 'data-current')).toBe('true');
    // The cancel went out once, then polls until the terminal status.
    await page.selectOption('[data-testid="filter-task"]', fp);
    await page.waitForSelector('[data-testid="timeline-row"][data-method="tasks/cancel"]');
    const methods = await page.$$eval('[data-testid="timeline-row"][data-direction="out"]', (rows) => rows.map((r) => r.getAttribute('data-method')));
    expect(methods.filter((m) => m === 'tasks/cancel')).toHaveLength(1);
    expect(methods.lastIndexOf('tasks/get')).toBeGreaterThan(methods.indexOf('tasks/cancel'));
    await page.selectOption('[data-testid="filter-task"]', '');
  });

  it('shows a broken scenario’s lint on the entry that breaks the spec, and none on the good one', async () => {
    const saved = await controlApi(base, server.token!, `/api/scenarios/${BROKEN.id}/source`, 'PUT', BROKEN);
    expect(saved.status).toBe(200);
    await page.click('[data-testid="connect-button"]'); // disconnect from the demo
    await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    await page.fill('[data-testid="url-input"]', `/mcp/${BROKEN.id}`);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]');
    await page.click('[data-tab="tools"]');
    await page.waitForSelector('[data-tool="boom"]');

    for (const tool of ['fine', 'boom']) {
      await page.click(`[data-tool="${tool}"] [data-testid="select-tool"]`);
      await page.click('[data-testid="call-tool"]');
      await page.waitForSelector(`[data-testid="tool-call-form"][data-tool="${tool}"] [data-testid="tool-result"]`);
    }
    expect(await page.getAttribute('[data-testid="tool-result"]', 'data-outcome')).toBe('error');

    // Both calls are on the timeline; only boom's error answer carries the lint.
    await page.selectOption('[data-testid="filter-method"]', 'tools/call');
    const badge = await page.waitForSelector('[data-testid="timeline-row"][data-method="tools/call"][data-direction="in"] [data-testid="lint-badge"]', {
      timeout: 10_000,
    });
    expect(await badge.getAttribute('title')).toMatch(/-32050|reserved/i);
    const rows = await page.$$eval('[data-testid="timeline-row"][data-method="tools/call"]', (els) =>
      els.map((r) => ({
        kind: r.getAttribute('data-kind'),
        dir: r.getAttribute('data-direction'),
        error: r.getAttribute('data-error') === 'true',
        lint: !!r.querySelector('[data-testid="lint-badge"]'),
      })),
    );
    // The demo session's calls are still on the timeline above; the last two answers are fine's and boom's.
    const answers = rows.filter((r) => r.dir === 'in' && (r.kind === 'message' || r.kind === 'sse-frame'));
    const [fine, boom] = answers.slice(-2);
    expect(fine).toMatchObject({ error: false, lint: false });
    expect(boom).toMatchObject({ error: true, lint: true });
    expect(rows.filter((r) => r.lint).every((r) => r.error)).toBe(true);

    // Selecting the entry lists the lint with its spec reference in the detail pane.
    await badge.click();
    const lint = await page.waitForSelector('[data-testid="detail-lints"] [data-lint-id="error-code-reserved-undefined"]');
    expect(await lint.textContent()).toBeTruthy();
  });
});
