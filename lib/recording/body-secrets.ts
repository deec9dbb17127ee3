/**
 * Secrets people paste into message bodies (a tool argument, an echoed result): provider keys
 * and tokens recognised by their published shapes, JWTs, PEM private keys, passwords
 * written as `password: value` or in a URL's user info (`postgres://admin:pw@db`), and
 * `Basic <base64 of user:password>` credentials. Header credentials are found by name (secrets.ts); these have
 * no name to go by, so each shape is narrow (a fixed prefix plus enough random-looking
 * characters) to leave ordinary text, ids and base64 images alone.
 */

/** What kind of body secret a shape is. */
type BodySecretKind = 'provider-key' | 'jwt' | 'private-key' | 'password' | 'authorization';

/** A body secret found in text. */
interface BodySecret {
  kind: BodySecretKind;
  value: string;
}

// `(?<![\w-])` instead of `\b`: a key inside a longer word or id (`mask-…`, `desk-…`) is not one.
const EDGE = '(?<![A-Za-z0-9_-])';
const END = '(?![A-Za-z0-9_-])';

/** Provider keys by shape. OpenAI-style `sk-…` must hold a digit, so hyphenated prose is not one. */
const PROVIDER_SHAPES: readonly RegExp[] = [
  new RegExp(`${EDGE}sk-(?=[A-Za-z0-9_-]*\\d)[A-Za-z0-9_-]{20,}${END}`, 'g'),
  new RegExp(`${EDGE}(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}${END}`, 'g'),
  new RegExp(`${EDGE}rk_[A-Za-z0-9]{20,}${END}`, 'g'),
  new RegExp(`${EDGE}gh[pousr]_[A-Za-z0-9]{30,}${END}`, 'g'),
  new RegExp(`${EDGE}github_pat_[A-Za-z0-9_]{22,}${END}`, 'g'),
  new RegExp(`${EDGE}xox[abpr]-[A-Za-z0-9-]{10,}${END}`, 'g'),
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  new RegExp(`${EDGE}AIza[0-9A-Za-z_-]{35}${END}`, 'g'),
];

/** A JWT: a JSON header and a JSON payload (both start `eyJ` in base64url), then a signature. */
const JWT = new RegExp(`${EDGE}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*${END}`, 'g');

/** A PEM private key block, whole (its body is the secret; the armour lines say what it was). */
const PEM = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g;

/**
 * `password: value`, `passwd=value`, `password hunter2`, and `"password":"value"` in raw JSON.
 * Group 1 is the separator, group 2 the value.
 */
export const PASSWORD_TEXT = /\b(?:password|passwd)(\\?["']?\s*[:=]\s*\\?["']?|\s+(?:is\s+)?)([^\s"'\\,;&<>)\]}]{3,})/gi;

/** A URL's user info with a password: `scheme://user:password@host`. Group 1 is the password. */
export const USERINFO = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/?#@"'<>\\]+:([^\s/?#@"'<>\\]+)@/g;

/** `Basic <base64>` in text; the value counts only when it decodes to `user:password` (below). */
const BASIC = /\bBasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi;

/** Whether base64 text is a Basic credential: printable text with a colon after a user name. */
function isBasicCredential(base64: string): boolean {
  let decoded: string;
  try {
    decoded = atob(base64);
  } catch {
    return false;
  }
  return /^[\x20-\x7e]+$/.test(decoded) && decoded.indexOf(':') > 0;
}

/** Words that follow "password" in prose without being one. */
const PROSE = /^(is|was|and|or|to|for|the|a|an|of|in|on|with|field|reset|required|must|should|will|has|have|not|manager|policy|change|changed|please)$/i;
/** Values that stand for "no password here". */
const PLACEHOLDER = /^(\*+|•+|x{3,}|null|none|undefined|empty|<[^>]*>|\$\{[^}]*\}|redacted-[a-z-]+-\d+)$/i;

/**
 * Whether a `password …` match names a password. After `:` or `=` any non-placeholder value
 * does; after a space only a value with a digit or a symbol, since prose follows the word too.
 */
function isPasswordValue(separator: string, value: string): boolean {
  if (PLACEHOLDER.test(value)) return false;
  if (/[:=]/.test(separator)) return true;
  return !PROSE.test(value) && /[\d\W_]/.test(value);
}

/** The body secrets of a text, in order of appearance. */
export function findBodySecrets(text: string): BodySecret[] {
  if (text.length < 8) return [];
  const out: { at: number; secret: BodySecret }[] = [];
  const push = (kind: BodySecretKind, m: RegExpMatchArray, value = m[0]) => out.push({ at: m.index ?? 0, secret: { kind, value } });
  if (text.includes('PRIVATE KEY-----')) for (const m of text.matchAll(PEM)) push('private-key', m);
  if (text.includes('eyJ')) for (const m of text.matchAll(JWT)) push('jwt', m);
  for (const shape of PROVIDER_SHAPES) for (const m of text.matchAll(shape)) push('provider-key', m);
  if (text.includes('://')) for (const m of text.matchAll(USERINFO)) if (!PLACEHOLDER.test(m[1]!)) push('password', m, m[1]!);
  if (/basic/i.test(text)) for (const m of text.matchAll(BASIC)) if (isBasicCredential(m[1]!)) push('authorization', m, m[1]!);
  if (/pass(?:word|wd)/i.test(text))
    for (const m of text.matchAll(PASSWORD_TEXT)) {
      // Both groups are not optional: a match has them.
      if (isPasswordValue(m[1]!, m[2]!)) push('password', m, m[2]!);
    }
  return out.sort((a, b) => a.at - b.at).map((o) => o.secret);
}
