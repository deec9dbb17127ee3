import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Request as PwRequest } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoScenario } from '../../lib/scenario/builtins/demo';
import { pidsWith, ROOT } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { openTimelineFilters, startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * The inspector as a model client, in headless Chromium against the app server: the demo journeys
 * (a task answered and followed on a listen to completion, a task cancelled, a delete confirmed
 * through MRTR, a charge retried with its idempotency key), on the demo behind a gateway that is
 * busy once (503 + Retry-After) and cuts one listen, pass every grade of the report card and
 * leave no lint on the timeline; Disconnect with a task in flight stops every
 * request at once over HTTP and over stdio, where the child process is gone from the process
 * table; a 503 with Retry-After during connect shows the wait, then the connection or the error
 * with its cause.
 */

const busyScenario = (id: string, match: Record<string, unknown>, retryAfter: number) => ({
  id,
  name: `Busy (${id})`,
  server: { name: id, version: '1.0.0' },
  tools: [{ name: 'ping', inputSchema: { type: 'object', properties: {} }, result: { content: [{ type: 'text', text: 'pong' }] } }],
  faults: [{ name: 'gateway-busy', match, action: { kind: 'http-status', status: 503, retryAfter } }],
});

describe('the inspector as a model client', () => {
  let env: Partial<AppAndBrowser> = {};
  let context: BrowserContext;
  let page: Page;
  const card = (fp: string) => `[data-testid="task-card"][data-fp="${fp}"]`;
  const api = (p: string, method = 'GET', body?: unknown) => controlApi(env.base!, env.server!.token!, p, method, body);

  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-model-client-');
    context = await env.browser!.newContext({ viewport: { width: 1600, height: 1400 } });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server!.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser(env);
  });

  async function callAsTask(tool = 'generate_report'): Promise<string> {
    await page.click('[data-tab="tools"]');
    await page.click(`[data-tool="${tool}"] [data-testid="select-tool"]`);
    await page.selectOption('[data-testid="tool-call-form"] select[name="size"]', 'small');
    await page.check('[data-testid="run-as-task"]');
    const before = await page.$$eval('[data-testid="task-card"]', (cards) => cards.map((c) => c.getAttribute('data-fp')));
    await page.click('[data-testid="call-tool"]');
    const handle = await page.waitForFunction((known) => {
      const fp = document.querySelector('[data-testid="task-card"]')?.getAttribute('data-fp');
      return fp && !known.includes(fp) ? fp : null;
    }, before);
    return (await handle.jsonValue()) as string;
  }

  async function reconnect(patch: { url: string; mode?: 'direct' | 'proxy' | 'stdio' }) {
    if ((await page.getAttribute('[data-testid="connection-status"]', 'data-state')) !== 'idle') {
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    }
    await page.selectOption('[data-testid="mode-select"]', patch.mode ?? 'direct');
    await page.fill('[data-testid="url-input"]', patch.url);
    await page.click('[data-testid="connect-button"]');
  }

  /** Requests the page sends to reach an MCP server (directly, through the proxy, or to a stdio child). */
  function mcpRequests(): { list: string[]; stop: () => void } {
    const list: string[] = [];
    const on = (r: PwRequest) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/mcp') || u.pathname.startsWith('/api/proxy')) list.push(`${r.method()} ${u.pathname}`);
    };
    page.on('request', on);
    return { list, stop: () => page.off('request', on) };
  }

  it('passes every grade of the report card on the demo journeys, and its timeline holds no lint', async () => {
    // The demo with the two faults the remaining grades need: a busy gateway once, a cut listen once
    // (the task's listen: the first is the inspector's own, for list changes, opened on connect).
    const saved = await api('/api/scenarios/demo-faults/source', 'PUT', {
      ...demoScenario,
      id: 'demo-faults',
      name: 'Demo behind a flaky gateway',
      faults: [
        { name: 'busy-gateway', match: { method: 'server/discover', nth: 1 }, action: { kind: 'http-status', status: 503, retryAfter: 1 } },
        { name: 'cut-listen', match: { method: 'subscriptions/listen', nth: 2 }, action: { kind: 'drop', afterEvents: 2 } },
      ],
    });
    expect(saved.status).toBe(200);
    await reconnect({ url: '/mcp/demo-faults' });
    await page.waitForSelector('[data-testid="connection-busy"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 10_000 });
    // Journey: a task listened to, its approval answered in place, followed to completed.
    const fp = await callAsTask();
    await page.check(`${card(fp)} [data-testid="listen-toggle"]`);
    await page.waitForSelector(`${card(fp)}[data-status="input_required"]`, { timeout: 10_000 });
    const form = `${card(fp)} [data-testid="input-requests"] [data-key="approve_outline"]`;
    await page.check(`${form} input[name="approved"]`);
    await page.click(`${form} button[data-action="accept"]`);
    await page.waitForSelector(`${card(fp)}[data-status="completed"]`, { timeout: 15_000 });
    // Journey: a task cancelled, followed until its terminal status.
    const other = await callAsTask();
    // Two polls of the working task first, so the cadence between them is graded whatever the load.
    await page.waitForSelector(`${card(other)} [data-testid="poll-cadence"][data-polls="2"]`, { timeout: 10_000 });
    await page.click(`${card(other)} [data-testid="cancel-task"]`);
    await page.waitForSelector(`${card(other)}[data-status="cancelled"]`, { timeout: 10_000 });
    // Journey: delete_note confirmed in place (MRTR: the retry carries the requestState), then a
    // charge sent twice with its idempotency key (a safe retry).
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="delete_note"] [data-testid="select-tool"]');
    await page.fill('[data-testid="tool-call-form"] input[name="noteId"]', 'note-1');
    await page.click('[data-testid="call-tool"]');
    const confirm = '[data-testid="tool-call-form"] [data-testid="input-requests"] [data-key="confirm_delete"]';
    await page.check(`${confirm} input[name="confirm"]`);
    await page.click(`${confirm} button[data-action="accept"]`);
    await page.waitForSelector('[data-testid="tool-call-form"][data-tool="delete_note"] [data-testid="tool-result"]');
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="charge"] [data-testid="select-tool"]');
    await page.fill('[data-testid="tool-call-form"] input[name="account"]', 'acct-7');
    await page.fill('[data-testid="tool-call-form"] input[name="amountCents"]', '250');
    await page.fill('[data-testid="tool-call-form"] input[name="idempotencyKey"]', 'e2e-charge-1');
    for (let i = 0; i < 2; i++) {
      await page.click('[data-testid="call-tool"]');
      await page.waitForSelector('[data-testid="tool-call-form"][data-tool="charge"] [data-testid="tool-result"]');
    }
    // Past a poll interval, so a poll after the end would have been sent by now.
    await page.waitForTimeout(2_500);

    const report = await api('/api/scenarios/demo-faults/report-card');
    const grades = report.json.grades as { id: string; status: string; detail: string }[];
    expect(grades.filter((g) => g.status !== 'pass')).toEqual([]);
    expect(grades).toHaveLength(9);

    // The timeline, filtered to entries with lints, is empty (the lints have run: flush by waiting for idle).
    await openTimelineFilters(page);
    await page.check('[data-testid="filter-lints"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="timeline-count"]')?.getAttribute('data-total') !== '0');
    const shown = await page.getAttribute('[data-testid="timeline-count"]', 'data-shown');
    const titles = await page.$$eval('[data-testid="lint-badge"]', (els) => els.map((e) => e.getAttribute('title')));
    expect(titles).toEqual([]);
    expect(shown).toBe('0');
    await page.uncheck('[data-testid="filter-lints"]');
  });

  it('Disconnect with a task in flight over HTTP: no request reaches the server after it', async () => {
    await reconnect({ url: '/mcp', mode: 'proxy' });
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]');
    const fp = await callAsTask();
    await page.check(`${card(fp)} [data-testid="listen-toggle"]`);
    await page.waitForSelector(`${card(fp)}[data-status="input_required"]`, { timeout: 10_000 });
    const sent = mcpRequests();
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    const before = sent.list.length;
    const { json } = await api('/api/scenarios/demo/journal');
    const seen = (json.entries as { seq: number }[]).length;
    // Several poll intervals (1 s) later: nothing more from the page, nothing more in the journal.
    await page.waitForTimeout(3_500);
    sent.stop();
    expect(sent.list.slice(before)).toEqual([]);
    const after = await api('/api/scenarios/demo/journal');
    expect((after.json.entries as unknown[]).length).toBe(seen);
  });

  it('Disconnect with a task in flight over stdio: the child is killed and never spawned again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-stdio-child-'));
    try {
      await reconnect({ mode: 'stdio', url: `${process.execPath} ${path.join(ROOT, 'bin/mcp-loupe.mjs')} mock demo --stdio --data-dir ${dataDir}` });
      await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
      expect(pidsWith(dataDir)).toHaveLength(1);
      const fp = await callAsTask();
      await page.waitForSelector(`${card(fp)}[data-status="input_required"]`, { timeout: 10_000 });
      const sent = mcpRequests();
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
      // The child leaves the process table (SIGTERM on DELETE), and polls do not bring it back.
      const deadline = Date.now() + 10_000;
      while (pidsWith(dataDir).length && Date.now() < deadline) await page.waitForTimeout(100);
      expect(pidsWith(dataDir)).toEqual([]);
      await page.waitForTimeout(3_000);
      sent.stop();
      expect(sent.list.filter((r) => !r.startsWith('DELETE '))).toEqual([]);
      expect(pidsWith(dataDir)).toEqual([]);
    } finally {
      for (const pid of pidsWith(dataDir)) process.kill(pid, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a 503 with Retry-After during connect shows the wait, then connects', async () => {
    const saved = await api('/api/scenarios/busy-once/source', 'PUT', busyScenario('busy-once', { method: 'server/discover', nth: 1 }, 2));
    expect(saved.status).toBe(200);
    await reconnect({ url: '/mcp/busy-once' });
    const notice = await page.waitForSelector('[data-testid="connection-busy"]');
    expect(await notice.textContent()).toBe('Server busy (503 Service Unavailable), retrying server/discover in 2 s (1 of 3)');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 10_000 });
    expect(await page.$('[data-testid="connection-busy"]')).toBeNull();
    expect(await page.textContent('[data-testid="server-info"]')).toContain('· 1 tools');
    const report = await api('/api/scenarios/busy-once/report-card');
    const grade = (report.json.grades as { id: string; status: string }[]).find((g) => g.id === 'honours-retry-after');
    expect(grade?.status).toBe('pass');
  });

  it('a server that stays busy during connect is an error with its cause, never "Connected · 0 tools"', async () => {
    const saved = await api('/api/scenarios/busy-always/source', 'PUT', busyScenario('busy-always', { method: 'server/discover' }, 1));
    expect(saved.status).toBe(200);
    await reconnect({ url: '/mcp/busy-always' });
    await page.waitForSelector('[data-testid="connection-busy"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="error"]', { timeout: 15_000 });
    expect(await page.textContent('[data-testid="connection-error"]')).toMatch(/^busy: 503 Service Unavailable from \S*\/mcp\/busy-always: retried 3 times$/);
    expect(await page.$('[data-testid="server-info"]')).toBeNull();
  });
});
