import type { BrowserContext, ElementHandle, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFloodServer, type FloodServer } from '../helpers/hostile/flood-server';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';
import { startProfile, stopProfile } from './profile';

/**
 * A server that tries to freeze the inspector by volume (tests/helpers/hostile/flood-server.ts):
 * 100,000 tools, an MCP App that floods the bridge, an SSE stream that never ends. Throughout,
 * two main-thread probes run in the page: a worker asks the page every 20 ms and the longest
 * wait for the page's answer is kept (`…AnswerMaxMs`, the "a main-thread probe answers
 * within 200 ms", asserted for every case by `responsive`), and a timer every 20 ms keeps the longest gap between its runs (`…ProbeMaxMs`:
 * stricter, since it counts its own 20 ms and timers are among the page's last tasks to run).
 */

/**
 * 100,000 tools is the case; CI lists 20,000 (same code paths, a fifth of the time) unless
 * `LOUPE_E2E_FULL_FLOOD=1` asks for the full size.
 */
const TOOL_COUNT = process.env.LOUPE_E2E_FULL_FLOOD === '1' ? 100_000 : 20_000;
const LAST_TOOL = `tool_${String(TOOL_COUNT - 1).padStart(6, '0')}`;
/** Resources and prompts listed (each): 10,000 in CI (10 pages, virtualized), the 100,000 with the flag. */
const LIST_COUNT = process.env.LOUPE_E2E_FULL_FLOOD === '1' ? 100_000 : 10_000;
const LAST_ENTRY = String(LIST_COUNT - 1).padStart(6, '0');

/** The criterion: the page answers the worker's probe within this long throughout each case (see `responsive`). */
const PROBE_LIMIT_MS = 200;

/** The probes' state in the page. */
interface Probe {
  max: number;
  last: number;
  timer: number;
  /** The longest wait for an answer to the worker's question. */
  answerMax: number;
  worker: Worker;
}

/**
 * Start the probes: every 20 ms the timer notes the time (the longest gap between two runs is
 * the main thread's longest stall), and a worker posts the time it asks, which the page answers
 * on arrival (the longest wait is the longest the page took to answer).
 */
async function startProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __probe?: Probe };
    if (w.__probe) {
      clearInterval(w.__probe.timer);
      w.__probe.worker.terminate();
    }
    const asker = 'setInterval(() => postMessage(performance.timeOrigin + performance.now()), 20);';
    const worker = new Worker(URL.createObjectURL(new Blob([asker], { type: 'text/javascript' })), { name: 'loupe-e2e-probe' });
    const p: Probe = { max: 0, last: performance.now(), timer: 0, answerMax: 0, worker };
    worker.onmessage = (e: MessageEvent<number>) => {
      p.answerMax = Math.max(p.answerMax, performance.timeOrigin + performance.now() - e.data);
    };
    p.timer = window.setInterval(() => {
      const t = performance.now();
      p.max = Math.max(p.max, t - p.last);
      p.last = t;
    }, 20);
    w.__probe = p;
  });
}

/** The longest stall so far (ms), read with a page.evaluate round trip. */
const probeMax = (page: Page) => page.evaluate(() => (window as unknown as { __probe: Probe }).__probe.max);
/** Both probes' figures for case `name`: its longest stall and its longest wait for an answer (ms). */
async function probeFigures(page: Page, figures: Record<string, number>, name: string): Promise<void> {
  const { max, answerMax } = await page.evaluate(() => {
    const p = (window as unknown as { __probe: Probe }).__probe;
    return { max: p.max, answerMax: p.answerMax };
  });
  figures[`${name}ProbeMaxMs`] = Math.round(max);
  figures[`${name}AnswerMaxMs`] = Math.round(answerMax);
}

describe('a hostile server cannot freeze the page by volume', () => {
  let env: AppAndBrowser;
  let flood: FloodServer;
  let context: BrowserContext;
  let page: Page;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    [env, flood] = await Promise.all([
      startAppAndBrowser('loupe-e2e-flood-'),
      startFloodServer({ toolCount: TOOL_COUNT, resourceCount: LIST_COUNT, promptCount: LIST_COUNT }),
    ]);
    context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
  });
  afterAll(async () => {
    console.log(`hostile-flood figures (probe criterion ${PROBE_LIMIT_MS} ms): ${JSON.stringify(figures)}`);
    await context?.close();
    await flood?.stop();
    await stopAppAndBrowser(env ?? {});
  });

  /**
   * Hold one case to the criterion: run it under the probes and expect the page to have answered
   * within PROBE_LIMIT_MS throughout; returns how many runs it took. A case that misses is run once
   * more (`again`, from where the first run left the page): on a 2-core machine the page's thread
   * can wait for a core while the flooding view's renderer, its sandbox proxy's and the browser
   * process routing their messages hold both (a trace of a 113 ms task showed 11 ms of thread
   * time), so one miss may be the machine's; a page that blocks itself misses twice. Both runs'
   * figures are printed (`<name>Again…`).
   */
  async function responsive(name: string, first: () => Promise<void>, again: () => Promise<void> = first): Promise<number> {
    const runs = [name, `${name}Again`];
    for (const [i, label] of runs.entries()) {
      await startProbe(page);
      const prof = await startProfile(page);
      await (i === 0 ? first : again)();
      await probeFigures(page, figures, label);
      await stopProfile(prof, label);
      if ((figures[`${label}AnswerMaxMs`] as number) <= PROBE_LIMIT_MS) return i + 1;
    }
    expect.soft(figures[`${name}AgainAnswerMaxMs`], `${name}: the page took over ${PROBE_LIMIT_MS} ms to answer, twice`).toBeLessThanOrEqual(PROBE_LIMIT_MS);
    return runs.length;
  }

  it('connects to a server with 20,000 tools (100,000 with LOUPE_E2E_FULL_FLOOD=1), lists them virtualized and finds one by search, the page answering throughout', async () => {
    await page.click('[data-testid="connect-button"]'); // leave the demo mock
    await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    await page.fill('[data-testid="url-input"]', flood.url);
    await page.selectOption('[data-testid="mode-select"]', 'proxy');
    const connect = async () => {
      const started = Date.now();
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 280_000 });
      figures.connectMs = Date.now() - started;
    };
    const connects = await responsive('connect', connect, async () => {
      await page.click('[data-testid="connect-button"]'); // disconnect, then connect again
      await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
      await connect();
    });
    figures.toolCount = TOOL_COUNT;
    expect(await page.textContent('[data-testid="tools-count"]')).toBe(TOOL_COUNT.toLocaleString('en-US'));
    expect(flood.counts.get('tools/list')).toBe((TOOL_COUNT / 1000) * connects);
    // Virtualized: a screenful of rows in the document, not 100,000.
    expect(await page.getAttribute('[data-testid="tools-table"]', 'data-virtual')).toBe('true');
    expect(await page.$$eval('[data-testid="tools-table"] tr[data-tool]', (rows) => rows.length)).toBeLessThan(60);
    // The timeline kept following the newest row through the 20 pages (it scrolls once per frame, not per commit).
    await expect
      .poll(
        () => page.$eval('[data-testid="timeline-list"]', (el) => el.scrollHeight > el.clientHeight && el.scrollHeight - el.scrollTop - el.clientHeight < 28),
        { timeout: 15_000 },
      )
      .toBe(true);

    const search = async () => {
      await page.fill('[data-testid="tools-search"]', LAST_TOOL);
      await page.waitForSelector(`[data-testid="tools-matches"]:has-text("1 of ${TOOL_COUNT.toLocaleString('en-US')} match")`);
      await page.click(`[data-testid="tools-table"] tr[data-tool="${LAST_TOOL}"] [data-testid="select-tool"]`);
      await page.waitForSelector(`[data-testid="tool-call-form"][data-tool="${LAST_TOOL}"]`);
      await page.fill('[data-testid="tools-search"]', '');
    };
    await responsive('search', search);
  }, 300_000);

  /**
   * A case run on its own (-t) connects to the flood server first; after the first case it is connected already.
   * Either way the page is let settle (the lints, the autosave of what came before) so the probe measures this case.
   */
  async function connectToFlood(): Promise<void> {
    if ((await page.inputValue('[data-testid="url-input"]')) !== flood.url) {
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
      await page.fill('[data-testid="url-input"]', flood.url);
      await page.selectOption('[data-testid="mode-select"]', 'proxy');
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 280_000 });
    }
    // Settled: a second in which the main thread never stalled 100 ms (tried for up to 30 s; a busy machine may not give one).
    for (let i = 0; i < 30; i++) {
      await startProbe(page);
      await page.waitForTimeout(1000);
      if ((await probeMax(page)) < 100) break;
    }
  }

  /** Select a tool (searching for it: the list is virtualized) and call it with its form's defaults. */
  async function callTool(name: string): Promise<void> {
    await page.fill('[data-testid="tools-search"]', name);
    await page.click(`[data-testid="tools-table"] tr[data-tool="${name}"] [data-testid="select-tool"]`);
    await page.click(`[data-testid="tool-call-form"][data-tool="${name}"] [data-testid="call-tool"]`);
  }

  /** The view of `tool`, once paused: the reason shown and the dropped count in it. */
  async function pausedView(tool: string): Promise<{ reason: string; dropped: number }> {
    const view = `[data-testid="app-view"][data-tool="${tool}"]`;
    await page.waitForSelector(`${view}[data-state="paused"]`, { timeout: 120_000 });
    // The frame is gone with the pause: the flood's source is unloaded.
    expect(await page.$(`${view} [data-testid="app-frame"]`)).toBeNull();
    // Messages still in flight when the frame went are counted for a second more; then the count stands.
    await page.waitForTimeout(1500);
    const reason = (await page.textContent(`${view} [data-testid="app-paused-reason"]`)) ?? '';
    const dropped = /; ([\d,]+) dropped unread\.$/.exec(reason);
    return { reason, dropped: dropped ? Number(dropped[1]!.replace(/,/g, '')) : 0 };
  }

  /** Resume the paused view of `tool`: it loads again from scratch (and a flooding app floods again). */
  async function resume(tool: string): Promise<void> {
    const view = `[data-testid="app-view"][data-tool="${tool}"]`;
    await page.click(`${view} [data-testid="app-resume"]`);
    await page.waitForSelector(`${view}:not([data-state="paused"]) [data-testid="app-frame"]`);
  }

  /**
   * One flooding app's case: connected and settled, `tool` called under the probes (figures as
   * `label`), until its view is paused; run again (responsive) by resuming the paused view.
   */
  async function floodedView(tool: string, label: string): Promise<{ reason: string; dropped: number }> {
    await connectToFlood();
    let paused = { reason: '', dropped: 0 };
    await responsive(
      label,
      async () => {
        await callTool(tool);
        paused = await pausedView(tool);
      },
      async () => {
        await resume(tool);
        paused = await pausedView(tool);
      },
    );
    return paused;
  }

  it('pauses an app that posts 20,000 bridge messages at once, says so with what it dropped, and loads it again on Resume', async () => {
    const { reason, dropped } = await floodedView('flood_app', 'flood');
    // The sandbox proxy stops the view on the message over the limit, so little or nothing reaches the page to drop.
    expect(reason).toMatch(/^Paused: the app sent 201 messages in [\d.]+ s; the limit is 200 per second(; [\d,]+ dropped unread)?\.$/);
    // What passed before the pause is in the bridge log (the handshake and at most the limit); nothing of the flood beyond it.
    // The log shows its last rows; the rest, on demand, all there.
    const view = '[data-testid="app-view"][data-tool="flood_app"]';
    expect(await page.$$eval(`${view} [data-testid="bridge-log"] li[data-direction]`, (els) => els.length)).toBeLessThanOrEqual(60);
    await page.click(`${view} [data-testid="bridge-log-show-all"]`);
    const logged = Number((await page.textContent(`${view} [data-testid="bridge-log-count"]`))?.replace(/\D/g, ''));
    expect(await page.$$eval(`${view} [data-testid="bridge-log"] li[data-direction]`, (els) => els.length)).toBe(logged);
    const fromView = await page.$$eval('[data-testid="bridge-log"] li[data-direction="in"]', (els) => els.length);
    // The handshake (proxy-ready, ui/initialize, initialized) may fall outside the second the flood filled.
    expect(fromView).toBeLessThanOrEqual(3 + 200 + 1);
    // What the user reads is what was counted: never more than the view sent.
    const floodRead = await page.$$eval(
      '[data-testid="bridge-log"] li[data-direction="in"][data-method^="ui/"]',
      (els) => els.filter((e) => /update-model-context|size-changed/.test(e.getAttribute('data-method') ?? '')).length,
    );
    figures.floodDroppedShown = dropped;
    expect(dropped + floodRead).toBeLessThanOrEqual(20_000);
    expect(await page.$$eval('[data-testid="bridge-log"] li[data-flagged="true"]', (els) => els.map((e) => e.textContent ?? ''))).toEqual(
      expect.arrayContaining([expect.stringContaining('Paused: the app sent 201 messages')]),
    );

    // Resume loads the view again from scratch: it starts over, and floods, and is paused again.
    await responsive('floodResume', async () => {
      await resume('flood_app');
      await pausedView('flood_app');
    });
    // The fresh view's log starts folded again: its last rows, the rest on demand.
    expect(await page.$$eval(`${view} [data-testid="bridge-log"] li[data-direction]`, (els) => els.length)).toBeLessThanOrEqual(60);
    expect(await page.$(`${view} [data-testid="bridge-log-show-all"]`)).not.toBeNull();
  }, 300_000);

  it('pauses an app that keeps sending 2,000 bridge messages a second', async () => {
    const { reason } = await floodedView('flood_app_sustained', 'sustained');
    expect(reason).toMatch(/^Paused: the app sent 201 messages in [\d.]+ s; the limit is 200 per second/);
  }, 120_000);

  it('pauses an app that sends 1 MiB bridge messages once 4 MiB came within ten seconds', async () => {
    const { reason, dropped } = await floodedView('flood_app_huge', 'huge');
    figures.hugeDroppedShown = dropped;
    expect(reason).toMatch(/^Paused: the app sent \d+\.\d MiB in \d+ messages in [\d.]+ s; the limit is 4 MiB per 10 s; [\d,]+ dropped unread\.$/);
    expect(dropped).toBeLessThanOrEqual(100);
    // The model context the view set before the pause (a 1 MiB text) is there to read once unfolded.
    await page.click('[data-testid="app-view"][data-tool="flood_app_huge"] [data-testid="app-model-context"] summary');
    const context = await page.textContent('[data-testid="app-view"][data-tool="flood_app_huge"] [data-testid="app-model-context"] pre');
    expect(context).toMatch(/"text": "flood \d+x{1000}/);
    expect(context!.length).toBeGreaterThan(1024 * 1024);
  }, 120_000);

  it('pauses an app that posts 20,000 messages to the page itself, around its sandbox proxy, reading none of them', async () => {
    const { reason, dropped } = await floodedView('flood_app_direct', 'direct');
    figures.directDroppedShown = dropped;
    // Paused by the page's own count (the proxy never saw these); what was still on its way when the frame went may be dropped.
    expect(reason).toMatch(/^Paused: the app sent 201 messages in [\d.]+ s; the limit is 200 per second(; [\d,]+ dropped unread)?\.$/);
    // Counted as the view's, never read: the log has the handshake and the pause, nothing the view posted around its proxy.
    const view = '[data-testid="app-view"][data-tool="flood_app_direct"]';
    const methods = await page.$$eval(`${view} [data-testid="bridge-log"] li[data-direction="in"]`, (els) => els.map((e) => e.getAttribute('data-method')));
    expect(methods).toContain('ui/initialize');
    expect(methods.filter((m) => m === 'ui/update-model-context' || m === 'ui/notifications/size-changed')).toEqual([]);
  }, 120_000);

  it('cuts a stream that never ends at 16 MiB, shows the cut, and the page holds no more afterwards', async () => {
    await connectToFlood();
    const cdp = await context.newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    const before = await heap();
    const resultSelector = '[data-testid="tool-call-form"][data-tool="endless_stream"] [data-testid="tool-result"]';
    const cut = async () => {
      const earlier = await page.$(resultSelector);
      await callTool('endless_stream');
      await earlier?.waitForElementState('hidden'); // the earlier run's result goes as the call starts
      return page.waitForSelector(resultSelector, { timeout: 200_000 });
    };
    let result: ElementHandle | undefined;
    await responsive('stream', async () => {
      result = await cut();
    });
    expect(await result?.textContent()).toMatch(/stream cut after 1\d\.\d MiB: over the budget of 16\.0 MiB per stream/);
    // The server saw its stream closed near the budget: by the page's cancel through the proxy, or, when the page
    // reads slower than the proxy relays, by the proxy's own cap (32 MiB, twice the page's) plus what sat in buffers:
    // the loopback socket's kernel buffers between server and proxy alone may hold several MiB (40.7 MiB was seen once
    // on a quiet machine), so the bound is the proxy's cap plus one page budget.
    await expect.poll(() => flood.endless().closedByReader, { timeout: 20_000 }).toBe(true);
    const atClose = flood.endless().bytesAtClose ?? 0;
    figures.streamBytesAtCloseMiB = Math.round((atClose / 1024 / 1024) * 10) / 10;
    expect(atClose).toBeGreaterThan(16 * 1024 * 1024);
    expect(atClose).toBeLessThan(48 * 1024 * 1024);
    const after = await heap();
    await page.waitForTimeout(1000);
    const later = await heap();
    figures.heapBeforeMiB = Math.round(before / 1024 / 1024);
    figures.heapAfterCutMiB = Math.round(after / 1024 / 1024);
    figures.heapSecondLaterMiB = Math.round(later / 1024 / 1024);
    // Nothing keeps coming once the stream is closed; what the timeline holds is within its own budgets (48 MiB).
    expect(later - after).toBeLessThan(8 * 1024 * 1024);
    expect(after - before).toBeLessThan(120 * 1024 * 1024);
  }, 300_000);
  it('lists 10,000 resources and 10,000 prompts (100,000 each with LOUPE_E2E_FULL_FLOOD=1) page after page, virtualized, and finds the last of each by search, the page answering throughout', async () => {
    const total = LIST_COUNT.toLocaleString('en-US');
    const pages = LIST_COUNT / 1000;
    /** Every page of `kind` listed: the count shown is the whole list and nothing is loading (`lists` lists in all). */
    const listed = async (kind: 'resources' | 'prompts', lists: number) => {
      await expect.poll(() => flood.counts.get(`${kind}/list`), { timeout: 200_000 }).toBe(pages * lists);
      await page.waitForSelector(`[data-testid="${kind}-count"]:text-is("${total}")`, { timeout: 200_000 });
      await page.waitForSelector(`[data-testid="${kind}-panel"] [data-testid="list-loading"]`, { state: 'detached' });
    };
    /** Refresh lists every page once more. */
    const refreshed = (kind: 'resources' | 'prompts') => async () => {
      const lists = (flood.counts.get(`${kind}/list`) ?? 0) / pages;
      await page.click(`[data-testid="${kind}-refresh"]`);
      await listed(kind, lists + 1);
    };
    await connectToFlood();
    // Every page is followed on its own (no "Load more" for each thousand), and the list shows as it grows.
    await responsive(
      'resources',
      async () => {
        await page.click('[data-tab="resources"]');
        await listed('resources', 1);
      },
      refreshed('resources'),
    );
    expect(await page.$('[data-testid="resources-panel"] [data-testid="load-more"]')).toBeNull();
    expect(await page.getAttribute('[data-testid="resources-table"]', 'data-virtual')).toBe('true');
    expect(await page.$$eval('[data-testid="resources-table"] tr[data-resource]', (rows) => rows.length)).toBeLessThan(60);
    await page.fill('[data-testid="resources-search"]', `resources/${LAST_ENTRY}`);
    await page.waitForSelector(`[data-testid="resources-matches"]:has-text("1 of ${total} match")`);
    await page.waitForSelector(`[data-testid="resources-table"] tr[data-resource="flood://resources/${LAST_ENTRY}"]`);

    const findLastPrompt = async () => {
      await page.fill('[data-testid="prompts-search"]', '');
      expect(await page.getAttribute('[data-testid="prompts-table"]', 'data-virtual')).toBe('true');
      await page.fill('[data-testid="prompts-search"]', `prompt_${LAST_ENTRY}`);
      await page.waitForSelector(`[data-testid="prompts-matches"]:has-text("1 of ${total} match")`);
      await page.click(`[data-testid="prompts-table"] tr[data-prompt="prompt_${LAST_ENTRY}"] [data-testid="select-prompt"]`);
      await page.waitForSelector(`[data-testid="prompt-form"][data-prompt="prompt_${LAST_ENTRY}"]`);
    };
    await responsive(
      'prompts',
      async () => {
        await page.click('[data-tab="prompts"]');
        await listed('prompts', 1);
        await findLastPrompt();
      },
      async () => {
        await refreshed('prompts')();
        await findLastPrompt();
      },
    );
    // A refresh lists from scratch; the chosen prompt (on the last page) comes back with its form once its page does.
    await page.fill('[data-testid="prompts-search"]', '');
    await refreshed('prompts')();
    await page.waitForSelector(`[data-testid="prompt-form"][data-prompt="prompt_${LAST_ENTRY}"]`, { timeout: 10_000 });
    await page.click('[data-tab="tools"]');
  }, 300_000);
});
