import { describe, expect, it } from 'vitest';
import { createRoutedFetch } from '../../../lib/client/routed-fetch';

/**
 * The OAuth flow's fetch in the browser: its own origin direct; another origin direct while the
 * browser can read the answer, else (a CORS refusal looks like a network error) through Loupe's
 * proxy as a JSON envelope, form bodies included, and that origin stays on the proxy.
 */

type Call = { input: string; init: RequestInit };

function fakeBrowser(refused: Set<string>) {
  const calls: Call[] = [];
  const fetch = async (input: string, init: RequestInit) => {
    calls.push({ input, init });
    if (refused.has(new URL(input, 'http://loupe.local').origin)) throw new TypeError('Failed to fetch');
    return new Response('{}', { status: 200 });
  };
  return { calls, fetch };
}

describe('routed fetch', () => {
  it('goes direct where the browser may, through the proxy where it may not, and remembers', async () => {
    const b = fakeBrowser(new Set(['https://as.example']));
    const routes: string[] = [];
    const f = createRoutedFetch({
      mode: 'auto',
      proxyEndpoint: '/api/proxy',
      pageOrigin: 'http://loupe.local',
      fetch: b.fetch,
      onRoute: (origin, r) => routes.push(`${origin} ${r.via}`),
    });
    await f('/mcp/oauth', { method: 'POST', body: '{}' });
    expect(b.calls.at(-1)?.input).toBe('http://loupe.local/mcp/oauth');

    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'c1' });
    await f('https://as.example/token', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    const viaProxy = b.calls.at(-1)!;
    expect(viaProxy.input).toBe('/api/proxy');
    expect(JSON.parse(String(viaProxy.init.body))).toEqual({
      url: 'https://as.example/token',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=c1',
    });
    expect(routes).toEqual(['https://as.example proxy']);

    // Known now: no second direct attempt.
    const before = b.calls.length;
    await f('https://as.example/.well-known/oauth-authorization-server', { method: 'GET' });
    expect(b.calls.length).toBe(before + 1);
    expect(b.calls.at(-1)?.input).toBe('/api/proxy');
  });

  it('keeps to the way the person chose', async () => {
    const b = fakeBrowser(new Set());
    const f = createRoutedFetch({ mode: 'proxy', proxyEndpoint: '/api/proxy', pageOrigin: 'http://loupe.local', fetch: b.fetch });
    await f('https://mcp.example/mcp', { method: 'POST', body: '{}' });
    expect(b.calls.map((c) => c.input)).toEqual(['/api/proxy']);
  });
});
