import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, callTool } from '../helpers/rpc';
import { CANARY, HOSTILE_URLS, SCRIPT_PAYLOADS } from '../helpers/hostile/payloads';
import { HUGE_BYTES, startPayloadServer, TOOL, type PayloadServer } from '../helpers/hostile/payload-server';
import { controlApi, httpTarget } from '../integration/http-target';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';
import { startProfile, stopProfile } from './profile';

/**
 * A hostile MCP server (tests/helpers/hostile/payload-server.ts) in the real inspector page on
 * the app server, in headless Chromium, through the proxy and directly: script payloads in
 * every name, description, schema, result, elicitation and server info; javascript: and data:
 * URLs; a 50 MB result; JSON nested 10,000 levels; bytes that are not UTF-8; redirects into
 * Loupe's reset route; an MCP App that attacks its host. Throughout: no script runs in Loupe's
 * origin (the canary global stays unset, no dialog opens), no popup opens, the page stays on
 * its URL, the demo's tasks and ledger are intact (no request reached the reset), and a
 * main-thread probe keeps ticking and answering (its longest gap and longest answer are printed).
 */

/**
 * A tick every 50 ms on the page's main thread, recording the longest gap between ticks; and a
 * worker asking the page every 20 ms, recording the longest wait for the page's answer.
 */
const PROBE = `(() => {
  const p = { max: 0, last: performance.now(), answer: 0 };
  window.__loupeProbe = p;
  setInterval(() => { const now = performance.now(); p.max = Math.max(p.max, now - p.last); p.last = now; }, 50);
  const asker = 'setInterval(() => postMessage(performance.timeOrigin + performance.now()), 20);';
  const worker = new Worker(URL.createObjectURL(new Blob([asker], { type: 'text/javascript' })), { name: 'loupe-e2e-probe' });
  worker.onmessage = (e) => { p.answer = Math.max(p.answer, performance.timeOrigin + performance.now() - e.data); };
})()`;

describe('a hostile MCP server in the inspector', () => {
  let env: AppAndBrowser;
  let hostile: PayloadServer;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const popups: string[] = [];
  const navigations: string[] = [];
  let demoTasks: string[] = [];
  let receipt: unknown;
  /** The probe's longest gap and longest wait for an answer during each test, by test name. */
  const gaps: [string, { gap: number; answer: number }][] = [];

  const mcp = () => httpTarget(`${env.base}/mcp`);
  const charge = () => callTool(mcp(), 'charge', { account: 'acct_h', amountCents: 700, idempotencyKey: 'k-hostile' }, mcp().opts());
  const taskIds = async () =>
    ((await controlApi(env.base, env.server.token!, '/api/scenarios/demo/tasks', 'GET')).json.tasks as { taskId: string }[]).map((t) => t.taskId).sort();

  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-hostile-');
    hostile = await startPayloadServer(env.base);
    // The demo's state a reset would wipe: two tasks and a ledger row.
    await callTool(mcp(), 'generate_report', { size: 'small' }, mcp().opts({ caps: CAPS.formAndTasks }));
    await callTool(mcp(), 'generate_report', { size: 'large' }, mcp().opts({ caps: CAPS.formAndTasks }));
    receipt = (await charge()).body.result.structuredContent.receipt;
    demoTasks = await taskIds();
    context = await env.browser.newContext({ viewport: { width: 1600, height: 1100 } });
    context.on('page', (p) => popups.push(p.url()));
    await context.addInitScript(PROBE);
    page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
    await page.goto(`${env.base}/?token=${env.server.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
    popups.length = 0;
    await probeGap(); // page load and hydration are not the hostile server's doing
  });
  afterAll(async () => {
    await context?.close();
    await hostile?.close();
    await stopAppAndBrowser(env ?? {});
    if (gaps.length)
      console.log(
        `main-thread probe, longest gap between 50 ms ticks / longest wait for an answer (ms):\n${gaps.map(([name, g]) => `  ${Math.round(g.gap)} / ${Math.round(g.answer)}  ${name}`).join('\n')}\n  max ${Math.round(Math.max(...gaps.map(([, g]) => g.gap)))} / ${Math.round(Math.max(...gaps.map(([, g]) => g.answer)))}`,
      );
  });

  /** The probe's longest gap and longest answer since the last read (then reset), after a round trip through the main thread. */
  async function probeGap(): Promise<{ gap: number; answer: number }> {
    return page.evaluate(() => {
      const p = (window as unknown as { __loupeProbe: { max: number; last: number; answer: number } }).__loupeProbe;
      const out = { gap: p.max, answer: p.answer };
      p.max = 0;
      p.answer = 0;
      return out;
    });
  }

  /** Nothing ran in Loupe's origin and the page is where it was. */
  async function expectUnharmed(): Promise<void> {
    expect(await page.evaluate((k) => (window as unknown as Record<string, unknown>)[k], CANARY)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(popups).toEqual([]);
    expect(new URL(page.url()).searchParams.get('navigated')).toBeNull();
    // No element the payloads would have made: an <img src=x>, an <svg onload>, a script or iframe of theirs, a live link.
    const planted = await page.$$eval(
      'img[src="x"], svg[onload], iframe[srcdoc], a[href^="javascript:"], a[href^="data:"], [src^="javascript:"], [src^="data:text/html"]',
      (els) => els.map((e) => e.outerHTML.slice(0, 120)),
    );
    expect(planted).toEqual([]);
    // The page still answers (this evaluate is a round trip through its main thread); how long it
    // went without a tick is reported, not asserted: on a shared machine that is a scheduling figure.
    gaps.push([expect.getState().currentTestName ?? '?', await probeGap()]);
  }

  async function connect(mode: 'proxy' | 'direct', era: 'auto' | 'legacy' = 'auto'): Promise<void> {
    if ((await page.getAttribute('[data-testid="connection-status"]', 'data-state')) === 'connected') {
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    }
    await page.fill('[data-testid="url-input"]', hostile.url);
    await page.selectOption('[data-testid="mode-select"]', mode);
    await page.selectOption('[data-testid="era-select"]', era);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
  }

  async function call(name: string): Promise<string> {
    await page.click('[data-tab="tools"]');
    await page.click(`[data-testid="tools-table"] tr[data-tool="${name}"] [data-testid="select-tool"]`);
    await page.click(`[data-testid="tool-call-form"][data-tool="${name}"] [data-testid="call-tool"]`);
    return `[data-testid="tool-call-form"][data-tool="${name}"]`;
  }

  /**
   * The exchange rows of the timeline for `method`, newest last, with their text. The list is
   * virtualized and stops following once a row is selected (the detail pane shrinks it), so it is
   * scrolled to the end first, as a user would to see the newest rows.
   */
  async function rowsOf(method: string): Promise<{ id: string; error: boolean; lints: string }[]> {
    await page.$eval('[data-testid="timeline-list"]', (el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return page.$$eval(`[data-testid="timeline-row"][data-kind="exchange"][data-method="${method}"]`, (els) =>
      els.map((e) => ({
        id: e.getAttribute('data-id') ?? '',
        error: e.hasAttribute('data-error'),
        lints: e.querySelector('[data-testid="lint-badge"]')?.getAttribute('title') ?? '',
      })),
    );
  }

  it('through the proxy: lists tools, resources and prompts whose every field is a payload, as text', async () => {
    await connect('proxy');
    const tools = await page.textContent('[data-testid="tools-panel"]');
    expect(tools).toContain(SCRIPT_PAYLOADS[0]);
    expect(tools).toContain(HOSTILE_URLS.dataHtml);
    expect(await page.textContent('[data-testid="connection-bar"]')).toContain(SCRIPT_PAYLOADS[0]);

    await page.click('[data-tab="resources"]');
    const resources = '[data-testid="resources-panel"]';
    await page.waitForSelector(`${resources} [data-resource="hostile://page"]`);
    expect(await page.textContent(resources)).toContain(SCRIPT_PAYLOADS[1]);
    await page.click(`${resources} [data-resource="hostile://page"] [data-testid="read-resource"]`);
    await page.waitForSelector(`${resources} [data-testid="resource-read"][data-uri="hostile://page"] [data-testid="content-text"]`);
    expect(await page.textContent(`${resources} [data-testid="content-text"]`)).toContain('<script>');
    await page.click(`${resources} [data-resource="${HOSTILE_URLS.javascript}"] [data-testid="read-resource"]`);
    await page.waitForSelector(`${resources} [data-testid="resource-read"][data-uri="${HOSTILE_URLS.javascript}"]`);

    await page.click('[data-tab="prompts"]');
    await page.click('[data-testid="prompts-panel"] [data-prompt="hostile_prompt"] [data-testid="select-prompt"]');
    await page.click('[data-testid="prompts-panel"] [data-testid="get-prompt"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="prompts-panel"]')?.textContent?.includes('{{constructor'));
    await expect
      .poll(() => hostile.calls)
      .toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'resources/list', 'resources/read', 'prompts/list', 'prompts/get']));
    await expectUnharmed();
  });

  it('shows a result whose every block is a payload as inert text: links not clickable, images that are not images refused', async () => {
    const form = await call(TOOL.xss);
    await page.waitForSelector(`${form} [data-testid="tool-result"][data-outcome="complete"]`);
    const result = `${form} [data-testid="tool-result"]`;
    expect(await page.textContent(`${result} [data-testid="block-text"]`)).toContain(SCRIPT_PAYLOADS[0]);
    const links = await page.$$eval(`${result} [data-testid="block-resource-link"]`, (els) => els.map((e) => [e.textContent, e.querySelectorAll('a').length]));
    expect(links).toEqual([
      [expect.stringContaining(HOSTILE_URLS.javascript), 0],
      [expect.stringContaining('data:text/html'), 0],
    ]);
    expect(await page.textContent(result)).toContain('not valid base64');
    await expectUnharmed();
  });

  it('asks a form whose labels are payloads as text, and refuses to open javascript: and data: URLs', async () => {
    const form = await call(TOOL.elicitForm);
    const ask = `${form} [data-testid="input-requests"] [data-key="ask"]`;
    await page.waitForSelector(ask);
    expect(await page.textContent(ask)).toContain(SCRIPT_PAYLOADS[0]);
    await page.click(`${ask} button[data-action="decline"]`);
    await page.waitForSelector(`${form} [data-testid="tool-result"][data-outcome="complete"]`);

    for (const tool of [TOOL.elicitJs, TOOL.elicitData]) {
      const f = await call(tool);
      const url = `${f} [data-testid="url-elicitation"]`;
      await page.waitForSelector(`${url} [data-testid="url-blocked"]`);
      expect(await page.textContent(`${url} [data-testid="url-blocked"]`)).toMatch(
        /Only http and https links can be opened \(this one is (javascript|data):\)/,
      );
      expect(await page.isDisabled(`${url} [data-testid="url-consent"]`)).toBe(true);
      expect(await page.isDisabled(`${url} button[data-action="open"]`)).toBe(true);
      expect(await page.$$(`${url} a`)).toHaveLength(0);
      await page.click(`${url} button[data-action="cancel"]`);
    }
    // A right-to-left override in the path: shown escaped, so the file name cannot read backwards.
    const rtl = await call(TOOL.elicitRtl);
    const full = await page.waitForSelector(`${rtl} [data-testid="url-full"]`);
    expect(await full.textContent()).toContain('invoice%E2%80%AEgpj.exe');
    await page.click(`${rtl} [data-testid="url-elicitation"] button[data-action="cancel"]`);
    await expectUnharmed();
  });

  it('shows names with a right-to-left override or zero-width characters marked, not as sent, and lints them', async () => {
    await page.click('[data-tab="tools"]');
    const name = (tool: string) => page.textContent(`[data-testid="tools-table"] tr[data-tool="${tool}"] [data-testid="select-tool"]`);
    expect(await name(TOOL.rtlName)).toBe('report_⟨U+202E⟩fdp.exe');
    expect(await name(TOOL.hiddenName)).toBe('delete_⟨U+200B⟩files⟨U+2066⟩');
    // The description is isolated: its override cannot reverse the page's text after it.
    expect(await page.$eval(`tr[data-tool="${TOOL.rtlName}"] td:nth-child(3) bdi`, (e) => getComputedStyle(e).unicodeBidi)).toBe('isolate');
    const form = await call(TOOL.rtlName);
    expect(await page.textContent(`${form} h3`)).toBe('report_⟨U+202E⟩fdp.exe');
    await expect
      .poll(async () => (await rowsOf('tools/list')).map((r) => r.lints).join('\n'), { timeout: 10_000 })
      .toContain('tool name "report_⟨U+202E⟩fdp.exe" holds U+202E');
    await expectUnharmed();
  });

  it(`through the proxy, refuses a ${HUGE_BYTES / 1024 / 1024} MB result at its body cap and says so`, async () => {
    const form = await call(TOOL.huge);
    const problem = await page.waitForSelector(`${form} [data-testid="tool-result"][data-outcome="proxy"]`, { timeout: 60_000 });
    expect(await problem.textContent()).toContain('Proxy refused the request (too-large): The upstream body exceeds 33554432 bytes');
    await expectUnharmed();
  });

  it('shows a result nested 10,000 levels as refused past the nesting cap, and its body as a folded tree, without a stack overflow', async () => {
    const form = await call(TOOL.deep);
    const problem = await page.waitForSelector(`${form} [data-testid="tool-result"][data-outcome="invalid"]`, { timeout: 30_000 });
    expect(await problem.textContent()).toContain('JSON nested deeper than 512 levels');
    const rows = await rowsOf('tools/call');
    await page.click(`[data-testid="timeline-row"][data-id="${rows.at(-1)!.id}"]`);
    await page.click('[data-testid="exchange-frames"] button[data-frame-kind="message"] >> nth=-1');
    expect(await page.textContent('[data-testid="detail-pane"]')).toContain('not JSON: JSON nested deeper than 512 levels');
    await page.waitForSelector('[data-testid="detail-json-tree"]');
    // The tree opens two levels and folds the rest: a handful of nodes, not 10,000.
    expect((await page.$$('[data-testid="detail-json-tree"] [data-json-node]')).length).toBeLessThan(40);
    expect(await page.getAttribute('[data-testid="connection-status"]', 'data-state')).toBe('connected');
    await expectUnharmed();
  });

  it('shows bytes that are not UTF-8 as replacement characters, with a lint on the exchange', async () => {
    const form = await call(TOOL.badUtf8);
    await page.waitForSelector(`${form} [data-testid="tool-result"][data-outcome="complete"]`);
    expect(await page.textContent(`${form} [data-testid="block-text"]`)).toMatch(/^before \uFFFD+ after$/);
    await page.waitForFunction(() => {
      const rows = document.querySelectorAll('[data-testid="timeline-row"][data-kind="exchange"][data-method="tools/call"]');
      return rows[rows.length - 1]?.querySelector('[data-testid="lint-badge"]')?.getAttribute('title')?.includes('UTF-8');
    });
    await expectUnharmed();
  });

  it('refuses redirects into Loupe on the timeline, and the demo keeps its tasks and ledger', async () => {
    for (const tool of [TOOL.redirect302, TOOL.redirect307]) {
      const form = await call(tool);
      const problem = await page.waitForSelector(`${form} [data-testid="tool-result"]:not([data-outcome="complete"])`);
      expect(await problem.textContent()).toContain('redirect');
      const last = (await rowsOf('tools/call')).at(-1)!;
      expect(last.error).toBe(true);
      await page.click(`[data-testid="timeline-row"][data-id="${last.id}"]`);
      await page.click('[data-testid="exchange-frames"] button[data-frame-kind="error"]');
      expect(await page.textContent('[data-testid="detail-pane"]')).toMatch(/Proxy refused the request \(redirect\): .*answered 30[27] redirecting to/);
    }
    await expectDemoIntact();
    await expectUnharmed();
  });

  async function expectDemoIntact(): Promise<void> {
    expect(await taskIds()).toEqual(demoTasks);
    expect((await charge()).body.result.structuredContent).toMatchObject({ replayed: true, receipt });
  }

  /** The view's own document: the srcdoc frame inside the sandbox proxy frame. */
  async function viewFrame(): Promise<Frame> {
    for (let i = 0; i < 100; i++) {
      const f = page.frames().find((fr) => fr.url() === 'about:srcdoc' && fr.parentFrame()?.url().includes('/sandbox/proxy.html'));
      if (f) return f;
      await page.waitForTimeout(100);
    }
    throw new Error('no view frame');
  }

  it('keeps an app that attacks its host in its sandbox: no top navigation, no popup, no parent, no cookie, forged messages dropped', async () => {
    await call(TOOL.app);
    const view = await viewFrame();
    await view.waitForFunction(() => document.getElementById('report')?.textContent?.includes('"done":true'), undefined, { timeout: 30_000 }).catch(() => {});
    const text = (await view.textContent('#report')) ?? '';
    expect(text, 'the view finished its probes').toContain('"done":true');
    const report = JSON.parse(text) as Record<string, string>;
    expect(report).toMatchObject({
      host: expect.any(String),
      topNavigate: expect.stringMatching(/^threw /),
      popup: 'null',
      parentDocument: 'threw SecurityError',
      topDocument: 'threw SecurityError',
      opener: 'null',
      cookie: 'threw SecurityError',
      localStorage: 'threw SecurityError',
      fetchReset: 'blocked',
      openLink: '{"isError":true}',
      modelOnly: expect.stringMatching(/^error .*model_only_secret/),
    });
    // Setting a property on a cross-origin window throws, so nothing lands on Loupe's window.
    expect(report.parentCanary).toMatch(/^threw /);
    expect(report.topCanary).toMatch(/^threw /);
    // The forged messages posted straight to the top page reached no handler: the bridge log shows
    // only what came through the proxy, and the secret tool ran nowhere.
    expect(hostile.calls.filter((c) => c === 'tools/call model_only_secret')).toEqual([]);
    await expectDemoIntact();
    await expectUnharmed();
  });

  it('directly (CORS): the same payloads stay inert and a redirect is refused rather than followed', async () => {
    await connect('direct');
    const form = await call(TOOL.xss);
    await page.waitForSelector(`${form} [data-testid="tool-result"][data-outcome="complete"]`);
    const bad = await call(TOOL.badUtf8);
    await page.waitForSelector(`${bad} [data-testid="tool-result"][data-outcome="complete"]`);
    expect(await page.textContent(`${bad} [data-testid="block-text"]`)).toContain('\uFFFD');
    const redirect = await call(TOOL.redirect307);
    const problem = await page.waitForSelector(`${redirect} [data-testid="tool-result"][data-outcome="redirect"]`);
    expect(await problem.textContent()).toContain(
      "Refused a redirect: the server answered a redirect (the browser hides where to); Loupe never follows a server's redirects",
    );
    // The result shows from the call's end; the timeline row takes its error frame in the same
    // tick but may render a commit later, so wait for the row rather than read it once.
    await expect.poll(async () => (await rowsOf('tools/call')).at(-1)?.error, { timeout: 10_000 }).toBe(true);
    const last = (await rowsOf('tools/call')).at(-1)!;
    await page.click(`[data-testid="timeline-row"][data-id="${last.id}"]`);
    await page.click('[data-testid="exchange-frames"] button[data-frame-kind="error"]');
    expect(await page.textContent('[data-testid="detail-pane"]')).toContain('Refused a redirect');
    await expectDemoIntact();
    await expectUnharmed();
  });

  it('in the 2025-11-25 era: the handshake server info and the results stay inert text', async () => {
    await connect('proxy', 'legacy');
    expect(hostile.calls).toContain('initialize');
    expect(await page.textContent('[data-testid="connection-bar"]')).toContain(SCRIPT_PAYLOADS[0]);
    const form = await call(TOOL.xss);
    await page.waitForSelector(`${form} [data-testid="tool-result"][data-outcome="complete"]`);
    expect(await page.textContent(`${form} [data-testid="block-text"]`)).toContain(SCRIPT_PAYLOADS[1]);
    await expectDemoIntact();
    await expectUnharmed();
  });
  // Straight from the server (no proxy cap) the page reads the 50 MB answer by stream and cuts it
  // at its own 16 MiB budget: about 4 s on a quiet 2-core machine (15 s under heavy load).
  // It runs last, after the direct and 2025-11-25 cases, as it connects directly again.
  it(`directly, cuts a ${HUGE_BYTES / 1024 / 1024} MB result at the page's 16 MiB budget and says so, on the result and the timeline`, async () => {
    await connect('direct');
    const prof = await startProfile(page);
    const started = Date.now();
    const form = await call(TOOL.huge);
    const problem = await page.waitForSelector(`${form} [data-testid="tool-result"]:not([data-outcome="complete"])`, { timeout: 60_000 });
    console.log(`a ${HUGE_BYTES / 1024 / 1024} MB result read directly, cut and shown in ${Date.now() - started} ms`);
    await stopProfile(prof, 'direct 50 MB');
    expect(await problem.textContent()).toMatch(
      /JSON answer cut after 1\d\.\d MiB: over the budget of 16\.0 MiB per answer \(the page's limit; Loupe closed the connection\)/,
    );
    // The result shows from the call's end; the timeline row takes its error frame in the same
    // tick but may render a commit later, so wait for the row rather than read it once (rowsOf
    // scrolls the list to its newest row: an earlier test's selection stopped following).
    await expect.poll(async () => (await rowsOf('tools/call')).at(-1)?.error, { timeout: 10_000 }).toBe(true);
    const last = (await rowsOf('tools/call')).at(-1)!;
    await page.click(`[data-testid="timeline-row"][data-id="${last.id}"]`);
    await page.click('[data-testid="exchange-frames"] button[data-frame-kind="error"]');
    expect(await page.textContent('[data-testid="detail-pane"]')).toContain('JSON answer cut after');
    expect(await page.getAttribute('[data-testid="connection-status"]', 'data-state')).toBe('connected');
    await expectUnharmed();
  });
});
