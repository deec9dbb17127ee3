import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlApi } from '../integration/http-target';
import { ROOT, freePort, startCliMock, type Started } from '../helpers/processes';
import { openTimelineFilters, showFrames, startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * MCP Apps in the real inspector page on the app server (`npm start`), in headless Chromium: the demo's
 * notes timeline (handshake, tool result, an app-only tool call through the bridge), a hostile
 * view served by a scenario file (a model-only tool, an undeclared origin, window.top, injected
 * CSP entries), the text fallback without the ui extension, and a third-party MCP App server
 * from npm (@modelcontextprotocol/server-basic-vanillajs).
 */

/** A local HTTP server that answers anyone (CORS *) and counts what it was asked. */
async function countingServer(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const srv = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
    res.end('reachable');
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as import('node:net').AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/data`, hits, close: () => new Promise((r) => srv.close(() => r())) };
}

/** The hostile view: a hand-written bridge client that probes what its host lets it do. */
function probeHtml(undeclaredUrl: string, declaredUrl: string): string {
  return `<!doctype html><html><body><pre id="report">starting</pre><script>
const report = {};
const show = () => { document.getElementById('report').textContent = JSON.stringify(report); };
let next = 0; const pending = new Map();
const send = (m) => parent.postMessage(Object.assign({ jsonrpc: '2.0' }, m), '*');
const request = (method, params) => new Promise((resolve) => { const id = ++next; pending.set(id, resolve); send({ id, method, params }); });
document.addEventListener('securitypolicyviolation', (e) => { (report.violations = report.violations || []).push(e.violatedDirective + ' ' + e.blockedURI); show(); });
addEventListener('message', (e) => {
  const m = e.data;
  if (e.source !== parent || !m || m.jsonrpc !== '2.0') return;
  if (m.id !== undefined && !m.method && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); return; }
  if (m.method === 'ui/notifications/tool-input') run();
});
async function run() {
  try { report.top = String(window.top.document.title); } catch (e) { report.top = e.name; }
  try { report.parent = String(window.parent.document.title); } catch (e) { report.parent = e.name; }
  try { report.cookie = document.cookie; } catch (e) { report.cookie = e.name; }
  for (const [k, url] of [['undeclared', ${JSON.stringify(undeclaredUrl)}], ['declared', ${JSON.stringify(declaredUrl)}]]) {
    try { const r = await fetch(url); report[k] = 'ok ' + (await r.text()); } catch (e) { report[k] = 'blocked'; }
  }
  const refused = await request('tools/call', { name: 'model_only_echo', arguments: {} });
  report.modelOnly = refused.error ? refused.error.message : 'ran';
  const allowed = await request('tools/call', { name: 'app_echo', arguments: { text: 'from the app' } });
  report.appEcho = allowed.result ? allowed.result.content[0].text : 'error ' + JSON.stringify(allowed.error);
  report.done = true; show();
}
request('ui/initialize', { appInfo: { name: 'probe', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' }).then((r) => {
  report.host = r.result ? r.result.hostInfo.name : 'no answer'; show(); send({ method: 'ui/notifications/initialized' });
});
</script></body></html>`;
}

const HOSTILE_ENTRIES = ["http://127.0.0.1:9; script-src 'unsafe-eval' *", '"http://quoted.example"', 'http://a.example http://b.example'];

function probeScenario(declaredOrigin: string): string {
  return `id: apps-probe
server: { name: apps-probe, version: 1.0.0 }
tools:
  - name: probe_host
    description: Renders the probe view
    ui: { resourceUri: "ui://probe/host.html" }
    result: { content: [{ type: text, text: probe started }], structuredContent: { started: true } }
  - name: model_only_echo
    ui: { resourceUri: "ui://probe/host.html", visibility: [model] }
    result: { content: [{ type: text, text: must never run for the app }] }
  - name: app_echo
    inputSchema: { type: object, properties: { text: { type: string } } }
    ui: { resourceUri: "ui://probe/host.html", visibility: [app] }
    result: { content: [{ type: text, text: "echo: {{args.text}}" }] }
resources:
  - uri: "ui://probe/host.html"
    name: probe
    file: probe.html
    ui:
      csp:
        connectDomains: ${JSON.stringify([declaredOrigin, ...HOSTILE_ENTRIES])}
`;
}

describe('MCP Apps in the inspector', () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;

  beforeAll(async () => {
    ({ server, browser, dataDir, base } = await startAppAndBrowser('loupe-e2e-apps-'));
  });
  afterAll(() => stopAppAndBrowser({ server, browser, dataDir }));

  /** The inspector, authenticated and connected (to the demo unless told otherwise). */
  async function openInspector(connect?: { url: string; mode: 'direct' | 'proxy'; noApps?: boolean }): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/?token=${server.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
    if (connect) {
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
      await page.fill('[data-testid="url-input"]', connect.url);
      await page.selectOption('[data-testid="mode-select"]', connect.mode);
      if (connect.noApps) await page.uncheck('[data-testid="declare-apps"]');
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
    }
    return { page, context };
  }

  async function callTool(page: Page, name: string): Promise<void> {
    await page.click(`[data-testid="tools-table"] tr[data-tool="${name}"] [data-testid="select-tool"]`);
    await page.click(`[data-testid="tool-call-form"][data-tool="${name}"] [data-testid="call-tool"]`);
  }

  /** The view's own document: the srcdoc frame inside the sandbox proxy frame. */
  async function viewFrame(page: Page): Promise<Frame> {
    const sandbox = `http://localhost:${server.port}/sandbox/proxy.html`;
    for (let i = 0; i < 100; i++) {
      const f = page.frames().find((fr) => fr.url() === 'about:srcdoc' && fr.parentFrame()?.url().startsWith(sandbox));
      if (f) return f;
      await page.waitForTimeout(100);
    }
    throw new Error(
      `no view frame inside ${sandbox}; frames: ${page
        .frames()
        .map((f) => f.url())
        .join(', ')}`,
    );
  }

  const logMethods = (page: Page) =>
    page.$$eval('[data-testid="bridge-log"] li[data-method]', (els) =>
      els.map((e) => `${(e as HTMLElement).dataset.direction} ${(e as HTMLElement).dataset.method} ${(e as HTMLElement).dataset.kind}`),
    );

  it('renders notes_timeline from the demo mock: double iframe, handshake, tool result, and an app-only call through the bridge', async () => {
    const { page, context } = await openInspector();
    await callTool(page, 'notes_timeline');
    await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    // The outer frame is the proxy on the other loopback name (same port), the view is inside it.
    const outer = await page.$eval('[data-testid="app-frame"]', (el) => ({ src: (el as HTMLIFrameElement).src, sandbox: el.getAttribute('sandbox') }));
    expect(new URL(outer.src).origin).toBe(`http://localhost:${server.port}`);
    expect(outer.sandbox).toBe('allow-scripts allow-same-origin');
    const view = await viewFrame(page);
    const innerSandbox = await view.parentFrame()!.$eval('iframe', (el) => el.getAttribute('sandbox'));
    expect(innerSandbox).toBe('allow-scripts');
    await view.waitForFunction(() => document.getElementById('status')?.textContent === '5 notes', undefined, { timeout: 15_000, polling: 200 });
    expect(await view.$$eval('[data-note]', (els) => els.map((e) => (e as HTMLElement).dataset.note))).toEqual([
      'note-1',
      'note-2',
      'note-3',
      'note-4',
      'note-5',
    ]);
    const methods = await logMethods(page);
    const order = [
      'in ui/notifications/sandbox-proxy-ready notification',
      'out ui/notifications/sandbox-resource-ready notification',
      'in ui/initialize request',
      'out ui/initialize result',
      'in ui/notifications/initialized notification',
      'out ui/notifications/tool-input notification',
      'out ui/notifications/tool-result notification',
    ];
    expect(methods.filter((m) => order.includes(m))).toEqual(order);

    // The button in the view calls the app-only notes_detail through the bridge and shows the answer.
    await view.click('[data-note="note-3"]');
    await view.waitForSelector('[data-testid="detail-body"]', { timeout: 15_000 });
    expect(await view.textContent('[data-testid="detail-body"]')).toBe('Which capabilities apply to input requests of a long-running task?');
    const calls = await page.$$eval('[data-testid="bridge-log"] li[data-method="tools/call"]', (els) =>
      els.map((e) => `${(e as HTMLElement).dataset.direction} ${(e as HTMLElement).dataset.kind} ${(e as HTMLElement).dataset.flagged}`),
    );
    expect(calls).toEqual(['in request false', 'out result false']);
    // Bridge messages sit on the timeline as app-lane (bridge) rows.
    await showFrames(page);
    await page.waitForSelector('[data-testid="timeline-row"][data-kind="bridge"]');
    await page.selectOption('[data-testid="timeline-view"]', 'exchanges');

    // Closing asks the view first (ui/resource-teardown) and removes the frame once it answers.
    await page.click('[data-testid="app-close"]');
    await page.waitForSelector('[data-testid="app-view"][data-state="closed"]');
    expect(await page.$('[data-testid="app-frame"]')).toBeNull();
    expect((await logMethods(page)).slice(-2)).toEqual(['out ui/resource-teardown request', 'in ui/resource-teardown result']);

    // Calling again renders a fresh view from the cached resource (same URI, server and version).
    await page.click('[data-testid="tool-call-form"][data-tool="notes_timeline"] [data-testid="call-tool"]');
    await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="app-cache"]')).toBe('from cache');
    await context.close();
  });

  it('asks before opening a link, and follows display mode requests', async () => {
    const { page, context } = await openInspector();
    await page.click('[data-testid="tools-table"] tr[data-tool="notes_timeline"] [data-testid="select-tool"]');
    await page.fill('#arg-notes_timeline-query', 'planning');
    await page.click('[data-testid="tool-call-form"][data-tool="notes_timeline"] [data-testid="call-tool"]');
    await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
    const view = await viewFrame(page);
    await view.waitForFunction(() => document.getElementById('status')?.textContent === '1 note', undefined, { timeout: 15_000, polling: 200 });
    // The arguments stream in (a partial preview) before the complete input.
    const inputs = await page.$$eval('[data-testid="bridge-log"] li[data-method^="ui/notifications/tool-input"]', (els) =>
      els.map((e) => (e as HTMLElement).dataset.method),
    );
    expect(inputs).toEqual(['ui/notifications/tool-input-partial', 'ui/notifications/tool-input']);
    // A new page starts with an empty cache: the resource was read.
    expect(await page.textContent('[data-testid="app-cache"]')).toBe('read');
    await view.click('[data-testid="open-spec"]');
    await page.waitForSelector('[data-testid="open-link-consent"]');
    expect(await page.textContent('[data-testid="open-link-url"]')).toBe('https://modelcontextprotocol.io/extensions/apps/overview');
    await page.click('[data-testid="open-link-deny"]');
    await page.waitForSelector('[data-testid="open-link-consent"]', { state: 'detached' });
    expect(context.pages()).toHaveLength(1);
    await view.click('[data-testid="fullscreen"]');
    await view.waitForFunction(() => document.querySelector('[data-testid="fullscreen"]')?.textContent === 'Exit fullscreen', undefined, { polling: 200 });
    expect(await logMethods(page)).toEqual(
      expect.arrayContaining([
        'in ui/open-link request',
        'out ui/open-link result',
        'in ui/request-display-mode request',
        'out ui/notifications/host-context-changed notification',
      ]),
    );
    await context.close();
  });

  describe('a hostile view from a scenario file', () => {
    let mock: Started;
    let undeclared: Awaited<ReturnType<typeof countingServer>>;
    let declared: Awaited<ReturnType<typeof countingServer>>;
    let scenarioDir: string;

    beforeAll(async () => {
      undeclared = await countingServer();
      declared = await countingServer();
      scenarioDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-apps-probe-'));
      fs.writeFileSync(path.join(scenarioDir, 'probe.html'), probeHtml(undeclared.url, declared.url));
      fs.writeFileSync(path.join(scenarioDir, 'apps-probe.yaml'), probeScenario(new URL(declared.url).origin));
      mock = await startCliMock([path.join(scenarioDir, 'apps-probe.yaml'), '--data-dir', scenarioDir]);
    });
    afterAll(async () => {
      await mock?.stop();
      await undeclared?.close();
      await declared?.close();
      fs.rmSync(scenarioDir, { recursive: true, force: true });
    });

    it('refuses a model-only tool, blocks an undeclared origin, keeps window.top out of reach and neutralises injected CSP entries', async () => {
      const { page, context } = await openInspector({ url: mock.url, mode: 'proxy' });
      let cspHeader: string | undefined;
      page.on('response', (r) => {
        if (r.url().startsWith(`http://localhost:${server.port}/sandbox/proxy.html`)) cspHeader = r.headers()['content-security-policy'];
      });
      await callTool(page, 'probe_host');
      const view = await viewFrame(page);
      await view.waitForFunction(() => (document.getElementById('report')?.textContent ?? '').includes('"done":true'), undefined, {
        timeout: 30_000,
        polling: 200,
      });
      const report = JSON.parse((await view.textContent('#report'))!);

      expect(report.host).toBe('mcp-loupe');
      // Visibility: the model-only tool is refused by the host and never reaches the server.
      expect(report.modelOnly).toBe('Refused: tool "model_only_echo" has visibility ["model"], which does not include "app"');
      expect(report.appEcho).toBe('echo: from the app');
      const journal = (await controlApi(mock.url, mock.token!, '/api/scenarios/apps-probe/journal', 'GET')).json.entries as {
        method?: string;
        requestBody?: { params?: { name?: string } };
      }[];
      const called = journal.filter((e) => e.method === 'tools/call').map((e) => e.requestBody?.params?.name);
      expect(called).toEqual(['probe_host', 'app_echo']);
      const flagged = await page.$$eval('[data-testid="bridge-log"] li[data-method="tools/call"][data-flagged="true"]', (els) => els.map((e) => e.textContent));
      expect(flagged).toHaveLength(1);
      expect(flagged[0]).toContain('Refused');
      await showFrames(page);
      await openTimelineFilters(page);
      await page.check('[data-testid="filter-errors"]');
      await page.waitForSelector('[data-testid="timeline-row"][data-kind="bridge"][data-method="tools/call"][data-error="true"]');

      // CSP: the undeclared origin is blocked (and never asked), the declared one is reachable.
      expect(report.undeclared).toBe('blocked');
      expect(report.violations).toEqual([`connect-src ${undeclared.url}`]);
      expect(undeclared.hits).toEqual([]);
      expect(report.declared).toBe('ok reachable');
      expect(declared.hits).toEqual(['/data']);

      // The view cannot reach the inspector or the proxy, nor read cookies.
      expect(report.top).toBe('SecurityError');
      expect(report.parent).toBe('SecurityError');
      expect(report.cookie).toBe('SecurityError');
      expect(
        await view.evaluate(() => {
          try {
            return String(window.top!.document.title);
          } catch (e) {
            return (e as Error).name;
          }
        }),
      ).toBe('SecurityError');

      // Injected entries are dropped: the header has its fixed directives and only the declared origin.
      expect(cspHeader).toBeDefined();
      expect(cspHeader!.split(';')).toHaveLength(12);
      expect(cspHeader).toContain(`connect-src ${new URL(declared.url).origin};`);
      for (const bad of ['unsafe-eval', '127.0.0.1:9', 'quoted', 'a.example', '*']) expect(cspHeader).not.toContain(bad);
      expect(await page.textContent('[data-testid="app-csp-rejected"]')).toContain('unsafe-eval');
      await context.close();
    });
  });

  it('without the ui extension declared, the same tool answers with its text fallback and no iframe appears', async () => {
    const { page, context } = await openInspector({ url: '/mcp', mode: 'direct', noApps: true });
    await callTool(page, 'notes_timeline');
    await page.waitForSelector('[data-testid="tool-call-form"][data-tool="notes_timeline"] [data-testid="tool-result"]');
    const text = await page.textContent('[data-testid="tool-call-form"][data-tool="notes_timeline"] [data-testid="tool-result"]');
    expect(text).toContain('Timeline of 5 notes, 2026-07-01 to 2026-07-20:');
    expect(text).toContain('2026-07-08  note-3  Tasks extension questions');
    expect(await page.$('[data-testid="app-view"]')).toBeNull();
    expect(await page.$('iframe')).toBeNull();
    expect(await page.$('[data-testid="tools-table"] tr[data-tool="notes_detail"]')).toBeNull();
    await context.close();
  });

  describe('a third-party MCP App server from npm', () => {
    let thirdParty: { url: string; stop: () => Promise<void> };

    beforeAll(async () => {
      const port = await freePort();
      const entry = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
      const child = spawn(process.execPath, [entry], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the example server did not start:\n${out}`)), 20_000);
        child.stdout!.on('data', () => {
          if (!out.includes('listening')) return;
          clearTimeout(timer);
          resolve();
        });
        child.once('exit', (code) => reject(new Error(`the example server exited with ${code}:\n${out}`)));
      });
      thirdParty = {
        url: `http://127.0.0.1:${port}/mcp`,
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    });
    afterAll(async () => {
      await thirdParty?.stop();
    });

    it('renders its get-time view through the inspector, and its tool result reaches the view', async () => {
      const { page, context } = await openInspector({ url: thirdParty.url, mode: 'proxy' });
      await callTool(page, 'get-time');
      await page.waitForSelector('[data-testid="app-view"][data-state="initialized"]', { timeout: 30_000 });
      const result = await page.textContent('[data-testid="tool-call-form"][data-tool="get-time"] [data-testid="tool-result"] p');
      expect(result).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
      const view = await viewFrame(page);
      await view.waitForFunction((t) => document.getElementById('server-time')?.textContent === t, result, { timeout: 15_000, polling: 200 });
      expect(await page.getAttribute('[data-testid="app-view"]', 'data-state')).toBe('initialized');
      await context.close();
    });
  });
});
