// In headless Chromium: open a 100,000-frame recording file in the viewer (until the first
// timeline rows show, and until the whole recording is in the timeline), then scroll the
// timeline for 3 s. Frame cost comes from Chromium's own trace: the main thread's work per
// frame (every task from the start of one animation frame to the start of the next), which is
// what has to stay under 16 ms. Timer tasks are counted apart: they are the background lint
// slices of a recording without stored lints, which yield between slices. Whether anything
// delayed a frame shows in the requestAnimationFrame intervals (capped by vsync): dropped frames.
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, percentile, startApp } from './lib.mjs';

const VSYNC_MS = 1000 / 60;

/** Main-thread work per frame (ms) from a trace: tasks grouped by the animation frame they fall in. */
function frameWork(trace) {
  const out = { frame: [], background: [] };
  const events = trace.traceEvents ?? trace;
  const names = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name]));
  const isMain = (e) => names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain';
  const begins = events
    .filter((e) => isMain(e) && e.name === 'AnimationFrame' && e.ph === 'b')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const tasks = events.filter((e) => isMain(e) && e.ph === 'X' && e.name === 'RunTask').sort((a, b) => a.ts - b.ts);
  const timers = events.filter((e) => isMain(e) && e.ph === 'X' && e.name === 'TimerFire').map((e) => e.ts);
  const isTimer = (task) => timers.some((ts) => ts >= task.ts && ts <= task.ts + (task.dur ?? 0));
  let t = 0;
  for (let i = 0; i + 1 < begins.length; i++) {
    let busy = 0;
    let background = 0;
    while (t < tasks.length && tasks[t].ts < begins[i + 1]) {
      if (tasks[t].ts >= begins[i]) {
        if (isTimer(tasks[t])) background += tasks[t].dur ?? 0;
        else busy += tasks[t].dur ?? 0;
      }
      t++;
    }
    out.frame.push(busy / 1000);
    out.background.push(background / 1000);
  }
  return out;
}

/** `opens` fresh pages open the file one after the other; the median is reported, with every run. */
export async function browserRecording({ root, dataDir, file, opens = 3 }) {
  const app = await startApp({ root, dataDir: `${dataDir}/browser` });
  const { port } = app;
  const browser = await launchChromium();
  try {
    const openRuns = [];
    let page;
    for (let i = 0; i < opens; i++) {
      await page?.close();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`http://127.0.0.1:${port}/recording`);
      await page.waitForSelector('[data-testid="recording-file"]', { state: 'attached' });
      const t0 = Date.now();
      await page.setInputFiles('[data-testid="recording-file"]', file);
      await page.waitForSelector('[data-testid="timeline-row"]', { timeout: 120_000 });
      openRuns.push(Date.now() - t0);
    }
    const openMs = percentile(openRuns, 50);
    // Every frame is in the list (the row count the grid announces), none spilled.
    const rows = Number(await page.getAttribute('[data-testid="timeline-list"]', 'aria-rowcount'));
    const tracePath = path.join(dataDir, 'scroll-trace.json');
    await browser.startTracing(page, { path: tracePath, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const intervals = await page.evaluate(async () => {
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
    await browser.stopTracing();
    const { frame: work, background } = frameWork(JSON.parse(fs.readFileSync(tracePath, 'utf8')));
    if (!process.env.KEEP_TRACE) fs.rmSync(tracePath, { force: true });
    const dropped = intervals.filter((d) => d > VSYNC_MS * 1.5).length;
    return {
      openMs,
      openRuns,
      rows,
      frames: work.length,
      p50: +percentile(work, 50).toFixed(1),
      p95: +percentile(work, 95).toFixed(1),
      max: +Math.max(...work).toFixed(1),
      backgroundP95: +percentile(background, 95).toFixed(1),
      dropped,
      rafFrames: intervals.length,
    };
  } finally {
    await browser.close();
    await app.stop();
  }
}
