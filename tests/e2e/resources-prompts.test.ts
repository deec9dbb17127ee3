import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import CHANGING_LISTS from '../fixtures/scenarios/changing-lists.json';
import { controlApi } from '../integration/http-target';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * Issue 15, items 1 and 6, in headless Chromium against the app server: the Resources and
 * Prompts panels on the conformance mock (a text resource read, a PNG blob shown as an image,
 * a templated read, a prompt's arguments completed and its messages shown), image and audio
 * tool results rendered as media, and a tool whose structuredContent breaks its outputSchema
 * flagged with a lint that names the path.
 */

const MISMATCH = {
  id: 'schema-mismatch',
  name: 'structuredContent that breaks its outputSchema',
  server: { name: 'mismatch', version: '0.0.1' },
  tools: [
    {
      name: 'forecast',
      description: 'Returns a forecast whose reading is a string where the schema says number',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: {
        type: 'object',
        properties: { readings: { type: 'array', items: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] } } },
        required: ['readings'],
      },
      result: { content: [{ type: 'text', text: 'forecast' }], structuredContent: { readings: [{ value: 3 }, { value: 'warm' }] } },
    },
  ],
};

describe('resources, prompts and rich results in the inspector', () => {
  let env: AppAndBrowser;
  let context: BrowserContext;
  let page: Page;

  async function connectTo(path: string) {
    await page.click('[data-testid="connect-button"]'); // disconnect from the current server
    await page.waitForSelector('[data-testid="connection-status"]:not([data-state="connected"])');
    await page.fill('[data-testid="url-input"]', path);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]');
  }

  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-resources-');
    context = await env.browser.newContext({ viewport: { width: 1600, height: 1200 } });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
    await connectTo('/mcp/conformance');
  });
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser(env ?? {});
  });

  it('lists the resources with their caching hints and reads a text, a PNG blob and a templated JSON resource', async () => {
    await openPanel(page, 'resources');
    const panel = '[data-testid="resources-panel"]';
    await page.waitForSelector(`${panel} [data-resource="test://static-binary"]`);
    expect(await page.$$eval(`${panel} [data-resource]`, (rows) => rows.map((r) => r.getAttribute('data-resource')))).toEqual([
      'test://static-text',
      'test://static-binary',
    ]);
    expect(await page.textContent(`${panel} [data-testid="cache-hints"] [data-testid="cache-scope"]`)).toMatch(/^(public|private)$/);
    expect(await page.textContent(`${panel} [data-testid="cache-hints"] [data-testid="ttl-ms"]`)).toMatch(/^\d+$/);

    await page.click(`${panel} [data-resource="test://static-text"] [data-testid="read-resource"]`);
    await page.waitForSelector(`${panel} [data-testid="resource-read"][data-uri="test://static-text"]`);
    expect(await page.textContent(`${panel} [data-testid="resource-read"] [data-testid="content-text"]`)).toBe(
      'This is the content of the static text resource.',
    );

    await page.click(`${panel} [data-resource="test://static-binary"] [data-testid="read-resource"]`);
    const img = await page.waitForSelector(`${panel} [data-testid="resource-read"][data-uri="test://static-binary"] img[data-testid="content-image"]`);
    await page.waitForFunction((el) => (el as HTMLImageElement).complete, img);
    expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1);

    const form = `${panel} [data-testid="template-form"][data-template="test://template/{id}/data"]`;
    await page.fill(`${form} input[name="id"]`, 'abc 7');
    expect(await page.textContent(`${form} [data-testid="expanded-uri"]`)).toBe('test://template/abc%207/data');
    await page.click(`${form} [data-testid="read-template"]`);
    const json = await page.waitForSelector(`${panel} [data-testid="resource-read"][data-uri="test://template/abc%207/data"] [data-testid="content-json"]`);
    expect(await json.textContent()).toContain('"data": "Data for ID: abc 7"');

    // The reads went through the session, so they are on the timeline.
    await page.waitForSelector('[data-testid="timeline-row"][data-method="resources/read"]');
  });

  it('completes a prompt argument, gets the prompt and shows its messages', async () => {
    await openPanel(page, 'prompts');
    const panel = '[data-testid="prompts-panel"]';
    await page.waitForSelector(`${panel} [data-prompt="test_prompt_with_arguments"]`);
    await page.click(`${panel} [data-prompt="test_prompt_with_arguments"] [data-testid="select-prompt"]`);
    const form = `${panel} [data-testid="prompt-form"][data-prompt="test_prompt_with_arguments"]`;
    expect(await page.textContent(`${form} [data-testid="get-prompt"]`)).toBe('Fill in arg1, arg2');
    await page.fill(`${form} input[name="arg1"]`, 'test');
    // The suggestions are the input's datalist (the browser's own dropdown), present but not laid out.
    await page.waitForSelector(`${form} [data-arg="arg1"] [data-testid="completions"][data-count="2"]`, { state: 'attached' });
    expect(await page.$$eval(`${form} [data-arg="arg1"] option`, (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['testValue1', 'test-value']);
    await page.fill(`${form} input[name="arg1"]`, 'testValue1');
    await page.fill(`${form} input[name="arg2"]`, 'second');
    await page.click(`${form} [data-testid="get-prompt"]`);
    const message = await page.waitForSelector(`${form} [data-testid="prompt-message"][data-role="user"]`);
    expect(await message.textContent()).toContain("Prompt with arguments: arg1='testValue1', arg2='second'");
    await page.waitForSelector('[data-testid="timeline-row"][data-method="completion/complete"]');
    // Refresh lists the prompts again: one more prompts/list on the timeline, the list still there.
    const lists = () => page.$$eval('[data-testid="timeline-row"][data-method="prompts/list"]', (els) => els.length);
    const before = await lists();
    await page.click(`${panel} [data-testid="prompts-refresh"]`);
    await expect.poll(lists).toBe(before + 1);
    await page.waitForSelector(`${panel} [data-prompt="test_prompt_with_arguments"]`);
  });

  it('renders test_image_content as an image and test_audio_content as an audio player', async () => {
    await openPanel(page, 'tools');
    for (const [tool, selector] of [
      ['test_image_content', 'img[data-testid="content-image"]'],
      ['test_audio_content', 'audio[data-testid="content-audio"]'],
    ] as const) {
      await page.click(`[data-tool="${tool}"] [data-testid="select-tool"]`);
      await page.click('[data-testid="call-tool"]');
      const media = await page.waitForSelector(`[data-testid="tool-call-form"][data-tool="${tool}"] [data-testid="tool-result"] ${selector}`);
      expect(await media.getAttribute('src')).toMatch(tool === 'test_image_content' ? /^data:image\/png;base64,iVBOR/ : /^data:audio\/wav;base64,UklGR/);
    }
    expect(await page.$$eval('[data-testid="tool-result"]', (els) => els.map((e) => e.textContent).join(' '))).not.toContain('base64 chars');
    const controls = await page.$eval('audio[data-testid="content-audio"]', (a) => (a as HTMLAudioElement).controls);
    expect(controls).toBe(true);
  });

  it('flags structuredContent that breaks the tool outputSchema with a lint naming the path', async () => {
    const saved = await controlApi(env.base, env.server.token!, `/api/scenarios/${MISMATCH.id}/source`, 'PUT', MISMATCH);
    expect(saved.status).toBe(200);
    await connectTo(`/mcp/${MISMATCH.id}`);
    await openPanel(page, 'tools');
    await page.click('[data-tool="forecast"] [data-testid="select-tool"]');
    await page.click('[data-testid="call-tool"]');
    await page.waitForSelector('[data-testid="tool-call-form"][data-tool="forecast"] [data-testid="tool-result"]');
    await page.selectOption('[data-testid="filter-method"]', 'tools/call');
    const badge = await page.waitForSelector('[data-testid="timeline-row"][data-method="tools/call"][data-kind="exchange"] [data-testid="lint-badge"]', {
      timeout: 10_000,
    });
    await badge.click();
    const lint = await page.waitForSelector('[data-testid="detail-lints"] [data-lint-id="tool-output-schema-mismatch"]');
    const text = await lint.textContent();
    expect(text).toContain('response.body.result.structuredContent.readings[1].value');
    expect(text).toContain('must be number');
  });

  it('lists the tools, prompts and resources again when the server announces they changed (on the listen it opened)', async () => {
    const CHANGING = CHANGING_LISTS; // its tool announces that every list changed
    expect((await controlApi(env.base, env.server.token!, `/api/scenarios/${CHANGING.id}/source`, 'PUT', CHANGING)).status).toBe(200);
    await connectTo(`/mcp/${CHANGING.id}`);
    await page.selectOption('[data-testid="filter-method"]', ''); // every method (a test before filtered the timeline)
    const exchanges = (method: string) => page.$$eval(`[data-testid="timeline-row"][data-kind="exchange"][data-method="${method}"]`, (els) => els.length);
    // Listed once each when their tabs open (they stay mounted behind the other tabs).
    await openPanel(page, 'prompts');
    await page.waitForSelector('[data-testid="prompts-panel"] [data-prompt="greet"]');
    await openPanel(page, 'resources');
    await page.waitForSelector('[data-testid="resources-panel"] [data-resource="file:///readme.md"]');
    // The listen the inspector opened for them is live (its acknowledgement came) before anything changes.
    await openPanel(page, 'streams');
    await page.waitForSelector('[data-testid="listen-card"][data-state="live"]:has-text("prompts list")');
    const [tools, prompts, resources, templates] = [
      await exchanges('tools/list'),
      await exchanges('prompts/list'),
      await exchanges('resources/list'),
      await exchanges('resources/templates/list'),
    ];
    await openPanel(page, 'tools');
    await page.click('[data-tool="rebuild"] [data-testid="select-tool"]');
    await page.click('[data-testid="call-tool"]');
    await page.waitForSelector('[data-testid="tool-call-form"][data-tool="rebuild"] [data-testid="tool-result"]');
    await expect.poll(() => exchanges('tools/list')).toBe(tools + 1);
    await expect.poll(() => exchanges('prompts/list')).toBe(prompts + 1);
    await expect.poll(() => exchanges('resources/list')).toBe(resources + 1);
    await expect.poll(() => exchanges('resources/templates/list')).toBe(templates + 1);
  });

  it('shows the demo’s markdown resource as text and opens its ui:// resource in the app view', async () => {
    const demo = await env.browser.newContext({ viewport: { width: 1600, height: 1200 } });
    try {
      const p = await demo.newPage();
      await p.goto(`${env.base}/?token=${env.server.token}`);
      await p.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
      await openPanel(p, 'resources');
      const panel = '[data-testid="resources-panel"]';
      await p.waitForSelector(`${panel} [data-resource="notes://index"]`);
      await p.click(`${panel} [data-resource="notes://index"] [data-testid="read-resource"]`);
      const md = await p.waitForSelector(`${panel} [data-testid="resource-read"][data-uri="notes://index"] [data-testid="content-markdown"]`);
      expect((await md.textContent())?.length).toBeGreaterThan(20);

      await p.click(`${panel} [data-resource="ui://notes/timeline.html"] [data-testid="read-resource"]`);
      await p.click(`${panel} [data-testid="resource-read"][data-uri="ui://notes/timeline.html"] [data-testid="open-app"]`);
      await p.waitForSelector(`${panel} [data-testid="resource-app-view"] [data-testid="app-view"][data-state="initialized"]`, { timeout: 30_000 });
    } finally {
      await demo.close();
    }
  });
});

/** Open a tab of the panel (Resources and Prompts list only once opened). */
async function openPanel(p: Page, id: string) {
  await p.click(`[data-tab="${id}"]`);
}
