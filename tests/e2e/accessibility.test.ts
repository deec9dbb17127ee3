import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type Started } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * Every page of the app server (`npm start`), in headless Chromium in the light and the dark
 * theme, chosen with the inspector's theme toggle against the opposite system scheme (so the
 * choice, remembered for every page, is what is checked), by axe-core: no violation a screen-reader or low-vision user would hit
 * hard (impact serious or critical). Pages are filled first (a tool called, a recording opened)
 * so the timeline rows and detail pane are part of what is checked.
 */

type Scheme = 'light' | 'dark';
type Prepare = (page: Page) => Promise<void>;
/** The page background of each theme (globals.css, theme.css). */
const BACKGROUND: Record<Scheme, string> = { light: 'rgb(248, 250, 252)', dark: 'rgb(11, 15, 23)' };

const connected = (page: Page) => page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 }).then(() => undefined);

/**
 * Violations of impact serious or critical, one line each: the rule, how many nodes, the first
 * target, and the distinct failure messages (for contrast, each foreground/background pair).
 */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const why = [...new Set(v.nodes.map((n) => n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''))];
      return `${v.id} (${v.impact}, ${v.nodes.length} nodes) first at ${JSON.stringify(v.nodes[0]?.target)}: ${why.join(' | ')}`;
    });
}

describe('accessibility (axe-core) in light and dark', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;
  let replayId = '';
  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-a11y-'));
    const recording = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/recordings/v2.json'), 'utf8')) as unknown;
    const started = await controlApi(base, server.token!, '/api/recordings/replay', 'POST', recording);
    expect(started.status).toBe(201);
    replayId = started.json.id as string;
  });
  afterAll(() => stopAppAndBrowser({ server, browser, dataDir }));

  const pages: [string, () => string, Prepare][] = [
    [
      'inspector home with a tool called and an entry open',
      () => `/?token=${server.token}`,
      async (page) => {
        await connected(page);
        await page.click('[data-tool="echo"] [data-testid="select-tool"]');
        const form = '[data-testid="tool-call-form"][data-tool="echo"]';
        await page.fill(`${form} input[name="text"]`, 'hello');
        await page.click(`${form} [data-testid="call-tool"]`);
        await page.waitForSelector(`${form} [data-testid="tool-result"]`, { timeout: 15_000 });
        await page.click('[data-testid="timeline-row"][data-method="tools/call"][data-kind="exchange"]');
        await page.waitForSelector('[data-testid="detail-json-tree"]');
        await page.click('[data-testid="edit-resend"]');
        await page.waitForSelector('[data-testid="resend-json"]');
      },
    ],
    [
      'inspector after a failed connect, with the shortcuts help open',
      () => '/?transport=auto&url=http%3A%2F%2F127.0.0.1%3A9%2Fmcp',
      async (page) => {
        await page.waitForSelector('[data-testid="connection-fix"]', { timeout: 30_000 });
        await page.locator('h1').click();
        await page.keyboard.press('?');
        await page.waitForSelector('[data-testid="shortcuts-help"][open]');
      },
    ],
    ['scenario list', () => '/scenarios', (page) => page.waitForSelector('[data-testid="scenario-item"][data-id="demo"]').then(() => undefined)],
    [
      'scenario control room',
      () => '/scenarios/demo',
      async (page) => {
        await page.waitForSelector('[data-testid="builtin-notice"]');
        await page.waitForSelector('[data-testid="feed-status"][data-state="live"]');
      },
    ],
    [
      'recording viewer with a file opened',
      () => '/recording',
      async (page) => {
        await page.setInputFiles('[data-testid="recording-file"]', path.join(ROOT, 'tests/fixtures/recordings/v2.json'));
        await page.waitForSelector('[data-testid="recording-viewer"][data-state="ready"]');
      },
    ],
    ['replay inspected live', () => `/replay/${replayId}`, connected],
    ['404 page', () => '/no-such-page', (page) => page.waitForSelector('h1').then(() => undefined)],
  ];

  for (const scheme of ['light', 'dark'] as Scheme[]) {
    describe(`in the ${scheme} theme`, () => {
      // One browser context per theme: the token cookie and the theme choice are set once, by
      // visiting the home page with the token and using the toggle, as a user opening the
      // printed link would; every page below opens in it (each on a new tab) instead of
      // connecting the inspector again for each.
      let context: BrowserContext;
      beforeAll(async () => {
        const system: Scheme = scheme === 'dark' ? 'light' : 'dark';
        context = await browser.newContext({ colorScheme: system, viewport: { width: 1440, height: 1000 } });
        const page = await context.newPage();
        await page.goto(`${base}/?token=${server.token}`);
        await page.click(`label:has([data-testid="theme-${scheme}"])`);
        await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
        await page.close();
      });
      afterAll(() => context?.close());

      for (const [name, url, prepare] of pages) {
        it(`${name} (${scheme}) has no serious or critical violations`, async () => {
          const page = await context.newPage();
          try {
            await page.goto(`${base}${url()}`);
            await prepare(page);
            expect(await page.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor])).toEqual([
              scheme,
              BACKGROUND[scheme],
            ]);
            expect(await seriousViolations(page)).toEqual([]);
          } finally {
            await page.close();
          }
        });
      }
    });
  }
});
