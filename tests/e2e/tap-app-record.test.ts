import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTapProcess, type Started } from '../helpers/processes';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * Journey: a real client (SDK 1.32.2, which renders apps) calls the demo's MCP App tool through
 * `mcp-loupe tap` and reads its `ui://` view, sending a bearer token as real clients do. On the
 * tap's page the user picks the tapped call and opens the app view: the captured HTML runs in
 * the sandbox with the call's result. Then Save recording puts the session in the saved
 * sessions, redacted, and the link opens it in the recording viewer. Needs `npm run build`.
 */
const SECRET = 'sk-tapped-3c1f9e7a5b2d4c6e8f0a1b3c5d7e9f1a';

let env: Partial<AppAndBrowser> = {};
let tap: Started;
let tapUrl: string;
let context: BrowserContext;
let page: Page;

/** The view's document: inside the sandbox page, which Loupe serves on the other loopback name. */
async function viewFrame(port: number): Promise<Frame> {
  const sandbox = `http://localhost:${port}/sandbox/proxy.html`;
  for (let i = 0; i < 150; i++) {
    const f = page.frames().find((fr) => fr.url() === 'about:srcdoc' && fr.parentFrame()?.url().startsWith(sandbox));
    if (f) return f;
    await page.waitForTimeout(100);
  }
  throw new Error(`no view frame inside ${sandbox}`);
}

beforeAll(async () => {
  env = await startAppAndBrowser('loupe-e2e-tap-app-');
  tap = await startTapProcess(['--upstream', `${env.base}/mcp/demo`, '--data-dir', env.dataDir!]);
  tapUrl = tap.url;
  context = await env.browser!.newContext({ viewport: { width: 1600, height: 1400 } });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await tap?.stop();
  await stopAppAndBrowser(env);
});

describe('a tapped session with an MCP App', () => {
  it('captures the ui:// view; opened from the tapped call, the app renders in the sandbox', async () => {
    const client = new Client({ name: 'tapped-app-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(tapUrl), { requestInit: { headers: { Authorization: `Bearer ${SECRET}` } } }));
    const tools = await client.listTools();
    const timeline = tools.tools.find((t) => t.name === 'notes_timeline');
    const uri = (timeline?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect(uri).toBe('ui://notes/timeline.html');
    const count = async (args: Record<string, unknown>) =>
      ((await client.callTool({ name: 'notes_timeline', arguments: args })).structuredContent as { notes: unknown[] }).notes.length;
    const all = await count({});
    const read = await client.readResource({ uri: uri! });
    expect(read.contents[0]?.uri).toBe(uri);
    // A second call with fewer notes: each call has its own view.
    const some = await count({ query: 'coffee' });
    expect(some).toBeLessThan(all);
    await client.close();

    const listed = await fetch(`${env.base}/api/taps`, { headers: { authorization: `Bearer ${env.server!.token}` } });
    const [mine] = ((await listed.json()) as { taps: { id: string }[] }).taps;
    await page.goto(`${env.base}/?token=${env.server!.token}`);
    await page.goto(`${env.base}/tap/${mine!.id}`);
    await page.waitForSelector('[data-testid="tap-info"][data-state="live"]', { timeout: 20_000 });
    // The call and the read have reached the page.
    const calls = page.locator('[data-testid="timeline-row"][data-method="tools/call"]');
    await expect.poll(() => calls.count(), { timeout: 15_000 }).toBe(2);
    const label = (n: number) => `${n} note${n === 1 ? '' : 's'}`;
    for (const [row, n] of [
      [0, all],
      [1, some],
    ] as const) {
      await calls.nth(row).click();
      await page.waitForSelector('[data-testid="detail-pane"]');
      if (!(await page.$('[data-testid="tap-app"]'))) await page.click('[data-tab="app"]');
      await page.waitForSelector(`[data-testid="tap-app"][data-call="${await calls.nth(row).getAttribute('data-exchange')}"]`);
      await page.waitForSelector('[data-testid="recorded-app"][data-uri="ui://notes/timeline.html"] [data-testid="app-view"][data-state="initialized"]', {
        timeout: 30_000,
      });
      const view = await viewFrame(env.server!.port);
      await view.waitForFunction((text) => document.getElementById('status')?.textContent === text, label(n), { timeout: 15_000 });
    }
    const view = await viewFrame(env.server!.port);
    // Sandboxed as everywhere else: the view runs on another origin than Loupe's pages.
    expect(new URL(view.parentFrame()!.url()).origin).not.toBe(new URL(page.url()).origin);
  });

  it('saves the tapped session as a recording, redacted, and opens it in the recording viewer', async () => {
    await page.click('[data-testid="tap-save-recording"]');
    const link = await page.waitForSelector('[data-testid="tap-saved-link"]', { timeout: 15_000 });
    const name = decodeURIComponent(/saved=([^&]+)/.exec((await link.getAttribute('href')) ?? '')?.[1] ?? '');
    expect(name).toMatch(/^tap-.*\.loupe\.json$/);
    const text = fs.readFileSync(path.join(env.dataDir!, 'recordings', name), 'utf8');
    const saved = JSON.parse(text) as { format: string; frames: { method?: string }[]; apps: Record<string, string> };
    expect(saved.format).toBe('mcp-loupe-recording');
    expect(saved.frames.some((f) => f.method === 'tools/call')).toBe(true);
    expect(Object.values(saved.apps).some((html) => html.includes('<'))).toBe(true);
    expect(text).not.toContain(SECRET);

    await link.click();
    await page.waitForURL(/\/recording\?saved=/);
    await page.waitForSelector('[data-testid="recording-viewer"][data-state="ready"]', { timeout: 30_000 });
    const info = (await page.textContent('[data-testid="recording-info"]')) ?? '';
    expect(info).toContain(name);
    expect(info).toContain('secrets replaced by pseudonyms');
    expect(info).toContain(`${saved.frames.length} frames`);
  });
});
