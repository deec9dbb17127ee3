import { chromium, type Browser } from 'playwright-core';

/** Launch Debian's Chromium headless with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The app server (as `npm start` runs it) on its own data directory plus a Chromium, for one e2e file. */
export interface AppAndBrowser {
  server: import('../helpers/processes').Started;
  browser: Browser;
  dataDir: string;
  base: string;
}

/** Start both (in a beforeAll); `prefix` names the temporary data directory. */
export async function startAppAndBrowser(prefix: string): Promise<AppAndBrowser> {
  const { startApp } = await import('../helpers/processes');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const server = await startApp(dataDir);
  return { server, browser: await launchChromium(), dataDir, base: `http://127.0.0.1:${server.port}` };
}

/** Stop both and remove the data directory (in an afterAll); tolerates a failed start. */
export async function stopAppAndBrowser(env: Partial<AppAndBrowser>): Promise<void> {
  await env.browser?.close();
  await env.server?.stop();
  if (env.dataDir) (await import('node:fs')).rmSync(env.dataDir, { recursive: true, force: true });
}

/** Open the timeline toolbar's Filters menu (direction, errors only, has lints, messages only), if closed. */
export async function openTimelineFilters(page: import('playwright-core').Page): Promise<void> {
  if (!(await page.$eval('[data-testid="timeline-filters"]', (d) => (d as HTMLDetailsElement).open)))
    await page.click('[data-testid="timeline-filters"] summary');
}

/** Show the timeline one row per frame (the default is one row per exchange). */
export async function showFrames(page: import('playwright-core').Page): Promise<void> {
  await page.selectOption('[data-testid="timeline-view"]', 'frames');
}
