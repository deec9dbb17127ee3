// In headless Chromium: open a 100,000-frame recording file in the viewer (until the first
// timeline rows show), then scroll the timeline for 3 s and report frame intervals.
import { chromium } from 'playwright-core';
import { freePort, percentile, startProcess } from './lib.mjs';

export async function browserRecording({ root, dataDir, file }) {
  const port = await freePort();
  const next = await startProcess(process.execPath, [`${root}/node_modules/next/dist/bin/next`, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    env: { LOUPE_DATA_DIR: `${dataDir}/browser`, LOUPE_TOKEN: 'bench-token', NEXT_TELEMETRY_DISABLED: '1' },
    readyPattern: /(Ready) in/,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/recording`);
    await page.waitForSelector('[data-testid="recording-file"]', { state: 'attached' });
    const t0 = Date.now();
    await page.setInputFiles('[data-testid="recording-file"]', file);
    await page.waitForSelector('[data-testid="timeline-row"]', { timeout: 120_000 });
    const openMs = Date.now() - t0;
    const deltas = await page.evaluate(async () => {
      const list = document.querySelector('[data-testid="timeline-list"]');
      if (!list) return [];
      const out = [];
      let last = performance.now();
      const end = last + 3000;
      await new Promise((resolve) => {
        const step = (now) => {
          out.push(now - last);
          last = now;
          list.scrollTop += 600;
          if (now < end) requestAnimationFrame(step);
          else resolve();
        };
        requestAnimationFrame(step);
      });
      return out.slice(1);
    });
    return { openMs, frames: deltas.length, p50: +percentile(deltas, 50).toFixed(1), p95: +percentile(deltas, 95).toFixed(1), max: +Math.max(...deltas).toFixed(1) };
  } finally {
    await browser.close();
    await next.stop();
  }
}
