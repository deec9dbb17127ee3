// What a user waits for after typing `npx mcp-loupe` in a folder the tarball was installed into:
// wall time from the spawn of `npx mcp-loupe --no-open --port P` to the first 200 from /healthz
// (polled every 5 ms), to the printed URL, and, with that URL opened in a headless Chromium that
// was already running (a user's browser is), to the inspector's first paint (Chromium's
// first-contentful-paint entry) and to its connected marker (the connection status reads
// "connected" to the demo, its tools listed). Runs a few times; medians, with every run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, launchChromium, percentile } from './lib.mjs';

/** A shell's environment in another folder: none of the outer npm's variables naming this checkout. */
const shellEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'INIT_CWD'));

async function untilHealthy(base, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error('npx mcp-loupe exited before /healthz answered');
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return Date.now();
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function once(dir, browser, dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  const child = spawn('npx', ['mcp-loupe', '--no-open', '--port', String(port), '--data-dir', dataDir], {
    cwd: dir,
    env: { ...shellEnv(), CI: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  const printed = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from npx mcp-loupe:\n${out}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Loupe is running: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], at: Date.now() });
      }
    });
  });
  const context = await browser.newContext();
  try {
    const healthyAt = await untilHealthy(base, child);
    const { url, at: printedAt } = await printed;
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 60_000 });
    await page.waitForSelector('[data-tool="echo"]');
    const connectedAt = Date.now();
    const paintEpoch = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return fcp ? performance.timeOrigin + fcp.startTime : null;
    });
    return {
      healthzMs: healthyAt - t0,
      urlMs: printedAt - t0,
      firstPaintMs: paintEpoch === null ? null : Math.round(paintEpoch - t0),
      connectedMs: connectedAt - t0,
    };
  } finally {
    await context.close();
    await new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      process.kill(-child.pid, 'SIGTERM');
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 5000).unref();
    });
  }
}

/** `dir`: a folder with the tarball installed (node_modules/.bin/mcp-loupe). */
export async function openStart({ dir, dataDir, runs = 3 }) {
  const browser = await launchChromium();
  const all = [];
  try {
    for (let i = 0; i < runs; i++) all.push(await once(dir, browser, path.join(dataDir, `open-${i}`)));
  } finally {
    await browser.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const median = (key) =>
    Math.round(
      percentile(
        all.map((r) => r[key]).filter((v) => v !== null),
        50,
      ),
    );
  return { runs: all, healthzMs: median('healthzMs'), urlMs: median('urlMs'), firstPaintMs: median('firstPaintMs'), connectedMs: median('connectedMs') };
}

/** Lines for the bench table. */
export function formatOpenStart(r) {
  const each = (key) => r.runs.map((x) => x[key]).join(', ');
  return [
    `npx mcp-loupe (installed tarball), median of ${r.runs.length} runs, ms from the spawn:`,
    `  first answered /healthz ${r.healthzMs} (${each('healthzMs')}); URL printed ${r.urlMs} (${each('urlMs')})`,
    `  inspector first paint (Chromium first-contentful-paint) ${r.firstPaintMs} (${each('firstPaintMs')})`,
    `  inspector connected to the demo, tools listed ${r.connectedMs} (${each('connectedMs')})`,
  ];
}
