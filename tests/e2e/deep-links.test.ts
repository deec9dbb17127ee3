import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startCliOpen, startSdkServer, type Started } from '../helpers/processes';
import { launchChromium } from './browser';

/**
 * Deep links from the command line, in headless Chromium: `mcp-loupe --url <server> --header
 * "K: V"` opens the inspector connected to that server through the proxy, and `mcp-loupe --
 * <command>` connected to that stdio server. The page URL names the connection (a reload
 * connects again) but never a header value; a link naming a command this launch was not given
 * waits for the user's Connect.
 */

const SECRET = 'secret-value';
let browser: Browser;
let dataDir: string;
let loupe: Started | undefined;

const connected = (page: Page) => page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
const toolNames = (page: Page) => page.$$eval('[data-testid="tools-table"] tbody tr[data-tool]', (rows) => rows.map((r) => r.getAttribute('data-tool')));

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-links-'));
  browser = await launchChromium();
});
afterEach(async () => {
  await loupe?.stop();
  loupe = undefined;
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('mcp-loupe --url', () => {
  let sdk: Awaited<ReturnType<typeof startSdkServer>>;
  beforeAll(async () => {
    sdk = await startSdkServer({ LOG_HEADER: 'X-Test' });
  });
  afterAll(() => sdk?.stop());

  it('opens connected to that server with the header sent, its value nowhere in the URL; a reload connects again', async () => {
    loupe = await startCliOpen(['--port', '0', '--data-dir', dataDir, '--url', sdk.url, '--header', `X-Test: ${SECRET}`]);
    expect(loupe.url).toContain(encodeURIComponent(sdk.url));
    expect(loupe.url).not.toContain(SECRET);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(loupe.url);
    await connected(page);
    expect(await page.textContent('[data-testid="server-info"]')).toContain('sdk-fixture');
    expect(await toolNames(page)).toEqual(['word_count']);
    expect(await page.inputValue('[data-testid="url-input"]')).toBe(sdk.url);
    expect(await page.inputValue('[data-testid="mode-select"]')).toBe('proxy');

    const pageUrl = new URL(page.url());
    expect(pageUrl.searchParams.get('url')).toBe(sdk.url);
    expect(pageUrl.searchParams.get('token')).toBeNull();
    expect(pageUrl.searchParams.getAll('header')).toEqual(['X-Test']);
    expect(page.url()).not.toContain(SECRET);
    expect(sdk.output()).toContain(`SAW x-test: ${SECRET}`);

    // A reload (or the bookmark) connects again, with the header, still not in the URL.
    const seen = sdk.output().split(`SAW x-test: ${SECRET}`).length;
    await page.reload();
    await connected(page);
    expect(await toolNames(page)).toEqual(['word_count']);
    expect(page.url()).toBe(pageUrl.toString());
    expect(sdk.output().split(`SAW x-test: ${SECRET}`).length).toBeGreaterThan(seen);

    // Connecting elsewhere from the connection bar rewrites the URL to match, still without the value.
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    await page.fill('[data-testid="url-input"]', '/mcp');
    await page.selectOption('[data-testid="mode-select"]', 'direct');
    await page.click('[data-testid="connect-button"]');
    await connected(page);
    await expect.poll(() => new URL(page.url()).searchParams.get('url')).toBe('/mcp');
    expect(new URL(page.url()).searchParams.get('transport')).toBe('direct');
    expect(page.url()).not.toContain(SECRET);
    await context.close();
  });
});

describe('mcp-loupe -- <stdio server>', () => {
  it('opens connected to that stdio server, and a tool call works', async () => {
    const stdioData = path.join(dataDir, 'stdio');
    loupe = await startCliOpen([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--',
      'node',
      path.join(ROOT, 'bin/mcp-loupe.mjs'),
      'mock',
      'demo',
      '--stdio',
      '--data-dir',
      stdioData,
    ]);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(loupe.url);
    await connected(page);
    expect(await page.inputValue('[data-testid="mode-select"]')).toBe('stdio');
    expect(await page.textContent('[data-testid="server-info"]')).toContain('loupe-demo');
    const pageUrl = new URL(page.url());
    expect(pageUrl.searchParams.get('transport')).toBe('stdio');
    expect(pageUrl.searchParams.get('command')).toBe('node');
    expect(pageUrl.searchParams.getAll('arg')).toEqual([path.join(ROOT, 'bin/mcp-loupe.mjs'), 'mock', 'demo', '--stdio', '--data-dir', stdioData]);

    await page.click('[data-tool="echo"] [data-testid="select-tool"]');
    const form = '[data-testid="tool-call-form"][data-tool="echo"]';
    await page.fill(`${form} input[name="text"]`, 'hello over stdio');
    await page.click(`${form} [data-testid="call-tool"]`);
    const result = await page.waitForSelector(`${form} [data-testid="tool-result"]`, { timeout: 15_000 });
    expect(await result.getAttribute('data-outcome')).toBe('complete');
    expect(await result.textContent()).toContain('hello over stdio');

    // Reloading this tab connects again.
    await page.reload();
    await connected(page);
    expect(await page.textContent('[data-testid="server-info"]')).toContain('loupe-demo');
    await context.close();
  });

  it('never runs a command that only a link names: it waits in the connection bar for Connect', async () => {
    loupe = await startCliOpen(['--port', '0', '--data-dir', dataDir]);
    const marker = path.join(dataDir, 'ran.txt');
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(loupe.url); // the cookie, as the user holding this launch has it
    await connected(page);
    const link = `http://127.0.0.1:${loupe.port}/?transport=stdio&command=node&arg=-e&arg=${encodeURIComponent(script)}`;
    const linked = await context.newPage();
    await linked.goto(link);
    await linked.waitForSelector('[data-testid="stdio-held"]');
    expect(await linked.textContent('[data-testid="stdio-held"]')).toContain('node -e');
    expect(await linked.getAttribute('[data-testid="connection-status"]', 'data-state')).toBe('idle');
    expect(await linked.inputValue('[data-testid="mode-select"]')).toBe('stdio');
    await new Promise((r) => setTimeout(r, 1000));
    expect(fs.existsSync(marker)).toBe(false);
    await context.close();
  });
});
