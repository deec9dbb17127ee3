import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * OAuth in the inspector, in headless Chromium against the app's own mock: the built-in `oauth`
 * scenario answers 401, the connection bar offers Authorize, and the guided mode stops before
 * every step of the flow (the card names the step and its spec rule, the request with its
 * secrets masked); the authorization request opens in a popup that comes back through
 * /oauth/callback; then a tool call succeeds. The step-up tool then gets 403
 * insufficient_scope, the flow runs again asking for the union of scopes, and the call succeeds.
 * The steps are on the timeline's Auth lane with their checks; the guided card passes axe.
 */

describe('OAuth in the inspector, guided', () => {
  let env: Partial<AppAndBrowser> = {};
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-oauth-');
    context = await env.browser!.newContext({ viewport: { width: 1600, height: 1400 } });
    page = await context.newPage();
    // A launch link straight to the oauth scenario of the app's own mock.
    await page.goto(`${env.base}/?token=${env.server!.token}&transport=auto&url=${encodeURIComponent('/mcp/oauth')}`);
  }, 90_000);
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser(env);
  });

  /** Wait for the guided card of `step`; check that it names the step and a rule; return its scope parameter, if any. */
  async function expectStep(step: string, rule: RegExp): Promise<string | null> {
    const card = `[data-testid="guided-card"][data-step="${step}"]`;
    await page.waitForSelector(card, { timeout: 30_000 });
    expect(await page.textContent(`${card} h2`)).toContain(`(${step})`);
    expect(await page.textContent(`${card} [data-testid="guided-rule"]`)).toMatch(rule);
    const scope = await page.$(`${card} [data-param="scope"] td:last-child`);
    return scope ? scope.textContent() : null;
  }

  const next = () => page.click('[data-testid="guided-continue"]');

  /** Continue past the authorization step: the popup goes to the authorization server and back through /oauth/callback. */
  async function authorizeInPopup() {
    const card = '[data-testid="guided-card"][data-step="authorization"]';
    // state is a secret until revealed; the PKCE method is not.
    expect(await page.textContent(`${card} [data-param="state"] td:last-child`)).toBe('••••••••');
    expect(await page.textContent(`${card} [data-param="code_challenge_method"] td:last-child`)).toBe('S256');
    const popup = page.waitForEvent('popup');
    await next();
    const win = await popup;
    await win.waitForEvent('close', { timeout: 30_000 });
  }

  async function callTool(name: string, fill?: [string, string]) {
    await page.click('[data-tab="tools"]');
    await page.click(`[data-tool="${name}"] [data-testid="select-tool"]`);
    const form = `[data-testid="tool-call-form"][data-tool="${name}"]`;
    if (fill) await page.fill(`${form} input[name="${fill[0]}"]`, fill[1]);
    await page.click(`${form} [data-testid="call-tool"]`);
    return form;
  }

  it('authorizes step by step, calls a tool, then steps up to the union of scopes', async () => {
    await page.waitForSelector('[data-testid="connection-status"][data-state="error"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="connection-error"]')).toContain('requires authorization (HTTP 401)');

    await page.check('[data-testid="auth-guided"]');
    // Cancel stops the flow before the step goes out, and the summary says where and what to do.
    await page.click('[data-testid="authorize-button"]');
    await expectStep('resource-metadata', /RFC 9728|Protected Resource/);
    await page.click('[data-testid="guided-cancel"]');
    await page.waitForSelector('[data-testid="auth-outcome"][data-ok="false"][data-step="resource-metadata"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="auth-fix"]')).toContain('You cancelled');

    await page.click('[data-testid="authorize-button"]');
    await expectStep('resource-metadata', /RFC 9728|Protected Resource/);
    expect(await page.textContent('[data-testid="guided-url"]')).toContain('/.well-known/oauth-protected-resource/mcp/oauth');
    await next();
    await expectStep('authorization-server-metadata', /RFC 8414|Authorization Server Metadata/i);
    await next();
    await expectStep('registration', /regist/i);
    expect(await page.textContent('[data-testid="guided-body"]')).toContain('/oauth/callback');
    await next();
    const firstScope = await expectStep('authorization', /PKCE S256/);
    expect(firstScope?.split(' ')).toContain('notes:read');
    expect(firstScope?.split(' ')).not.toContain('notes:write');
    await authorizeInPopup();
    await expectStep('token', /code_verifier/);
    // The code and the verifier are masked in the body the card shows.
    const tokenBody = (await page.textContent('[data-testid="guided-body"]')) ?? '';
    expect(tokenBody).toMatch(/"code": "••••••••"/);
    expect(tokenBody).toMatch(/"code_verifier": "••••••••"/);
    await next();
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 30_000 });
    expect(await page.getAttribute('[data-testid="auth-outcome"]', 'data-ok')).toBe('true');

    const whoami = await callTool('whoami');
    await page.waitForSelector(`${whoami} [data-testid="tool-result"][data-outcome="complete"]`, { timeout: 30_000 });
    expect(await page.textContent(`${whoami} [data-testid="tool-result"]`)).toContain('Authorized');
    // The authorized connection's MCP traffic was fetched on Loupe's fetch worker, off the page's
    // thread like any other connection's (a worker's fetches are not in the page's resource timeline).
    const onPage = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.startsWith('/mcp') || p === '/api/proxy'),
    );
    expect(onPage).toEqual([]);

    // Step-up: write_note needs notes:write; the server answers 403 insufficient_scope.
    const write = await callTool('write_note', ['text', 'from the guided flow']);
    // The flow reads the resource metadata again (the authorization server may have changed); the rest is known.
    await expectStep('resource-metadata', /RFC 9728|Protected Resource/);
    await next();
    const stepUpScope = await expectStep('authorization', /PKCE S256/);
    const violations = (await new AxeBuilder({ page }).include('[data-testid="guided-card"]').analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(violations.map((v) => v.id)).toEqual([]);
    // The union of the scopes asked before and the scope the challenge names.
    expect(stepUpScope?.split(' ')).toEqual(expect.arrayContaining(['notes:read', 'notes:write']));
    await authorizeInPopup();
    await expectStep('token', /code_verifier/);
    await next();
    await page.waitForSelector(`${write} [data-testid="tool-result"][data-outcome="complete"]`, { timeout: 30_000 });
    expect(await page.textContent(`${write} [data-testid="tool-result"]`)).toContain('Saved: from the guided flow');

    // The Auth lane: the step-up decision is on the timeline with its checks, and a token answer's secrets are masked.
    const stepUpRow = page.locator('[data-testid="timeline-row"]', { has: page.locator('[data-testid="row-method"]', { hasText: 'auth step-up' }) });
    await stepUpRow.first().click();
    await page.waitForSelector('[data-testid="auth-step-detail"][data-step="step-up"]');
    expect(await page.getAttribute('[data-testid="auth-step-detail"] [data-check="insufficient_scope"]', 'data-ok')).toBe('true');
    const tokenRows = page.locator('[data-testid="timeline-row"]', { has: page.locator('[data-testid="row-method"]', { hasText: 'auth token' }) });
    await tokenRows.last().click();
    // The token request: its checks come from its answer; the code and the verifier are masked.
    await page.waitForSelector('[data-testid="auth-step-detail"][data-step="token"]');
    expect(await page.getAttribute('[data-testid="auth-step-detail"] [data-check="access token issued"]', 'data-ok')).toBe('true');
    const sent = (await page.textContent('[data-testid="detail-pane"]')) ?? '';
    expect(sent).toContain('code_verifier');
    expect(sent).toContain('••••••••');
    // Its answer: the tokens are masked until revealed.
    await page.click('[data-testid="exchange-frames"] [data-frame-kind="http-response"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="detail-pane"]')?.textContent?.includes('access_token'));
    expect(await page.textContent('[data-testid="detail-pane"]')).not.toContain('eyJ');
    await page.click('[data-testid="auth-reveal"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="detail-pane"]')?.textContent?.includes('eyJ'));
  });
});
