import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_TIMELINE_HTML } from '../../lib/scenario/builtins/generated/notes-timeline-html';
import { launchChromium } from './browser';

/**
 * The demo's notes timeline under a host that declares only `serverTools` (ext-apps' AppBridge
 * with no model-context, open-link or logging handlers, which answers "Method not found" to
 * those, as the official Inspector does): opening a note shows its body and no error, and the
 * view never sends a request the host did not declare.
 */

const NOTES = [
  { id: 'note-1', title: 'Kickoff', createdAt: '2026-01-05T09:00:00Z' },
  { id: 'note-2', title: 'Retro', createdAt: '2026-02-10T15:00:00Z' },
];
const DETAIL = {
  content: [{ type: 'text' as const, text: 'Retro: ship smaller.' }],
  structuredContent: { note: { id: 'note-2', title: 'Retro', body: 'Ship smaller, ship sooner.' } },
};

async function hostScript(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(__dirname, 'fixtures', 'bare-app-host.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const [file] = out.outputFiles;
  if (!file) throw new Error('no bundle');
  return file.text;
}

describe('notes timeline under a host without updateModelContext', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: await hostScript() });
    await page.evaluate(([html, notes, detail]) => window.startHost(html, notes, detail), [NOTES_TIMELINE_HTML, NOTES, DETAIL] as const);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const view = (): Frame => {
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) throw new Error('no app frame');
    return frame;
  };

  it('opens a note and shows its body, with no error and no undeclared request', async () => {
    const frame = view();
    await frame.waitForSelector('[data-testid="status"]:has-text("2 notes")');
    await frame.click('button[data-note="note-2"]');
    const body = await frame.waitForSelector('[data-testid="detail-body"]');
    expect(await body.textContent()).toBe('Ship smaller, ship sooner.');
    // Let any follow-up request the view would send after the detail land before judging.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    expect(await frame.textContent('[data-testid="detail"]')).not.toContain('Method not found');
    expect(await frame.$eval('[data-testid="status"]', (e) => e.className)).not.toBe('error');
    expect(await frame.$$('.error')).toHaveLength(0);
    const seen = await page.evaluate(() => window.hostSeen);
    expect(seen).toContain('tools/call');
    expect(seen).not.toContain('ui/update-model-context');
    expect(seen).not.toContain('notifications/message');
    expect(pageErrors).toEqual([]);
  });

  it('hides the controls the host cannot serve (open-link, fullscreen)', async () => {
    const frame = view();
    expect(await frame.isHidden('[data-testid="open-spec"]')).toBe(true);
    expect(await frame.isHidden('[data-testid="fullscreen"]')).toBe(true);
  });
});
