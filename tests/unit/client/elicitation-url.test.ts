import { describe, expect, it } from 'vitest';
import { analyzeUrl, decodePunycode, registrableDomain, scriptsOf, toUnicodeHost } from '../../../lib/client/elicitation-url';
import { checkSamplingAnswer, classifyInputRequest, contentText, rootsAnswer, samplingAnswer } from '../../../lib/client/input-answers';

/** URL-mode safety analysis and the sampling / roots answers. */

describe('punycode', () => {
  it('decodes RFC 3492 labels', () => {
    expect(decodePunycode('mnchen-3ya')).toBe('münchen');
    expect(decodePunycode('e1afmkfd')).toBe('пример');
    expect(decodePunycode('80ak6aa92e')).toBe('аррӏе');
    expect(toUnicodeHost('xn--80ak6aa92e.com')).toBe('аррӏе.com');
    expect(toUnicodeHost('www.xn--mnchen-3ya.de')).toBe('www.münchen.de');
    expect(() => decodePunycode('a!b')).toThrow();
  });
});

describe('registrableDomain', () => {
  it.each([
    ['login.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['octocat.github.io', 'octocat.github.io'],
    ['bucket.s3.amazonaws.com', 'bucket.s3.amazonaws.com'],
    ['localhost', 'localhost'],
    ['192.168.1.10', '192.168.1.10'],
  ])('%s → %s', (host, domain) => expect(registrableDomain(host)).toBe(domain));
});

describe('analyzeUrl', () => {
  it('splits the URL so the registrable domain can be highlighted', () => {
    const a = analyzeUrl('https://login.example.co.uk:8443/oauth/authorize?client_id=abc#x');
    expect(a.ok).toBe(true);
    expect(a.parts).toEqual({ prefix: 'https://', subdomain: 'login.', domain: 'example.co.uk', rest: ':8443/oauth/authorize?client_id=abc#x' });
    expect(a.parts.prefix + a.parts.subdomain + a.parts.domain + a.parts.rest).toBe(a.href);
    expect(a.warnings).toEqual([]);
  });

  it('warns about punycode and whole-label homographs', () => {
    const a = analyzeUrl('https://xn--80ak6aa92e.com/login');
    expect(a.punycode).toBe(true);
    expect(a.unicodeHost).toBe('аррӏе.com');
    expect(a.mixedScripts).toBe(true);
    expect(a.warnings[0]).toContain('displays as аррӏе.com');
    expect(a.warnings[1]).toContain('Cyrillic and Latin');
  });

  it('flags a host typed in Unicode with mixed scripts', () => {
    const a = analyzeUrl('https://pаypal.com/');
    expect(a.host).toMatch(/^xn--/);
    expect(a.punycode).toBe(true);
    expect(scriptsOf(a.unicodeHost).sort()).toEqual(['Cyrillic', 'Latin']);
  });

  it('does not call Japanese (Han + Kana) mixed', () => {
    expect(scriptsOf('日本語のサイト.jp').length).toBe(2);
    expect(scriptsOf('日本語のサイト')).toEqual(['Han']);
  });

  it('reveals the real host behind user info, bare IPs and http', () => {
    const a = analyzeUrl('http://github.com@10.0.0.1/login');
    expect(a.parts.prefix).toBe('http://github.com@');
    expect(a.parts.domain).toBe('10.0.0.1');
    expect(a.warnings.join(' ')).toMatch(/this link goes to 10\.0\.0\.1.*bare IP.*not encrypted/);
  });

  it('refuses what a browser tab must not open', () => {
    expect(analyzeUrl('javascript:alert(1)')).toMatchObject({ ok: false, reason: expect.stringContaining('javascript:') });
    expect(analyzeUrl('/relative')).toMatchObject({ ok: false, reason: 'This is not a valid absolute URL.' });
  });
});

describe('input answers', () => {
  it('classifies each kind of input request', () => {
    expect(classifyInputRequest({ method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } }).kind).toBe(
      'form',
    );
    expect(classifyInputRequest({ method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://x.example' } })).toEqual({
      kind: 'url',
      params: { message: 'm', url: 'https://x.example' },
    });
    expect(classifyInputRequest({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } }).kind).toBe('sampling');
    expect(classifyInputRequest({ method: 'roots/list', params: {} }).kind).toBe('roots');
    expect(classifyInputRequest({ method: 'ping' })).toEqual({ kind: 'invalid', reason: 'unknown input request method "ping"' });
    expect(classifyInputRequest({ method: 'elicitation/create', params: { mode: 'url' } }).kind).toBe('invalid');
  });

  it('builds a CreateMessageResult and checks the reply', () => {
    expect(samplingAnswer('Paris.', ' human ')).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Paris.' },
      model: 'human',
      stopReason: 'endTurn',
    });
    expect(checkSamplingAnswer('', '', 10).errors).toEqual({ text: expect.any(String), model: expect.any(String) });
    expect(checkSamplingAnswer('x'.repeat(100), 'm', 10).warnings[0]).toContain('more than maxTokens (10)');
    expect(
      contentText([
        { type: 'text', text: 'hi' },
        { type: 'image', data: '', mimeType: 'image/png' },
      ]),
    ).toBe('hi\n[image content]');
  });

  it('builds a ListRootsResult from file:// rows and rejects anything else', () => {
    expect(
      rootsAnswer([
        { uri: 'file:///work', name: 'work' },
        { uri: '', name: '' },
        { uri: 'file:///tmp', name: '' },
      ]),
    ).toEqual({
      ok: true,
      result: { roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] },
    });
    expect(rootsAnswer([{ uri: 'https://example.com', name: 'x' }])).toEqual({ ok: false, errors: { 0: 'Roots must be file:// URIs' } });
  });
});
