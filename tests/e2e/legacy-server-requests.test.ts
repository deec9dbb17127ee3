import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * The inspector connected to the demo in the 2025-11-25 era, through Loupe's HTTP proxy and over
 * stdio: delete_note's confirmation arrives as the server's own elicitation/create, shows as a
 * dialog with the inspector's elicitation form, and the person's decline or accept goes back as
 * the JSON-RPC response; the tool's result says what happened.
 */

describe('a 2025-11-25 server asks the inspector', () => {
  let env: Partial<AppAndBrowser> = {};
  let context: BrowserContext;
  let page: Page;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-legacy-child-'));

  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-legacy-requests-');
    context = await env.browser!.newContext({ viewport: { width: 1600, height: 1200 } });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server!.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser(env);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function connectLegacy(mode: 'proxy' | 'stdio', url: string) {
    if ((await page.getAttribute('[data-testid="connection-status"]', 'data-state')) !== 'idle') {
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    }
    await page.selectOption('[data-testid="mode-select"]', mode);
    await page.selectOption('[data-testid="era-select"]', 'legacy');
    await page.fill('[data-testid="url-input"]', url);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('2025-11-25');
  }

  /** Call delete_note on `noteId`, answer the server's confirmation with `action`; the result's text. */
  async function deleteNote(noteId: string, action: 'accept' | 'decline'): Promise<string> {
    await page.click('[data-tool="delete_note"] [data-testid="select-tool"]');
    await page.fill('[data-testid="tool-call-form"] input[name="noteId"]', noteId);
    await page.click('[data-testid="call-tool"]');
    const dialog = '[data-testid="server-request"][data-method="elicitation/create"]';
    await page.waitForSelector(`${dialog} [data-testid="input-requests"]`, { timeout: 10_000 });
    expect(await page.textContent(dialog)).toContain('This cannot be undone');
    if (action === 'accept') await page.check(`${dialog} input[name="confirm"]`);
    await page.click(`${dialog} button[data-action="${action}"]`);
    await page.waitForSelector(dialog, { state: 'detached' });
    const result = '[data-testid="tool-call-form"][data-tool="delete_note"] [data-testid="tool-result"]';
    await page.waitForSelector(result, { timeout: 10_000 });
    return (await page.textContent(result)) ?? '';
  }

  it('through the HTTP proxy: decline deletes nothing, accept deletes the note', async () => {
    await connectLegacy('proxy', '/mcp');
    expect(await deleteNote('note-1', 'decline')).toContain('was not deleted: the user declined');
    expect(await deleteNote('note-1', 'accept')).toContain('Deleted note');
  });

  it('a task that needs input (generate_report): the server asks on tasks/result, the dialog answers, the task completes', async () => {
    await connectLegacy('proxy', '/mcp');
    await page.click('[data-tool="generate_report"] [data-testid="select-tool"]');
    await page.selectOption('[data-testid="tool-call-form"] select[name="size"]', 'small');
    await page.check('[data-testid="run-as-task"]');
    await page.click('[data-testid="call-tool"]');
    const dialog = '[data-testid="server-request"][data-method="elicitation/create"]';
    await page.waitForSelector(`${dialog} [data-testid="input-requests"]`, { timeout: 15_000 });
    await page.check(`${dialog} input[name="approved"]`);
    await page.click(`${dialog} button[data-action="accept"]`);
    await page.waitForSelector(dialog, { state: 'detached' });
    await page.waitForSelector('[data-testid="task-card"][data-status="completed"]', { timeout: 15_000 });
  });

  it('over stdio: decline deletes nothing, accept deletes the note', async () => {
    await connectLegacy('stdio', `${process.execPath} ${path.join(ROOT, 'bin/mcp-loupe.mjs')} mock demo --stdio --data-dir ${dataDir}`);
    expect(await deleteNote('note-2', 'decline')).toContain('was not deleted: the user declined');
    expect(await deleteNote('note-2', 'accept')).toContain('Deleted note');
  });
});
