import { execFileSync } from 'node:child_process';
import net from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkServer } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { type AppAndBrowser, showFrames, startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * The inspector's everyday habits, as a user meets them in Chromium against the app server
 * (`npm start`) and, for connections, the official SDK v2 server on its own port (another
 * origin, no CORS): transport auto and its reason, failures that name cause and fix, the
 * connection in the URL and the recent list; copy as cURL (run for real with curl), copy JSON,
 * edit and resend; the keyboard map; the theme; the saved sessions.
 */

const STATUS = '[data-testid="connection-status"]';
const FORM = '[data-testid="tool-call-form"][data-tool="echo"]';

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('inspector habits', () => {
  let env: AppAndBrowser;
  let sdk: Awaited<ReturnType<typeof startSdkServer>>;
  let context: BrowserContext;
  let page: Page;

  const connectTo = async (url: string, mode: string, state: 'connected' | 'error' = 'connected') => {
    if ((await page.getAttribute(STATUS, 'data-state')) === 'connected') {
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector(`${STATUS}:not([data-state="connected"])`);
    }
    await page.fill('[data-testid="url-input"]', url);
    await page.selectOption('[data-testid="mode-select"]', mode);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector(`${STATUS}[data-state="${state}"]`, { timeout: 20_000 });
  };

  beforeAll(async () => {
    [env, sdk] = await Promise.all([startAppAndBrowser('loupe-e2e-habits-'), startSdkServer()]);
    context = await env.browser.newContext({ viewport: { width: 1440, height: 1000 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server.token}`);
    await page.waitForSelector(`${STATUS}[data-state="connected"]`, { timeout: 30_000 });
  });
  afterAll(async () => {
    await context?.close();
    await sdk?.stop();
    await stopAppAndBrowser(env ?? {});
  });

  it('connects "auto" by default: the demo directly (same origin), a server without CORS through the proxy, each with its reason', async () => {
    expect(await page.inputValue('[data-testid="mode-select"]')).toBe('auto');
    expect(await page.textContent('[data-testid="connection-route"]')).toBe('direct: same origin as Loupe');

    await page.click('[data-testid="headers-toggle"]');
    await page.fill('[data-testid="bearer-input"]', 'e2e-secret-token');
    await connectTo(sdk.url, 'auto');
    expect(await page.textContent('[data-testid="server-info"]')).toContain('sdk-fixture');
    const route = page.locator('[data-testid="connection-route"]');
    expect(await route.textContent()).toBe('via proxy: server sends no Access-Control-Allow-Origin');
    expect(await route.getAttribute('data-via')).toBe('proxy');
  });

  it('keeps the connection in the URL (no secret) and reopens it on reload; remembers it in the recent list without the token', async () => {
    const url = new URL(page.url());
    expect(url.searchParams.get('transport')).toBe('auto');
    expect(url.searchParams.get('url')).toBe(sdk.url);
    expect(url.searchParams.getAll('header')).toEqual(['Authorization']);
    expect(page.url()).not.toContain('e2e-secret-token');

    await page.goto(`${page.url()}&tab=prompts`);
    await page.waitForSelector(`${STATUS}[data-state="connected"]`, { timeout: 20_000 });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('sdk-fixture');
    expect(await page.inputValue('[data-testid="url-input"]')).toBe(sdk.url);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('prompts');

    const stored = await page.evaluate(() => localStorage.getItem('loupe:recent-connections') ?? '');
    expect(stored).toContain(encodeURIComponent(sdk.url));
    expect(stored).not.toContain('e2e-secret-token');

    // Back on the demo, the SDK server is one pick away; picking fills the form, Connect connects.
    await connectTo('/mcp', 'auto');
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector(`${STATUS}:not([data-state="connected"])`);
    const option = await page.$eval(
      '[data-testid="recent-connections"]',
      (s, u) => [...(s as HTMLSelectElement).options].find((o) => o.textContent?.startsWith(u))?.value ?? '',
      sdk.url,
    );
    expect(option).not.toBe('');
    await page.selectOption('[data-testid="recent-connections"]', option);
    expect(await page.inputValue('[data-testid="url-input"]')).toBe(sdk.url);
    expect(await page.inputValue('[data-testid="mode-select"]')).toBe('auto');
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector(`${STATUS}[data-state="connected"]`, { timeout: 20_000 });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('sdk-fixture');
  });

  it('a failed connect names its cause and the fix, at once', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}/mcp`;
    await connectTo(dead, 'auto', 'error');
    expect(await page.textContent('[data-testid="connection-error"]')).toMatch(new RegExp(`^Nothing answered at ${dead}: .*ECONNREFUSED`));
    expect(await page.textContent('[data-testid="connection-fix"]')).toBe('Fix: Start the server, or check the host and port in the URL.');

    await connectTo(sdk.url, 'direct', 'error');
    const cause = await page.textContent('[data-testid="connection-error"]');
    expect(cause).toContain("does not allow this page's origin (CORS)");
    expect(cause).not.toMatch(/^Failed to fetch$/);
    expect(await page.textContent('[data-testid="connection-fix"]')).toMatch(/Choose "Auto" or "Via Loupe proxy"/);

    // A word is not a URL: said so before anything is sent (it used to reach Loupe's own origin as a path, and its 405 read as the server's).
    const rows = await page.$$eval('[data-testid="timeline-row"]', (r) => r.length);
    await connectTo('notaurl', 'auto', 'error');
    await page.waitForSelector('[data-testid="connection-error"]:text-is("Failed to connect: “notaurl” is not a URL.")');
    expect(await page.textContent('[data-testid="connection-fix"]')).toMatch(/^Fix: Did you mean \/notaurl on this Loupe, or http:\/\/notaurl\?/);
    expect(await page.$$eval('[data-testid="timeline-row"]', (r) => r.length)).toBe(rows);
  });

  it('copies a request as cURL (token masked until revealed; the command works), copies its JSON, and edits and resends it', async () => {
    if (!(await page.isVisible('[data-testid="bearer-input"]'))) await page.click('[data-testid="headers-toggle"]');
    await page.fill('[data-testid="bearer-input"]', 'e2e-secret-token');
    await connectTo('/mcp', 'auto');
    // The URL-state test left another tab open (the tab is part of the URL).
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="echo"] [data-testid="select-tool"]');
    await page.fill(`${FORM} input[name="text"]`, 'hello curl');
    await page.click(`${FORM} [data-testid="call-tool"]`);
    await page.waitForSelector(`${FORM} [data-testid="tool-result"]`, { timeout: 15_000 });
    // One row per frame: the test counts the outgoing requests the resend adds.
    await showFrames(page);
    await page.click('[data-testid="timeline-row"][data-method="tools/call"][data-kind="message"]');
    await page.waitForSelector('[data-testid="request-actions"]');

    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.uncheck('[data-testid="curl-reveal"]');
    await page.click('[data-testid="copy-curl"]');
    await page.waitForSelector('[data-testid="request-actions-note"]:has-text("Copied cURL")');
    const masked = await clipboard();
    expect(masked.split(' \\\n  ')[0]).toBe(`curl -X POST '${env.base}/mcp'`);
    expect(masked).toMatch(/-H 'mcp-protocol-version: 2026-07-28'/i);
    expect(masked).toMatch(/-H 'mcp-method: tools\/call'/i);
    expect(masked).toMatch(/-H 'mcp-name: echo'/i);
    expect(masked).toMatch(/-H 'authorization: Bearer •+'/i);
    expect(masked).not.toContain('e2e-secret-token');
    expect(masked).toContain('"text":"hello curl"');

    await page.check('[data-testid="curl-reveal"]');
    await page.click('[data-testid="copy-curl"]');
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('e2e-secret-token'));
    // The revealed command is a real request: curl gets the same answer the inspector got.
    const shown = await clipboard();
    const out = execFileSync('sh', ['-c', shown.replace(/^curl /, 'curl -sS ')], { encoding: 'utf8' });
    expect(out).toContain('hello curl');

    await page.click('[data-testid="copy-json"]');
    await page.waitForSelector('[data-testid="request-actions-note"]:has-text("Copied JSON")');
    const json = JSON.parse(await clipboard()) as { method: string; params: { name: string; arguments: { text: string } } };
    expect(json).toMatchObject({ method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello curl' } } });

    const calls = () => page.$$eval('[data-testid="timeline-row"][data-method="tools/call"][data-direction="out"]', (r) => r.length);
    const before = await calls();
    await page.click('[data-testid="edit-resend"]');
    const editor = page.locator('[data-testid="resend-json"]');
    expect(JSON.parse(await editor.inputValue())).toMatchObject({ method: 'tools/call' });
    await editor.fill((await editor.inputValue()).replace('hello curl', 'edited and sent again'));
    await page.click('[data-testid="resend-send"]');
    await page.waitForSelector('[data-testid="request-actions-note"]:has-text("tools/call: answered")', { timeout: 15_000 });
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="timeline-row"][data-method="tools/call"][data-direction="out"]').length > n,
      before,
    );
    await page.fill('[data-testid="timeline-search"]', 'edited and sent again');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline-row"][data-method="tools/call"]').length > 0);
    await page.fill('[data-testid="timeline-search"]', '');
  });

  it('moves through the timeline from the keyboard (Enter opens, ← goes up, Home and End), and never while typing; ? lists the shortcuts', async () => {
    await page.click('[data-testid="detail-pane"] [aria-label="Close the detail"]');
    await page.locator('h1').click();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('timeline-search');
    await page.keyboard.type('jk');
    expect(await page.inputValue('[data-testid="timeline-search"]')).toBe('jk');
    expect(await page.getAttribute('[data-testid="detail-pane"]', 'data-empty')).not.toBeNull();
    await page.keyboard.press('Escape');
    expect(await page.inputValue('[data-testid="timeline-search"]')).toBe('');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).not.toBe('timeline-search');

    const selected = () => page.getAttribute('[data-testid="detail-pane"]', 'data-entry-id');
    await page.keyboard.press('j');
    const first = await selected();
    expect(first).not.toBeNull();
    await page.keyboard.press('j');
    const second = await selected();
    expect(second).not.toBe(first);
    await page.keyboard.press('k');
    expect(await selected()).toBe(first);

    // Enter opens the selected exchange, its frames under it; ↓ goes into them, ← back up to the
    // exchange; End and Home go to the last and the first row. None of it throws in the page.
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.selectOption('[data-testid="timeline-view"]', 'exchanges');
    const exchange = page.locator('[data-testid="timeline-row"][data-kind="exchange"][data-method="tools/list"]').first();
    await exchange.locator('[data-testid="row-status"]').click();
    const exchangeId = await exchange.getAttribute('data-id');
    expect(await selected()).toBe(exchangeId);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="timeline-row"][data-id="${exchangeId}"][aria-expanded="true"]`);
    await page.keyboard.press('ArrowDown');
    const child = await selected();
    expect(await page.getAttribute(`[data-testid="timeline-row"][data-child][data-id="${child}"]`, 'data-method')).toBe('tools/list');
    await page.keyboard.press('ArrowLeft');
    expect(await selected()).toBe(exchangeId);
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector(`[data-testid="timeline-row"][data-id="${exchangeId}"][aria-expanded="false"]`);
    // A selection the filters hide is on no row: Enter opens nothing (it opened the last row).
    await page.selectOption('[data-testid="filter-method"]', 'server/discover');
    await page.locator('h1').click();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(await page.$$('[data-testid="timeline-row"][aria-expanded="true"]')).toHaveLength(0);
    await page.selectOption('[data-testid="filter-method"]', '');
    await exchange.locator('[data-testid="row-status"]').click();
    const edge = () =>
      page.$$eval('[data-testid="timeline-row"]', (rows) => {
        const top = (r: Element) => Number.parseFloat((r as HTMLElement).style.top);
        const sorted = rows.sort((a, b) => top(a) - top(b));
        return { first: sorted[0]?.getAttribute('data-id'), last: sorted.at(-1)?.getAttribute('data-id') };
      });
    await page.keyboard.press('End');
    expect(await selected()).toBe((await edge()).last);
    await page.keyboard.press('Home');
    expect(await selected()).toBe((await edge()).first);
    expect(errors).toEqual([]);
    await page.selectOption('[data-testid="timeline-view"]', 'frames');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="detail-pane"][data-empty]');

    await page.keyboard.press('?');
    const help = await page.waitForSelector('[data-testid="shortcuts-help"][open]');
    const rows = await help.$$eval('[data-testid="shortcut"]', (r) => r.map((x) => x.textContent ?? ''));
    for (const want of [
      '/Focus the timeline search',
      'j↓Select the next',
      'k↑Select the previous',
      'EnterOpen the selected',
      'EscClose',
      '?Show these shortcuts',
    ])
      expect(rows.some((r) => r.startsWith(want))).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="shortcuts-help"]:not([open])', { state: 'attached' });
  });

  it('switches theme, remembers it, and applies it before any script of the app runs', async () => {
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.click('label:has([data-testid="theme-dark"])');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await bg()).toBe('rgb(11, 15, 23)');
    // Reload with the app's scripts held back: the dark page comes from the head script alone.
    const scripts = (url: URL) => url.pathname.endsWith('.js');
    await page.route(scripts, (route) => route.abort());
    try {
      await page.reload({ waitUntil: 'load' });
      expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
      expect(await bg()).toBe('rgb(11, 15, 23)');
      // No app code ran: the toggle was never hydrated.
      expect(await page.getAttribute('[data-testid="theme-toggle"]', 'data-theme-choice')).toBe('system');
    } finally {
      await page.unroute(scripts);
    }
    await page.reload();
    await page.waitForSelector('[data-testid="theme-toggle"][data-theme-choice="dark"]');
    await page.click('label:has([data-testid="theme-light"])');
    expect(await bg()).toBe('rgb(248, 250, 252)');
    await page.click('label:has([data-testid="theme-system"])');
    expect(await page.getAttribute('html', 'data-theme')).toBeNull();
  });

  it('lists the autosaved sessions: open, rename, delete', async () => {
    const saved = async () =>
      ((await controlApi(env.base, env.server.token!, '/api/recordings', 'GET')).json.recordings as { name: string }[]).map((r) => r.name);
    await expect.poll(saved, { timeout: 20_000 }).not.toEqual([]);
    await page.click('[data-testid="sessions-link"]');
    await page.waitForSelector('[data-testid="session-row"]');
    const name = await page.getAttribute('[data-testid="session-row"]', 'data-name');
    expect(name).toMatch(/\.loupe\.json$/);

    const row = (n: string) => `[data-testid="session-row"][data-name="${n}"]`;
    await page.click(`${row(name!)} [data-testid="session-rename"]`);
    await page.fill(`${row(name!)} [data-testid="session-rename-input"]`, 'my-session');
    await page.click(`${row(name!)} [data-testid="session-rename-save"]`);
    await page.waitForSelector(row('my-session.loupe.json'));
    expect(await saved()).toContain('my-session.loupe.json');

    await page.click(`${row('my-session.loupe.json')} [data-testid="session-open"]`);
    await page.waitForSelector('[data-testid="recording-viewer"][data-state="ready"]', { timeout: 20_000 });
    expect(await page.textContent('[data-testid="recording-info"]')).toContain('my-session.loupe.json');

    await page.goto(`${env.base}/recording`);
    await page.click(`${row('my-session.loupe.json')} [data-testid="session-delete"]`);
    await page.click(`${row('my-session.loupe.json')} [data-testid="session-delete"]`);
    await page.waitForSelector(row('my-session.loupe.json'), { state: 'detached' });
    expect(await saved()).not.toContain('my-session.loupe.json');
  });
});
