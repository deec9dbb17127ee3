import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAppCsp, isSafeCspEntry, sanitizeUiCsp } from '../../../lib/protocol/app-csp';

/** The sandbox page's CSP: built from declared domains only, with unsafe entries dropped. */

const HOST = 'http://127.0.0.1:3000';
const DIRECTIVES = [
  'default-src',
  'script-src',
  'style-src',
  'img-src',
  'font-src',
  'media-src',
  'connect-src',
  'frame-src',
  'base-uri',
  'object-src',
  'form-action',
  'frame-ancestors',
];
const KEYWORDS = new Set(["'none'", "'unsafe-inline'", 'data:', 'blob:']);

/** Parse a header into directive → tokens. */
function parse(header: string): Map<string, string[]> {
  return new Map(
    header.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values] as [string, string[]];
    }),
  );
}

describe('buildAppCsp', () => {
  it('allows nothing external when no domains are declared', () => {
    const d = parse(buildAppCsp(undefined, [HOST]).header);
    expect([...d.keys()]).toEqual(DIRECTIVES);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('connect-src')).toEqual(["'none'"]);
    expect(d.get('frame-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'unsafe-inline'"]);
    expect(d.get('frame-ancestors')).toEqual([HOST]);
    // 'self' would be Loupe's own server (the sandbox origin), never the app's.
    expect(buildAppCsp({}, [HOST]).header).not.toContain("'self'");
    // The demo's explicit empty lists mean the same.
    expect(buildAppCsp({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, [HOST]).header).toBe(
      buildAppCsp(undefined, [HOST]).header,
    );
  });

  it('puts each declared list in its directives', () => {
    const d = parse(
      buildAppCsp(
        {
          connectDomains: ['https://api.example.com', 'wss://live.example.com'],
          resourceDomains: ['https://*.cdn.example.com'],
          frameDomains: ['https://player.example.com'],
          baseUriDomains: ['https://base.example.com'],
        },
        [HOST],
      ).header,
    );
    expect(d.get('connect-src')).toEqual(['https://api.example.com', 'wss://live.example.com']);
    for (const k of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src']) expect(d.get(k)).toContain('https://*.cdn.example.com');
    expect(d.get('script-src')).not.toContain('https://api.example.com');
    expect(d.get('frame-src')).toEqual(['https://player.example.com']);
    expect(d.get('base-uri')).toEqual(['https://base.example.com']);
  });

  it('drops hostile entries instead of letting them add directives or sources', () => {
    const hostile = [
      'https://ok.example.com; script-src *',
      "'unsafe-eval'",
      'https://a.example.com https://b.example.com',
      'https://a.example.com,https://b.example.com',
      '"https://quoted.example.com"',
      'https://crlf.example.com\r\nX-Injected: 1',
      '*',
      'javascript:alert(1)',
      'data:',
      'https://x.example.com/path',
      'http://127.0.0.1:1/;report-uri https://evil.example',
    ];
    const built = buildAppCsp({ connectDomains: [...hostile, 'http://127.0.0.1:4000'] }, [HOST]);
    expect(built.rejected.map((r) => r.entry)).toEqual(hostile);
    const d = parse(built.header);
    expect([...d.keys()]).toEqual(DIRECTIVES);
    expect(d.get('connect-src')).toEqual(['http://127.0.0.1:4000']);
    expect(d.get('script-src')).toEqual(["'unsafe-inline'"]);
    for (const bad of ['unsafe-eval', 'evil', '*', '"', ',', '\n', 'report-uri', 'javascript']) expect(built.header).not.toContain(bad);
  });

  it('accepts origins and host patterns, deduplicated case-insensitively, with a bounded count', () => {
    for (const ok of [
      'https://a.example.com',
      'http://localhost:8080',
      'wss://x.example.com:443',
      'https://*.example.com',
      'example.com',
      '*.example.com',
      'http://[::1]:3000',
      'https://a.example.com:*',
    ]) {
      expect(isSafeCspEntry(ok), ok).toBe(true);
    }
    const { csp } = sanitizeUiCsp({ connectDomains: ['https://A.example.com', 'https://a.example.com/', 'https://a.example.com'] });
    expect(csp.connectDomains).toEqual(['https://a.example.com']);
    const many = Array.from({ length: 40 }, (_, i) => `https://h${i}.example.com`);
    const capped = sanitizeUiCsp({ resourceDomains: many });
    expect(capped.csp.resourceDomains).toHaveLength(32);
    expect(capped.rejected).toHaveLength(8);
  });

  it('never lets any declared string produce anything but the fixed directives with safe tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 6 }), fc.array(fc.string({ maxLength: 40 }), { maxLength: 6 }), (connect, resource) => {
        const d = parse(buildAppCsp({ connectDomains: connect, resourceDomains: resource, frameDomains: connect }, [HOST]).header);
        expect([...d.keys()]).toEqual(DIRECTIVES);
        for (const [name, tokens] of d)
          for (const t of tokens) expect(KEYWORDS.has(t) || isSafeCspEntry(t) || (name === 'frame-ancestors' && t === HOST), t).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('ignores lists that are not lists and an unsafe frame ancestor', () => {
    const built = buildAppCsp({ connectDomains: 'https://a.example.com' }, ['http://x.example.com; script-src *']);
    expect(built.rejected).toEqual([{ list: 'connectDomains', entry: 'https://a.example.com', reason: 'not a list' }]);
    expect(parse(built.header).get('frame-ancestors')).toEqual(["'none'"]);
  });
});
