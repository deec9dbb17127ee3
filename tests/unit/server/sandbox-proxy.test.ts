import { describe, expect, it } from 'vitest';
import { inspectorNames, sandboxProxyResponse, validHostOrigin, type ServedInspector } from '../../../lib/server/sandbox-proxy';

/** The sandbox proxy page: its CSP header, who may embed it, and how it frames the view. */

/** A Loupe bound to 127.0.0.1:3000 that listens on [::1]:3000 too. */
const SERVED: ServedInspector = { port: 3000, names: inspectorNames('127.0.0.1', true) };
const get = (query: Record<string, string>, host = 'localhost:3000') =>
  sandboxProxyResponse(new Request(`http://${host}/sandbox/proxy.html?${new URLSearchParams(query)}`, { headers: { host } }), SERVED);

describe('sandbox proxy page', () => {
  it('carries the CSP in a no-store header, embeddable only by the inspector origin', async () => {
    const res = get({ host: 'http://127.0.0.1:3000', csp: '{}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain('frame-ancestors http://127.0.0.1:3000');
    const html = await res.text();
    // The view's frame: scripts only, never the proxy's origin.
    expect(html).toContain("inner.setAttribute('sandbox', 'allow-scripts')");
    expect(html).not.toMatch(/allow-same-origin/);
    expect(html).toContain('const HOST = "http://127.0.0.1:3000"');
  });

  it('neutralises hostile CSP entries', () => {
    const csp = JSON.stringify({ connectDomains: ["http://127.0.0.1:9; script-src 'unsafe-eval' *", '"x"', 'a b', 'http://127.0.0.1:4000'] });
    const header = get({ host: 'http://127.0.0.1:3000', csp }).headers.get('content-security-policy')!;
    expect(header).toContain('connect-src http://127.0.0.1:4000;');
    expect(header).not.toContain('unsafe-eval');
    expect(header).not.toContain('"');
    expect(header.split(';')).toHaveLength(12);
  });

  it('refuses a missing, foreign or same-host inspector origin, and a CSP that is not JSON', () => {
    expect(get({ csp: '{}' }).status).toBe(400);
    expect(get({ host: 'https://evil.example', csp: '{}' }).status).toBe(400);
    expect(get({ host: 'http://localhost:3000', csp: '{}' }).status).toBe(400);
    expect(get({ host: 'http://127.0.0.1:3000/path', csp: '{}' }).status).toBe(400);
    expect(get({ host: 'http://127.0.0.1:3000', csp: '{not json' }).status).toBe(400);
    expect(get({ host: 'http://127.0.0.1:3000', csp: '{}' }, '127.0.0.1:3000').status).toBe(400);
  });

  it("accepts only this server's inspector: the paired loopback name or an allowed host, on the same port", () => {
    expect(validHostOrigin('http://[::1]:3000', 'localhost:3000', SERVED)).toBe('http://[::1]:3000');
    expect(validHostOrigin('javascript:alert(1)', 'localhost:3000', SERVED)).toBeUndefined();
    expect(validHostOrigin('http://10.0.0.1:3000', 'localhost:3000', SERVED)).toBeUndefined();
    expect(validHostOrigin('http://127.0.0.1:4000', 'localhost:3000', SERVED)).toBeUndefined();
    expect(validHostOrigin('http://127.0.0.1', 'localhost:3000', SERVED)).toBeUndefined();
    expect(validHostOrigin('http://127.0.0.1:3000', null, SERVED)).toBeUndefined();
    expect(validHostOrigin('https://localhost', '127.0.0.1:443', { port: 443, names: inspectorNames('127.0.0.1', false) })).toBe('https://localhost');
    expect(validHostOrigin('http://loupe.test:3000', 'localhost:3000', SERVED, ['loupe.test'])).toBe('http://loupe.test:3000');
    expect(validHostOrigin('http://loupe.test:4000', 'localhost:3000', SERVED, ['loupe.test'])).toBeUndefined();
    expect(validHostOrigin('http://loupe.test:3000', 'loupe.test:3000', SERVED, ['loupe.test'])).toBeUndefined();
  });

  it('refuses loopback origins this Loupe does not serve its inspector on: another 127.x, [::1] it does not hold, another port', () => {
    // 127.0.0.2 pairs with localhost, but nothing of ours answers there: another process may.
    expect(get({ host: 'http://127.0.0.2:3000' }).status).toBe(400);
    expect(validHostOrigin('http://127.0.0.2:3000', 'localhost:3000', SERVED)).toBeUndefined();
    const v4Only: ServedInspector = { port: 3000, names: inspectorNames('127.0.0.1', false) };
    expect(validHostOrigin('http://[::1]:3000', 'localhost:3000', v4Only)).toBeUndefined();
    expect(validHostOrigin('http://127.0.0.1:3000', 'localhost:3000', v4Only)).toBe('http://127.0.0.1:3000');
    // The Host header names a port, but the inspector is only where this Loupe listens.
    expect(validHostOrigin('http://127.0.0.1:4000', 'localhost:4000', SERVED)).toBeUndefined();
    // Bound to 127.0.0.2 (or a wildcard, seen as 127.0.0.1): that address, never 127.0.0.1 unless bound to it.
    const on2: ServedInspector = { port: 3000, names: inspectorNames('127.0.0.2', true) };
    expect(validHostOrigin('http://127.0.0.2:3000', 'localhost:3000', on2)).toBe('http://127.0.0.2:3000');
    expect(validHostOrigin('http://127.0.0.1:3000', 'localhost:3000', on2)).toBeUndefined();
    expect(inspectorNames('0.0.0.0', true)).toEqual(['127.0.0.1', 'localhost', '[::1]']);
    expect(inspectorNames('::1', true)).toEqual(['[::1]', 'localhost']);
  });
});
