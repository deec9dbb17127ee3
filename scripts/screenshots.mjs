// Screenshots of Loupe's main views for the README: starts the app server (`scripts/serve.mjs`,
// which needs `npm run build` first) on a free port with a throwaway data directory, drives the
// demo in headless Chromium (playwright-core, /usr/bin/chromium or $CHROMIUM_PATH) and writes
// PNGs under docs/screenshots/. Usage: node scripts/screenshots.mjs [--width 1440 --height 900]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { freePort } from './free-port.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/screenshots');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const viewport = { width: arg('--width', 1440), height: arg('--height', 900) };

async function startServer() {
  const port = await freePort();
  const token = `shots-${Math.random().toString(36).slice(2)}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-shots-'));
  const child = spawn(process.execPath, [path.join(root, 'scripts/serve.mjs')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOUPE_DATA_DIR: dataDir, LOUPE_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exitCode !== null) throw new Error(`the app server exited:\n${log}`);
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`the app server did not answer:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () => {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, token, stop };
}

async function shot(page, name) {
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file });
  process.stdout.write(`${path.relative(root, file)} (${Math.round(fs.statSync(file).size / 1024)} KiB)\n`);
}

const connected = (page) => page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });

async function callTool(page, name, asTask = false) {
  await page.click('[data-tab="tools"]');
  await page.click(`[data-testid="tools-table"] tr[data-tool="${name}"] [data-testid="select-tool"]`);
  if (name === 'generate_report') await page.selectOption('[data-testid="tool-call-form"] select[name="size"]', 'small');
  if (asTask) await page.check('[data-testid="run-as-task"]');
  await page.click(`[data-testid="tool-call-form"][data-tool="${name}"] [data-testid="call-tool"]`);
}

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const context = await browser.newContext({ viewport, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${server.base}/?token=${server.token}`);
    await connected(page);

    // The inspector with the demo's notes app open, and a task in the Tasks tab.
    await callTool(page, 'notes_timeline');
    await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    await page.waitForTimeout(500);
    await shot(page, 'inspector-app');
    await callTool(page, 'generate_report', true);
    await page.waitForSelector('[data-testid="task-card"]', { timeout: 15_000 });
    await page.waitForTimeout(1500);
    await shot(page, 'inspector-task');

    // The timeline with an exchange unfolded and its answer in the detail.
    const row = page.locator('[data-testid="timeline-row"][data-kind="exchange"][data-method="tools/list"]').first();
    await row.click();
    await row.locator('[data-expand]').click();
    await page.waitForTimeout(300);
    await shot(page, 'timeline-expanded');

    // The control room of the demo scenario.
    await page.goto(`${server.base}/scenarios/demo`);
    await page.waitForSelector('[data-testid="control-room"], main', { timeout: 15_000 });
    await page.waitForTimeout(1500);
    await shot(page, 'control-room');

    // This session as a recording (its share link), opened in the viewer.
    await page.goto(`${server.base}/`);
    await connected(page);
    await callTool(page, 'notes_timeline');
    await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    await page.click('[data-testid="export-session"]');
    await page.waitForSelector('[data-testid="review-dialog"]');
    await page.click('[data-testid="make-share-link"]');
    const link = await page.inputValue('[data-testid="share-link"]');
    await page.goto(link);
    await page.waitForSelector('[data-testid="recording-viewer"][data-state="ready"]', { timeout: 30_000 });
    await page.waitForSelector('[data-testid="recorded-app"] [data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    await page.waitForTimeout(1000);
    await shot(page, 'recording');
  } finally {
    await browser.close();
    server.stop();
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
