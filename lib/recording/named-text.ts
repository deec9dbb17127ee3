import { PASSWORD_TEXT, USERINFO } from './body-secrets';
import { secretHeaderKind } from './secret-headers';
import { looksRandom } from './random-value';
import { secretFieldKind } from './secret-names';

/**
 * Credentials written into text under their name: `api_key=…`, `token: …`, `X-Api-Key: …`,
 * `Authorization: Token …` (a header or a config line pasted into a message), and a command
 * line's `--token VALUE` or `--token=VALUE` (a stdio server's arguments). The name is read by
 * the rules headers and fields are read by (secret-headers.ts, secret-names.ts); the value must
 * look like a credential, since prose follows such words too ("token: expired").
 */

/** What kind of secret a named value is (a subset of the recording's kinds, secrets.ts). */
type NamedTextKind = 'token' | 'api-key' | 'cookie' | 'private-key' | 'password' | 'session-id' | 'authorization';

/** A secret found in text by its name. */
interface NamedTextSecret {
  kind: NamedTextKind;
  value: string;
}

/** `name: value`, `name=value`, `"name":"value"` (raw JSON). Group 1 is the name, 2 the value. */
const NAMED = /(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_-]{1,60})\\?["']?\s*[:=]\s*\\?["']?([A-Za-z0-9._~+/=-]{3,})/g;

/** `Authorization: Token …`: a credential after its scheme word (`Token`, `Bot`, `Bearer`). Group 1 is the value. */
const AUTH_SCHEME = /\b(?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?[A-Za-z][A-Za-z0-9-]* +([A-Za-z0-9._~+/=-]{3,})/gi;

/** `--name VALUE`, `--name=VALUE`, quoted or not. Group 1 is the name, 3 the value. */
const ARG = /(?<=^|\s)--([A-Za-z][A-Za-z0-9_-]*)(?:=|\s+)(["']?)([^\s"'-][^\s"']*)\2/g;

/** A credential after a name that is surely one (`token`, `api_key`): 8 or more characters with a digit, or 20 or more. */
const credentialShaped = (value: string) => value.length >= 8 && (/\d/.test(value) || value.length >= 20) && !/^redacted-/.test(value);

/** The kind of a `name: value` secret, or undefined when the name says nothing or the value looks like prose. */
function namedKind(name: string, value: string): NamedTextKind | undefined {
  if (!credentialShaped(value)) return undefined;
  if (/^(proxy-)?authorization$/i.test(name)) return 'authorization';
  const field = secretFieldKind(name, value);
  if (field) return field;
  // A header-only name (`X-Custom-Auth`, `Ocp-Apim-Subscription-Key`): an auth word, or a random-looking value.
  const header = secretHeaderKind(name);
  return header && (/auth/i.test(name) || looksRandom(value)) ? header : undefined;
}

/** The secrets a text names: `name: value` shapes and `--name value` arguments. */
export function findNamedText(text: string): NamedTextSecret[] {
  const out: NamedTextSecret[] = [];
  if (/[:=]/.test(text)) {
    // The groups of NAMED, AUTH_SCHEME and ARG are not optional, but for ARG's quote: a match has them.
    for (const m of text.matchAll(NAMED)) {
      const kind = namedKind(m[1]!, m[2]!);
      if (kind) out.push({ kind, value: m[2]! });
    }
    for (const m of text.matchAll(AUTH_SCHEME)) if (credentialShaped(m[1]!)) out.push({ kind: 'authorization', value: m[1]! });
  }
  if (text.includes('--'))
    for (const m of text.matchAll(ARG)) {
      const kind = secretFieldKind(m[1]!, m[3]!) ?? (/auth/i.test(m[1]!) ? secretHeaderKind(m[1]!) : undefined);
      if (kind) out.push({ kind, value: m[3]! });
    }
  return out;
}

/** `NAME=VALUE` at the start of a word: an environment assignment on a command line. Group 1 is the name, 2 the value. */
const ASSIGNMENT = /(?<=^|\s)([A-Za-z_][A-Za-z0-9_]*)=(["']?)([^\s"']+)\2/g;

/**
 * The secrets a stdio command line assigns to secret-named variables (`TOKEN=…`, `API_KEY=…`),
 * whatever their shape, as `--token VALUE` is read: a command line holds no prose.
 */
export function findCommandLineSecrets(commandLine: string): NamedTextSecret[] {
  const out: NamedTextSecret[] = [];
  for (const m of commandLine.matchAll(ASSIGNMENT)) {
    const kind = secretFieldKind(m[1]!, m[3]!);
    if (kind) out.push({ kind, value: m[3]! });
  }
  return out;
}

/**
 * Short secrets (under 8 characters, never replaced as substrings) replaced where text names
 * them: `password hunter2`, a URL's `user:pw9@`, `token=abc1`, `--pin 8264`. `find` gives the
 * pseudonym of a known short secret; values it does not know stay.
 */
export function replaceNamedShort(text: string, find: (value: string) => string | undefined): string {
  const swap = (m: string, value: string, tail = '') => {
    const pseudonym = find(value);
    if (pseudonym === undefined) return m;
    const at = m.length - value.length - tail.length;
    return `${m.slice(0, at)}${pseudonym}${tail}`;
  };
  return text
    .replace(PASSWORD_TEXT, (m, _sep: string, v: string) => swap(m, v))
    .replace(USERINFO, (m, v: string) => swap(m, v, '@'))
    .replace(NAMED, (m, _name: string, v: string) => swap(m, v))
    .replace(AUTH_SCHEME, (m, v: string) => swap(m, v))
    .replace(ARG, (m, _name: string, q: string, v: string) => swap(m, v, q));
}
