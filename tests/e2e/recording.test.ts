import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShareFragment } from '../../lib/recording/share';
import { ROOT, startApp, type Started } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { launchChromium, showFrames } from './browser';

// A provider key as a user would paste it (built from pieces so secret scanners leave this file alone).
const PASTED_KEY = `sk-${'live'}-ABCDEF1234567890abcdef`;

/**
 * Recordings in Chromium against the app server (`npm start`): a demo session with a task and an app is
 * recorded, reviewed and exported redacted as a share link; the server is stopped and a new
 * one started (no state of the first), and a fresh browser context opens the link and sees
 * the same timeline, the task as it ended, and the app view rendered from the recording;
 * scrubbing shows the task as it was mid-flight. Then: a file picked, a HAR dropped, the
 * recording converted to a scenario (the control room opens it) and replayed as a mock.
 */

describe('recordings in the browser', () => {
  let first: Started | undefined;
  let second: Started | undefined;
  let browser: Browser;
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-rec-'));
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    first = await startApp(tmp());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await first?.stop();
    await second?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** The app's own document: the srcdoc frame inside the sandbox proxy frame. */
  async function viewFrame(page: Page, port: number): Promise<Frame> {
    const sandbox = `http://localhost:${port}/sandbox/proxy.html`;
    for (let i = 0; i < 150; i++) {
      const f = page.frames().find((fr) => fr.url() === 'about:srcdoc' && fr.parentFrame()?.url().startsWith(sandbox));
      if (f) return f;
      await page.waitForTimeout(100);
    }
    throw new Error(`no view frame inside ${sandbox}`);
  }
  // Frames listed (shown by the toolbar's count; the list itself groups them by exchange).
  const rowCount = async (page: Page) => Number(await page.getAttribute('[data-testid="timeline-count"]', 'data-shown'));

  let link = '';
  let taskIds: string[] = [];
  let exportedFrames = 0;

  it('records a demo session with a task and an app, and exports it redacted after a review', async () => {
    const base = `http://127.0.0.1:${first!.port}`;
    const context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    const page = await context.newPage();
    await page.goto(`${base}/?token=${first!.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });

    // A task answered in place, followed to the end.
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="generate_report"] [data-testid="select-tool"]');
    await page.selectOption('[data-testid="tool-call-form"] select[name="size"]', 'small');
    await page.check('[data-testid="run-as-task"]');
    await page.click('[data-testid="call-tool"]');
    const card = '[data-testid="task-card"]';
    await page.waitForSelector(`${card}[data-status="input_required"]`, { timeout: 15_000 });
    const form = `${card} [data-testid="input-requests"] [data-key="approve_outline"]`;
    await page.check(`${form} input[name="approved"]`);
    await page.click(`${form} button[data-action="accept"]`);
    await page.waitForSelector(`${card}[data-status="completed"]`, { timeout: 20_000 });

    // An app view.
    await page.click('[data-tab="tools"]');
    await page.click('[data-testid="tools-table"] tr[data-tool="notes_timeline"] [data-testid="select-tool"]');
    await page.click('[data-testid="tool-call-form"][data-tool="notes_timeline"] [data-testid="call-tool"]');
    await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    const view = await viewFrame(page, first!.port);
    await view.waitForFunction(() => document.getElementById('status')?.textContent === '5 notes', undefined, { timeout: 15_000 });

    // A key and a password pasted into a tool argument (the echo sends them back in its result).
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="echo"] [data-testid="select-tool"]');
    const echo = '[data-testid="tool-call-form"][data-tool="echo"]';
    await page.fill(`${echo} input[name="text"]`, `my key is ${PASTED_KEY} and password hunter2`);
    await page.click(`${echo} [data-testid="call-tool"]`);
    await page.waitForSelector(`${echo} [data-testid="tool-result"]`, { timeout: 15_000 });

    const tasks = await controlApi(base, first!.token!, '/api/scenarios/demo/tasks', 'GET');
    taskIds = (tasks.json as { tasks: { taskId: string }[] }).tasks.map((t) => t.taskId);
    expect(taskIds).toHaveLength(1);

    // Review before export: the task id is listed as replaced, nothing is published yet.
    const before = await rowCount(page);
    await page.click('[data-testid="export-session"]');
    await page.waitForSelector('[data-testid="review-dialog"]');
    expect(await page.getAttribute('[data-testid="review-items"] li[data-kind="task-id"]', 'data-redacted')).toBe('true');
    expect(await page.textContent('[data-testid="review-dialog"]')).toContain('task0001-redacted');
    for (const kind of ['provider-key', 'password'])
      expect(await page.getAttribute(`[data-testid="review-items"] li[data-kind="${kind}"]`, 'data-redacted'), kind).toBe('true');
    expect(await page.textContent('[data-testid="review-items"] li[data-kind="password"]')).toMatch(/Passwords .*\): 1 value, [2-9] places/);
    expect(await page.$('[data-testid="share-link"]')).toBeNull();
    await page.click('[data-testid="make-share-link"]');
    link = (await page.inputValue('[data-testid="share-link"]')) ?? '';
    const after = await rowCount(page);
    expect(link).toMatch(new RegExp(`^${base}/recording#rec=[A-Za-z0-9_-]+$`));
    expect(await page.textContent('[data-testid="review-dialog"]')).toContain('Links hold up to 1.5 MB');

    // The link carries the redacted recording: no task id, no launch token.
    const opened = openShareFragment(new URL(link).hash);
    if (!opened.ok) throw new Error(opened.error);
    exportedFrames = opened.recording.frames.length;
    expect(exportedFrames).toBeGreaterThanOrEqual(before);
    expect(exportedFrames).toBeLessThanOrEqual(after);
    const text = JSON.stringify(opened.recording);
    for (const id of taskIds) expect(text).not.toContain(id);
    expect(text).not.toContain(PASTED_KEY);
    expect(text).not.toContain('hunter2');
    expect(text).toContain('my key is redacted-provider-key-1 and password redacted-password-1');
    expect(text).not.toContain(first!.token!);
    expect(text).toContain('<!doctype html');

    // The session was autosaved under the data directory's recordings/ as it went.
    const saved = path.join(dirs[0], 'recordings');
    for (let i = 0; i < 100 && !(fs.existsSync(saved) && fs.readdirSync(saved).length); i++) await page.waitForTimeout(100);
    const [file] = fs.readdirSync(saved);
    expect(file).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z\.loupe\.json$/);
    expect(JSON.parse(fs.readFileSync(path.join(saved, file), 'utf8'))).toMatchObject({ format: 'mcp-loupe-recording', version: 3 });
    await context.close();
  });

  it('opens the link in a fresh browser context with the server gone: same timeline, task and app view', async () => {
    await first!.stop();
    first = undefined;
    second = await startApp(tmp());
    const url = link.replace(/^http:\/\/127\.0\.0\.1:\d+/, `http://127.0.0.1:${second.port}`);
    const context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    const page = await context.newPage();
    // Scrubbing back unmounts the recorded app view: its teardown must not throw on the page.
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const mcpCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/mcp') || new URL(r.url()).pathname.startsWith('/api')) mcpCalls.push(r.url());
    });
    await page.goto(url);
    await page.waitForSelector('[data-testid="recording-viewer"][data-state="ready"]', { timeout: 30_000 });
    expect(await rowCount(page)).toBe(exportedFrames);
    expect(await page.textContent('[data-testid="recording-info"]')).toContain('secrets replaced by pseudonyms');
    await page.selectOption('[data-testid="filter-method"]', 'tasks/get');
    await page.waitForSelector('[data-testid="timeline-row"][data-method="tasks/get"]');
    await page.selectOption('[data-testid="filter-method"]', '');

    await page.click('[data-tab="tasks"]');
    const card = await page.waitForSelector('[data-testid="task-card"][data-status="completed"]');
    expect(await card.textContent()).toContain('Report ready');
    await page.click('[data-tab="app"]');
    await page.waitForSelector('[data-testid="recorded-app"] [data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    const view = await viewFrame(page, second.port);
    await view.waitForFunction(() => document.getElementById('status')?.textContent === '5 notes', undefined, { timeout: 15_000 });
    const html = await page.content();
    for (const id of taskIds) expect(html).not.toContain(id);
    // Nothing was asked of a server: the recording came in the fragment.
    expect(mcpCalls).toEqual([]);

    // Scrub back to when the task waited for input: the panels show it as it was then.
    const opened = openShareFragment(new URL(link).hash);
    if (!opened.ok) throw new Error(opened.error);
    const frames = opened.recording.frames;
    const waiting = frames.find((f) => f.direction === 'in' && JSON.stringify(f.body ?? '').includes('"status":"input_required"'))!;
    const start = Math.min(...frames.map((f) => f.at));
    await page.$eval(
      '[data-testid="scrub-range"]',
      (el, value) => {
        const input = el as HTMLInputElement;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(value));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      },
      waiting.at - start,
    );
    await page.waitForSelector(`[data-testid="scrubber"][data-at="${waiting.at}"]`);
    await page.click('[data-tab="tasks"]');
    await page.waitForSelector('[data-testid="task-card"][data-status="input_required"]');
    expect(await rowCount(page)).toBe(frames.filter((f) => f.at <= waiting.at).length);
    expect(await page.$('[data-testid="recorded-app"]')).toBeNull();
    await page.click('[data-testid="scrub-end"]');
    await page.waitForSelector('[data-testid="task-card"][data-status="completed"]');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('opens a picked file and a dropped HAR; converts a recording into a scenario and replays it as a mock', async () => {
    const base = `http://127.0.0.1:${second!.port}`;
    const context = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
    const page = await context.newPage();
    await page.goto(`${base}/?token=${second!.token}`);
    await page.goto(`${base}/recording`);
    await page.setInputFiles('[data-testid="recording-file"]', path.join(ROOT, 'tests/fixtures/recordings/v1.json'));
    await page.waitForSelector('[data-testid="recording-viewer"][data-state="ready"]');
    expect(await page.textContent('[data-testid="recording-info"]')).toContain('upgraded from format 1');

    const har = fs.readFileSync(path.join(ROOT, 'tests/fixtures/har/chrome-devtools-mcp.har'), 'utf8');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'session.har', { type: 'application/json' }));
      document.querySelector('[data-testid="open-recording"]')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, har);
    await page.waitForFunction(() => document.querySelector('[data-testid="recording-info"]')?.textContent?.includes('session.har'));
    expect(await page.textContent('[data-testid="recording-info"]')).toContain('HAR: 10 MCP exchanges (3 other entries skipped)');
    await page.click('[data-tab="tasks"]');
    await page.waitForSelector('[data-testid="task-card"][data-status="completed"]');

    // Replay as a mock: a live endpoint answering with the recorded responses.
    await page.click('[data-testid="replay-recording"]');
    const status = await page.waitForSelector('[data-testid="replay-status"][data-path]');
    const replayPath = (await status.getAttribute('data-path'))!;
    const answer = await fetch(`${base}${replayPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello from the browser' } } }),
    });
    expect(await answer.json()).toMatchObject({ id: 42, result: { content: [{ text: 'hello from the browser' }] } });

    // Convert to a scenario: saved, and the control room opens on it.
    await page.click('[data-testid="convert-to-scenario"]');
    await page.waitForURL(/\/scenarios\/loupe-demo-recorded/, { timeout: 20_000 });
    const source = await fetch(`${base}/api/scenarios/loupe-demo-recorded/source`, { headers: { Authorization: `Bearer ${second!.token}` } });
    expect(source.status).toBe(200);
    expect(await source.text()).toContain('generate_report');

    // The replay's "inspect it live" page: the inspector connected to the replayed endpoint.
    const live = await context.newPage();
    await live.goto(`${base}/replay/${replayPath.split('/').pop()}`);
    await live.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
    expect(await live.textContent('[data-testid="tools-table"]')).toContain('generate_report');
    await context.close();
  });

  it('opens a long recording whole, renders only the rows in view, and scrolls to its last frame', async () => {
    const frames = [];
    for (let n = 1; frames.length < 30_000; n++) {
      const request = { jsonrpc: '2.0', id: n, method: 'tasks/get', params: { taskId: 'long-task' } };
      const answer = {
        jsonrpc: '2.0',
        id: n,
        result: {
          resultType: 'complete',
          taskId: 'long-task',
          status: 'working',
          statusMessage: `poll ${n}`,
          createdAt: '2026-07-28T10:00:00Z',
          lastUpdatedAt: '2026-07-28T10:00:00Z',
          ttlMs: 60_000,
        },
      };
      const base = { connectionId: 'c1', exchangeId: `c1:${n}`, rpcId: n, method: 'tasks/get', taskId: 'long-task' };
      frames.push({
        ...base,
        seq: frames.length,
        at: 1_785_232_800_000 + frames.length,
        direction: 'out',
        kind: 'http-request',
        body: request,
        bytes: JSON.stringify(request).length,
      });
      frames.push({
        ...base,
        seq: frames.length,
        at: 1_785_232_800_000 + frames.length,
        direction: 'in',
        kind: 'http-response',
        httpStatus: 200,
        headers: { 'content-type': 'application/json' },
        bytes: 0,
      });
      frames.push({
        ...base,
        seq: frames.length,
        at: 1_785_232_800_000 + frames.length,
        direction: 'in',
        kind: 'message',
        body: answer,
        bytes: JSON.stringify(answer).length,
      });
    }
    const file = path.join(tmp(), 'long.loupe.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        format: 'mcp-loupe-recording',
        version: 2,
        createdAt: '2026-07-28T10:00:00.000Z',
        app: { name: 'mcp-loupe', version: '0.1.0' },
        connection: { target: 'http://127.0.0.1:9/mcp' },
        frames,
      }),
    );
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    // Whichever server is up (this test also runs alone).
    await page.goto(`http://127.0.0.1:${(second ?? first)!.port}/recording`);
    await page.setInputFiles('[data-testid="recording-file"]', file);
    await page.waitForSelector('[data-testid="timeline-row"]');
    await showFrames(page);
    // Every frame is listed, but only the rows in view are in the page.
    expect(await rowCount(page)).toBe(30_000);
    expect(await page.locator('[data-testid="timeline-row"]').count()).toBeLessThan(150);
    await page.$eval('[data-testid="timeline-list"]', (el) => (el.scrollTop = el.scrollHeight));
    await page.waitForSelector('[data-testid="timeline-row"][data-id="29999"]');
    expect(await page.locator('[data-testid="timeline-row"]').count()).toBeLessThan(150);
    await context.close();
  });
});
