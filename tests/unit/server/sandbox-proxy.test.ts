import { describe, expect, it } from 'vitest';
import { sandboxProxyResponse, validHostOrigin } from '../../../lib/server/sandbox-proxy';

/** The sandbox proxy page: its CSP header, who may embed it, and how it frames the view. */

const get = (query: Record<string, string>, host = 'localhost:3000') =>
  sandboxProxyResponse(new Request(`http://${host}/sandbox/proxy.html?${new URLSearchParams(query)}`, { headers: { host } }));

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
    expect(validHostOrigin('http://[::1]:3000', 'localhost:3000')).toBe('http://[::1]:3000');
    expect(validHostOrigin('javascript:alert(1)', 'localhost:3000')).toBeUndefined();
    expect(validHostOrigin('http://10.0.0.1:3000', 'localhost:3000')).toBeUndefined();
    expect(validHostOrigin('http://127.0.0.1:4000', 'localhost:3000')).toBeUndefined();
    expect(validHostOrigin('http://127.0.0.1', 'localhost:3000')).toBeUndefined();
    expect(validHostOrigin('http://127.0.0.1:3000', null)).toBeUndefined();
    expect(validHostOrigin('https://localhost', '127.0.0.1:443')).toBe('https://localhost');
    expect(validHostOrigin('http://loupe.test:3000', 'localhost:3000', ['loupe.test'])).toBe('http://loupe.test:3000');
    expect(validHostOrigin('http://loupe.test:4000', 'localhost:3000', ['loupe.test'])).toBeUndefined();
    expect(validHostOrigin('http://loupe.test:3000', 'loupe.test:3000', ['loupe.test'])).toBeUndefined();
  });
});
