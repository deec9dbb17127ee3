/**
 * Names that say their value is a secret: JSON fields (`session_token`, `x-api-key`,
 * `privateKey`, `AWS_SECRET`), and the header names the inspector masks and recordings redact.
 * A name is compared by its letters and digits only, in lower case, so snake, kebab, camel and
 * upper case spellings of one name are one name. The rules are an exact list plus a few
 * endings (`…token`, `…secret`, `…password`, `…api_key`), with the ids that merely end like
 * a credential (`progressToken`, `pageToken`) left out.
 */

/** What kind of secret a named value is (a subset of the recording's kinds, secrets.ts). */
type NamedSecretKind = 'token' | 'api-key' | 'cookie' | 'private-key' | 'password';

/** `session_token`, `Session-Token`, `sessionToken` → `sessiontoken`. */
const normalize = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whole names, after normalizing. */
const EXACT: Record<string, NamedSecretKind> = {
  token: 'token',
  secret: 'token',
  auth: 'token',
  authorization: 'token',
  proxyauthorization: 'token',
  bearer: 'token',
  credential: 'token',
  credentials: 'token',
  cookie: 'cookie',
  cookies: 'cookie',
  pwd: 'password',
};

/** Endings, after normalizing, in the order tried. */
const ENDINGS: readonly [RegExp, NamedSecretKind][] = [
  [/(password|passwd|passphrase)$/, 'password'],
  [/privatekey$/, 'private-key'],
  [/(apikey|accesskey|secretkey|signingkey)$/, 'api-key'],
  [/secret$/, 'token'],
  [/token$/, 'token'],
];

/** Names that end like a credential but hold an id or a cursor (MCP's progressToken, paging). */
const NOT_SECRET = /^(progresstoken|pagetoken|nextpagetoken|continuationtoken|cancellationtoken|synctoken)$/;

/** The kind of secret a field or header of this name holds, or undefined when the name says nothing. */
export function secretNameKind(name: string): NamedSecretKind | undefined {
  const n = normalize(name);
  if (!n || NOT_SECRET.test(n)) return undefined;
  const exact = EXACT[n];
  if (exact) return exact;
  return ENDINGS.find(([ending]) => ending.test(n))?.[1];
}

/**
 * Values of a secret-named field that are no secret: a setting (`"auth": "none"`, `"auth":
 * "oauth2"`), a placeholder. Redacting them would rewrite every equal string in the recording.
 */
const NOT_A_SECRET_VALUE =
  /^(none|null|nil|true|false|yes|no|on|off|undefined|empty|required|optional|include|omit|same-origin|bearer|basic|digest|oauth2?|api[-_]?key|\*+|•+|x{3,}|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\})$/i;

/** Whether a secret-named field's value is worth redacting. */
export function isSecretValue(value: string): boolean {
  return !NOT_A_SECRET_VALUE.test(value.trim());
}
