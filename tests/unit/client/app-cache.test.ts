import { describe, expect, it } from 'vitest';
import { appCacheKey, createAppCache, type AppCacheKeyParts } from '../../../lib/client/app-cache';
import { htmlDigest, readAppResource, type AppResource } from '../../../lib/client/app-resource';
import { sandboxProxyUrl } from '../../../lib/client/sandbox-origin';
import { otherLoopbackName, sandboxOriginFor } from '../../../lib/protocol/sandbox-origin';

/** App resource cache keys and lifetime, resource parsing, and where the sandbox lives. */

const parts: AppCacheKeyParts = {
  uri: 'ui://notes/timeline.html',
  server: 'http://127.0.0.1:3000/mcp',
  serverName: 'loupe-demo',
  serverVersion: '0.1.0',
  principal: 'alice',
};
const resource = (over: Partial<AppResource> = {}): AppResource => ({
  uri: parts.uri,
  html: '<p>v1</p>',
  meta: {},
  digest: 'd1',
  ttlMs: 60_000,
  cacheScope: 'public',
  ...over,
});

describe('appCacheKey', () => {
  it('changes with the URI, the server, its name and its version', () => {
    const base = appCacheKey(parts, 'public');
    for (const change of [{ uri: 'ui://notes/other.html' }, { server: 'http://127.0.0.1:4000/mcp' }, { serverName: 'other' }, { serverVersion: '0.2.0' }]) {
      expect(appCacheKey({ ...parts, ...change }, 'public'), JSON.stringify(change)).not.toBe(base);
    }
  });

  it('includes the principal only for private resources, and the digest in the rendered identity', () => {
    expect(appCacheKey({ ...parts, principal: 'bob' }, 'public')).toBe(appCacheKey(parts, 'public'));
    expect(appCacheKey({ ...parts, principal: 'bob' }, 'private')).not.toBe(appCacheKey(parts, 'private'));
    expect(appCacheKey(parts, 'public', 'abc')).toContain('sha256:abc');
    expect(appCacheKey(parts, 'public', 'abc')).not.toBe(appCacheKey(parts, 'public', 'abd'));
  });
});

describe('createAppCache', () => {
  it('serves a fresh entry, then forgets it when its ttl passes', () => {
    let now = 1_000;
    const cache = createAppCache({ now: () => now });
    const entry = cache.put(parts, resource());
    expect(entry.key).toBe(appCacheKey(parts, 'public', 'd1'));
    expect(cache.get(parts)?.resource.html).toBe('<p>v1</p>');
    // Another principal shares a public entry.
    expect(cache.get({ ...parts, principal: 'bob' })).toBeDefined();
    now += 60_000;
    expect(cache.get(parts)).toBeUndefined();
  });

  it('keeps private entries to their principal, and stores nothing with ttl 0', () => {
    const cache = createAppCache();
    cache.put(parts, resource({ cacheScope: 'private' }));
    expect(cache.get(parts)).toBeDefined();
    expect(cache.get({ ...parts, principal: 'bob' })).toBeUndefined();
    expect(cache.get({ ...parts, principal: undefined })).toBeUndefined();
    cache.put({ ...parts, uri: 'ui://x/zero.html' }, resource({ ttlMs: 0 }));
    expect(cache.get({ ...parts, uri: 'ui://x/zero.html' })).toBeUndefined();
  });

  it('does not mix versions of a server and evicts the least recently used', () => {
    const cache = createAppCache({ maxEntries: 2 });
    cache.put(parts, resource());
    expect(cache.get({ ...parts, serverVersion: '0.2.0' })).toBeUndefined();
    cache.put({ ...parts, uri: 'ui://a' }, resource());
    cache.get(parts); // touch: now ui://a is the oldest
    cache.put({ ...parts, uri: 'ui://b' }, resource());
    expect(cache.size).toBe(2);
    expect(cache.get({ ...parts, uri: 'ui://a' })).toBeUndefined();
    expect(cache.get(parts)).toBeDefined();
  });
});

describe('readAppResource', () => {
  const ok = (contents: unknown[], extra: Record<string, unknown> = {}) => ({
    type: 'complete' as const,
    result: { contents, ttlMs: 5000, cacheScope: 'private', ...extra },
  });

  it('takes the HTML, the content item _meta.ui, the digest and the caching hints', async () => {
    const load = await readAppResource(
      ok([{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', text: '<p>hi</p>', _meta: { ui: { csp: { connectDomains: ['https://x.example'] } } } }]),
      'ui://a',
      { ui: { prefersBorder: true } },
    );
    expect(load.ok && load.resource).toMatchObject({
      html: '<p>hi</p>',
      meta: { csp: { connectDomains: ['https://x.example'] } },
      digest: await htmlDigest('<p>hi</p>'),
      ttlMs: 5000,
      cacheScope: 'private',
    });
  });

  it('decodes a base64 blob and falls back to the list entry metadata', async () => {
    const html = '<p>héllo</p>';
    const blob = Buffer.from(html, 'utf8').toString('base64');
    const load = await readAppResource(ok([{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', blob }]), 'ui://a', { ui: { prefersBorder: false } });
    expect(load.ok && load.resource.html).toBe(html);
    expect(load.ok && load.resource.meta).toEqual({ prefersBorder: false });
  });

  it('refuses another MIME type, empty contents and errors', async () => {
    expect(await readAppResource(ok([{ uri: 'ui://a', mimeType: 'text/html', text: 'x' }]), 'ui://a')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('MIME type'),
    });
    expect(await readAppResource(ok([]), 'ui://a')).toMatchObject({ ok: false });
    expect(await readAppResource({ type: 'error', error: { code: -32602, message: 'Resource not found' } }, 'ui://a')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('-32602'),
    });
  });
});

describe('sandbox origin', () => {
  it('is the same server under the other loopback name, same scheme and port', () => {
    expect(sandboxOriginFor('http://127.0.0.1:3000')).toBe('http://localhost:3000');
    expect(sandboxOriginFor('http://localhost:3000')).toBe('http://127.0.0.1:3000');
    expect(sandboxOriginFor('https://[::1]:8443')).toBe('https://localhost:8443');
    expect(sandboxOriginFor('http://app.localhost')).toBe('http://127.0.0.1');
    expect(sandboxOriginFor('http://example.com:3000')).toBeUndefined();
    expect(otherLoopbackName('127.0.0.2')).toBe('localhost');
  });

  it('passes the inspector origin and the declared CSP to the proxy page', () => {
    const url = new URL(sandboxProxyUrl('http://localhost:3000', 'http://127.0.0.1:3000', { connectDomains: ['https://a.example'] }));
    expect(url.origin + url.pathname).toBe('http://localhost:3000/sandbox/proxy.html');
    expect(url.searchParams.get('host')).toBe('http://127.0.0.1:3000');
    expect(JSON.parse(url.searchParams.get('csp')!)).toEqual({ connectDomains: ['https://a.example'] });
  });
});
