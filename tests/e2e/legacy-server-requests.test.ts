import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Request as PwRequest } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectSchema } from '../../lib/scenario/builtins/schema-helpers';
import { ROOT } from '../helpers/processes';
import { controlApi } from '../integration/http-target';
import { startAppAndBrowser, stopAppAndBrowser, type AppAndBrowser } from './browser';

/**
 * The inspector connected to the demo in the 2025-11-25 era, through Loupe's HTTP proxy and over
 * stdio: delete_note's confirmation arrives as the server's own elicitation/create, shows as a
 * dialog with the inspector's elicitation form, and the person's decline or accept goes back as
 * the JSON-RPC response; the tool's result says what happened.
 */

describe('a 2025-11-25 server asks the inspector', () => {
  let env: Partial<AppAndBrowser> = {};
  let context: BrowserContext;
  let page: Page;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-legacy-child-'));

  beforeAll(async () => {
    env = await startAppAndBrowser('loupe-e2e-legacy-requests-');
    context = await env.browser!.newContext({ viewport: { width: 1600, height: 1200 } });
    page = await context.newPage();
    await page.goto(`${env.base}/?token=${env.server!.token}`);
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await stopAppAndBrowser(env);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function connectLegacy(mode: 'proxy' | 'stdio', url: string) {
    if ((await page.getAttribute('[data-testid="connection-status"]', 'data-state')) !== 'idle') {
      await page.click('[data-testid="connect-button"]');
      await page.waitForSelector('[data-testid="connection-status"][data-state="idle"]');
    }
    await page.selectOption('[data-testid="mode-select"]', mode);
    await page.selectOption('[data-testid="era-select"]', 'legacy');
    await page.fill('[data-testid="url-input"]', url);
    await page.click('[data-testid="connect-button"]');
    await page.waitForSelector('[data-testid="connection-status"][data-state="connected"]', { timeout: 20_000 });
    expect(await page.textContent('[data-testid="server-info"]')).toContain('2025-11-25');
  }

  /** Call delete_note on `noteId`, answer the server's confirmation with `action`; the result's text. */
  async function deleteNote(noteId: string, action: 'accept' | 'decline'): Promise<string> {
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="delete_note"] [data-testid="select-tool"]');
    await page.fill('[data-testid="tool-call-form"] input[name="noteId"]', noteId);
    await page.click('[data-testid="call-tool"]');
    const dialog = '[data-testid="server-request"][data-method="elicitation/create"]';
    await page.waitForSelector(`${dialog} [data-testid="input-requests"]`, { timeout: 10_000 });
    expect(await page.textContent(dialog)).toContain('This cannot be undone');
    if (action === 'accept') await page.check(`${dialog} input[name="confirm"]`);
    await page.click(`${dialog} button[data-action="${action}"]`);
    await page.waitForSelector(dialog, { state: 'detached' });
    const result = '[data-testid="tool-call-form"][data-tool="delete_note"] [data-testid="tool-result"]';
    await page.waitForSelector(result, { timeout: 10_000 });
    return (await page.textContent(result)) ?? '';
  }

  it('through the HTTP proxy: decline deletes nothing, accept deletes the note', async () => {
    await connectLegacy('proxy', '/mcp');
    // The answers the page hands the proxy, with the headers the proxy is asked to send upstream.
    const envelopes: { headers: Record<string, string>; body: string }[] = [];
    const onRequest = (r: PwRequest) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/proxy') envelopes.push(JSON.parse(r.postData() ?? '{}'));
    };
    page.on('request', onRequest);
    expect(await deleteNote('note-1', 'decline')).toContain('was not deleted: the user declined');
    page.off('request', onRequest);
    const answer = envelopes.find((e) => typeof e.body === 'string' && e.body.includes('"action":"decline"'));
    const headers = Object.fromEntries(Object.entries(answer?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    expect(headers['mcp-session-id']).toMatch(/.+/);
    expect(await deleteNote('note-1', 'accept')).toContain('Deleted note');
  });

  it('a task that needs input (generate_report): the server asks on tasks/result, the dialog answers, the task completes', async () => {
    await connectLegacy('proxy', '/mcp');
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="generate_report"] [data-testid="select-tool"]');
    await page.selectOption('[data-testid="tool-call-form"] select[name="size"]', 'small');
    await page.check('[data-testid="run-as-task"]');
    await page.click('[data-testid="call-tool"]');
    const dialog = '[data-testid="server-request"][data-method="elicitation/create"]';
    await page.waitForSelector(`${dialog} [data-testid="input-requests"]`, { timeout: 15_000 });
    await page.check(`${dialog} input[name="approved"]`);
    await page.click(`${dialog} button[data-action="accept"]`);
    await page.waitForSelector(dialog, { state: 'detached' });
    await page.waitForSelector('[data-testid="task-card"][data-status="completed"]', { timeout: 15_000 });
  });

  it('a URL elicitation and a sampling request: the URL is declined, the model reply typed in the dialog reaches the tool', async () => {
    const saved = await controlApi(env.base!, env.server!.token!, '/api/scenarios/asks/source', 'PUT', {
      id: 'asks',
      name: 'Asks by URL and for a model reply',
      server: { name: 'asks', version: '1.0.0' },
      tools: [
        {
          name: 'ask_twice',
          inputSchema: objectSchema(),
          mrtr: {
            rounds: [
              {
                inputRequests: {
                  link: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' } },
                  sample: {
                    method: 'sampling/createMessage',
                    params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 50 },
                  },
                },
                validate: false,
              },
            ],
          },
          result: { content: [{ type: 'text', text: 'url={{inputs.link.action}} reply={{inputs.sample.content.text}} by {{inputs.sample.model}}' }] },
        },
      ],
    });
    expect(saved.status).toBe(200);
    await connectLegacy('proxy', '/mcp/asks');
    await page.click('[data-tab="tools"]');
    await page.click('[data-tool="ask_twice"] [data-testid="select-tool"]');
    await page.click('[data-testid="call-tool"]');
    const url = '[data-testid="server-request"][data-method="elicitation/create"] [data-testid="url-elicitation"]';
    await page.waitForSelector(url, { timeout: 10_000 });
    expect(await page.textContent(`${url} [data-testid="url-domain"]`)).toBe('example.com');
    await page.click(`${url} button[data-action="decline"]`);
    const sampling = '[data-testid="server-request"][data-method="sampling/createMessage"] [data-testid="sampling-request"]';
    await page.waitForSelector(sampling);
    expect(await page.textContent(`${sampling} [data-testid="sampling-messages"]`)).toContain('Say hi');
    await page.fill(`${sampling} textarea[name="text"]`, 'Hi from a person');
    await page.fill(`${sampling} input[name="model"]`, 'human');
    await page.click(`${sampling} button[data-action="send"]`);
    const result = '[data-testid="tool-call-form"][data-tool="ask_twice"] [data-testid="tool-result"]';
    await page.waitForSelector(result, { timeout: 10_000 });
    expect(await page.textContent(result)).toContain('url=decline reply=Hi from a person by human');
  });

  it('over stdio: decline deletes nothing, accept deletes the note', async () => {
    await connectLegacy('stdio', `${process.execPath} ${path.join(ROOT, 'bin/mcp-loupe.mjs')} mock demo --stdio --data-dir ${dataDir}`);
    expect(await deleteNote('note-2', 'decline')).toContain('was not deleted: the user declined');
    expect(await deleteNote('note-2', 'accept')).toContain('Deleted note');
  });
});
