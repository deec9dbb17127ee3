import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppAndBrowser, startAppAndBrowser, stopAppAndBrowser } from './browser';

/**
 * The control room's YAML editor knows the scenario format: typing a key offers the keys valid
 * at that place with their descriptions (from the published JSON Schema), a field with fixed
 * values offers them, and hovering a key explains it.
 */

describe('scenario editor: completion and hover docs from the scenario schema', () => {
  let env: AppAndBrowser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-editor-schema-');
    context = await env.browser.newContext({ viewport: { width: 1440, height: 1000 } });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server.token}`);
    await page.goto(`${env.base}/scenarios`);
    await page.fill('[data-testid="new-scenario-id"]', 'schema-help');
    await page.click('[data-testid="new-scenario"]');
    await page.waitForURL(/\/scenarios\/schema-help$/);
    await page.waitForSelector('[data-testid="editor-valid"]');
  });
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser(env ?? {});
  });

  const labels = () => page.$$eval('.cm-tooltip-autocomplete li .cm-completionLabel', (els) => els.map((e) => e.textContent));

  it('offers the keys of a tool in a new list item, with the description of the one selected, and inserts it', async () => {
    await page.click('[data-testid="scenario-editor-content"]');
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('  - ');
    await page.keyboard.type('na');
    await page.waitForSelector('.cm-tooltip-autocomplete');
    expect(await labels()).toContain('name');
    // The top-level keys are not offered inside a tool.
    expect(await labels()).not.toContain('faults');
    await page.waitForFunction(() => document.querySelector('.cm-completionInfo')?.textContent?.includes('Tool name, unique in the scenario'));
    // CodeMirror ignores Enter for 75 ms after the list opens or changes (its interactionDelay, so a
    // fast typist does not accept by accident); on a loaded machine the list for "na" can land just
    // before the key, and Enter then inserts a newline. Wait out that delay, as a person would.
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    await page.keyboard.type('second');
    expect(await page.textContent('[data-testid="scenario-editor-content"]')).toContain('- name: second');
  });

  it('offers the values of a field that takes fixed ones', async () => {
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\nsettings:\n  discoverCacheScope: ');
    await page.keyboard.type('p');
    await page.waitForSelector('.cm-tooltip-autocomplete');
    expect((await labels()).sort()).toEqual(['private', 'public']);
    await page.keyboard.press('Escape');
  });

  it('explains a key on hover', async () => {
    const line = page.locator('.cm-line', { hasText: 'description: A new scenario' });
    await line.hover({ position: { x: 12, y: 6 } });
    const tip = await page.waitForSelector('[data-testid="schema-hover"]');
    expect(await tip.textContent()).toBe('description: What the scenario shows or tests, for the scenario list.');
  });
});
