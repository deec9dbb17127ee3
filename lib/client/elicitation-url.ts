/**
 * URL-mode elicitation safety: split a URL so the UI can show it in full with its registrable
 * domain highlighted, and warn about internationalized (punycode) hosts, mixed scripts, user
 * info that hides the real host, bare IPs and unencrypted links. Pure; no network, no DNS.
 */

interface UrlParts {
  /** `https://` plus any `user:pass@`. */
  prefix: string;
  /** Labels before the registrable domain, with the trailing dot (`login.`). */
  subdomain: string;
  /** The registrable domain (`example.co.uk`), the part that names who owns the site. */
  domain: string;
  /** Port, path, query and fragment. */
  rest: string;
}

interface UrlAnalysis {
  ok: boolean;
  /** Why the URL cannot be opened (only when `ok` is false). */
  reason?: string;
  href: string;
  host: string;
  /** The host with punycode labels decoded, as a browser might display it. */
  unicodeHost: string;
  parts: UrlParts;
  punycode: boolean;
  mixedScripts: boolean;
  warnings: string[];
}

// Multi-label public suffixes commonly met in the wild (a short stand-in for the Public Suffix List).
const MULTI_SUFFIXES = new Set([
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'me.uk',
  'com.au',
  'net.au',
  'org.au',
  'co.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'com.br',
  'com.cn',
  'com.mx',
  'co.in',
  'co.za',
  'com.tr',
  'com.sg',
  'co.kr',
  'com.hk',
  'github.io',
  'gitlab.io',
  'herokuapp.com',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'workers.dev',
  'web.app',
  'firebaseapp.com',
  'appspot.com',
  'blogspot.com',
  'azurewebsites.net',
  'cloudfront.net',
  's3.amazonaws.com',
]);

const BASE = 36;
function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / 700) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - 1) * 26) >> 1) {
    d = Math.floor(d / (BASE - 1));
    k += BASE;
  }
  return k + Math.floor((BASE * d) / (d + 38));
}

/** Decode one punycode label body (without `xn--`), RFC 3492. Throws on malformed input. */
export function decodePunycode(input: string): string {
  const out: number[] = [];
  const dash = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(dash, 0); j++) {
    if (input.charCodeAt(j) >= 0x80) throw new Error('Failed to decode punycode: non-ASCII basic code point');
    out.push(input.charCodeAt(j));
  }
  let n = 128;
  let i = 0;
  let bias = 72;
  for (let at = dash > 0 ? dash + 1 : 0; at < input.length; ) {
    const old = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (at >= input.length) throw new Error('Failed to decode punycode: truncated label');
      const c = input.charCodeAt(at++);
      const digit = c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : BASE;
      if (digit >= BASE) throw new Error('Failed to decode punycode: bad digit');
      i += digit * w;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    bias = adapt(i - old, out.length + 1, old === 0);
    n += Math.floor(i / (out.length + 1));
    if (n > 0x10ffff) throw new Error('Failed to decode punycode: code point out of range');
    i %= out.length + 1;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}

/** The host with every `xn--` label decoded (labels that fail to decode stay as they are). */
export function toUnicodeHost(host: string): string {
  return host
    .split('.')
    .map((label) => {
      if (!label.toLowerCase().startsWith('xn--')) return label;
      try {
        return decodePunycode(label.slice(4));
      } catch {
        return label;
      }
    })
    .join('.');
}

const isIp = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');

/** The registrable domain of a host name (the whole host for IPs and single labels). */
export function registrableDomain(hostname: string): string {
  const host = hostname.replace(/\.$/, '').toLowerCase();
  if (isIp(host)) return host;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const lastTwo = labels.slice(-2).join('.');
  const lastThree = labels.slice(-3).join('.');
  if (MULTI_SUFFIXES.has(lastThree) && labels.length > 3) return labels.slice(-4).join('.');
  return MULTI_SUFFIXES.has(lastTwo) ? lastThree : lastTwo;
}

const SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
];
/** Scripts that legitimately mix (Japanese and Korean writing). */
const FRIENDS: Record<string, string> = { Hiragana: 'Han', Katakana: 'Han', Hangul: 'Han' };

/** Letter scripts used by a (Unicode) host name, Japanese/Korean mixes folded into Han. */
export function scriptsOf(unicodeHost: string): string[] {
  const found = new Set<string>();
  for (const ch of unicodeHost) {
    const hit = SCRIPTS.find(([, re]) => re.test(ch));
    if (hit) found.add(FRIENDS[hit[0]] ?? hit[0]);
  }
  return [...found];
}

/** Analyse a URL an elicitation asks the user to open. */
export function analyzeUrl(raw: string): UrlAnalysis {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const parts = { prefix: '', subdomain: '', domain: '', rest: raw };
    return {
      ok: false,
      reason: 'This is not a valid absolute URL.',
      href: raw,
      host: '',
      unicodeHost: '',
      parts,
      punycode: false,
      mixedScripts: false,
      warnings: [],
    };
  }
  const warnings: string[] = [];
  const hostname = url.hostname;
  const domain = registrableDomain(hostname);
  const userinfo = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  const prefix = `${url.protocol}//${userinfo}`;
  const subdomain = hostname.toLowerCase().endsWith(domain) ? hostname.slice(0, hostname.length - domain.length) : '';
  const rest = url.href.slice(prefix.length + hostname.length);
  const unicodeHost = toUnicodeHost(hostname);
  const punycode = hostname.split('.').some((l) => l.toLowerCase().startsWith('xn--'));
  const scripts = scriptsOf(unicodeHost);
  const mixedScripts = scripts.length > 1;
  if (punycode) warnings.push(`The host is internationalized: ${hostname} displays as ${unicodeHost}. Look-alike letters can imitate another site.`);
  if (mixedScripts) warnings.push(`The host mixes ${scripts.join(' and ')} letters, a common way to imitate a familiar domain.`);
  if (userinfo) warnings.push(`Text before "@" is not the site: this link goes to ${hostname}.`);
  if (isIp(hostname)) warnings.push('The host is a bare IP address, not a domain name.');
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  if (url.protocol === 'http:') warnings.push('The link is not encrypted (http, not https).');
  return {
    ok: web,
    ...(web ? {} : { reason: `Only http and https links can be opened (this one is ${url.protocol}).` }),
    href: url.href,
    host: url.host,
    unicodeHost,
    parts: { prefix, subdomain, domain: web ? domain : hostname, rest },
    punycode,
    mixedScripts,
    warnings,
  };
}
