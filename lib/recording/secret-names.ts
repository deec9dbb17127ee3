/**
 * Names that say their value is a secret: JSON fields (`session_token`, `x-api-key`,
 * `privateKey`, `AWS_SECRET`), and the header names the inspector masks and recordings redact.
 * A name is compared by its letters and digits only, in lower case, so snake, kebab, camel and
 * upper case spellings of one name are one name. The rules are an exact list plus a few
 * endings (`…token`, `…secret`, `…password`, `…api_key`), singular or plural, with the ids and
 * cursors that merely end like a credential (`progressToken`, `pageToken`, `nextToken`) and
 * counts (`maxTokens`) left out.
 */

import { looksRandom } from './random-value';

/** What kind of secret a named value is (a subset of the recording's kinds, secrets.ts). */
type NamedSecretKind = 'token' | 'api-key' | 'cookie' | 'private-key' | 'password' | 'session-id';

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
  cookiejar: 'cookie',
  // A Set-Cookie header copied into a field (`set_cookie`, `setCookie`): its cookie is the value.
  setcookie: 'cookie',
  pwd: 'password',
  // A Google service account's key id: it names the private key the file carries.
  privatekeyid: 'private-key',
};

/** Endings, after normalizing, in the order tried. */
const ENDINGS: readonly [RegExp, NamedSecretKind][] = [
  [/(password|passwd|passphrase|passcode)$/, 'password'],
  [/sessionid$/, 'session-id'],
  [/privatekey$/, 'private-key'],
  // `accountkey`: an Azure Storage connection string's `AccountKey=…` (its `SharedAccessKey=` ends in accesskey).
  [/(apikey|accesskey|secretkey|signingkey|accountkey)$/, 'api-key'],
  [/secret$/, 'token'],
  [/token$/, 'token'],
];

/**
 * Names that end like a credential but hold an id or a cursor: MCP's progressToken, and the
 * paging cursors of many APIs (`pageToken`, AWS's `nextToken`, `continuationToken`, `syncToken`),
 * which a client sends back to get the next page and which authorize nothing.
 */
const NOT_SECRET =
  /^(progress|cancellation|page|nextpage|prevpage|previouspage|next|prev|previous|continuation|sync|pagination|paging|cursor|resume|marker)tokens?$/;

/** Counts named in the plural (`maxTokens`, `total_tokens`, `cache_read_input_tokens`): numbers of tokens, not tokens. */
const TOKEN_COUNT = /(max|min|total|input|output|prompt|completion|cached|reasoning|num|remaining|used|context|generated)tokens$/;

/** The kind of a normalized name, singular. */
function singularKind(n: string): NamedSecretKind | undefined {
  if (NOT_SECRET.test(n)) return undefined;
  return EXACT[n] ?? ENDINGS.find(([ending]) => ending.test(n))?.[1];
}

/** The kind of secret a field or header of this name holds, or undefined when the name says nothing. */
export function secretNameKind(name: string): NamedSecretKind | undefined {
  const n = normalize(name);
  if (!n || NOT_SECRET.test(n)) return undefined;
  // A list of secrets is named in the plural (`tokens`, `apiKeys`, `secrets`, `passwords`).
  if (n.endsWith('s') && !TOKEN_COUNT.test(n)) return singularKind(n) ?? singularKind(n.slice(0, -1));
  return singularKind(n);
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

/** A PIN or a one-time code: 4 to 16 letters, digits and dashes, a digit among them. */
const isCode = (value: string) => /^(?=.*\d)[A-Za-z0-9-]{4,16}$/.test(value.trim());

/**
 * Names too common to redact on their own: a field `key` is as often a map key or a storage
 * object's key as an API key, `signature` a function's signature, `pin` a map pin. Their value
 * decides: a random-looking key or signature (random-value.ts), a PIN or one-time code made of
 * digits. `pinCode` is not among them: it is a postal code (India's PIN code) far more often.
 */
const WEAK: Record<string, [NamedSecretKind, (value: string) => boolean]> = {
  key: ['api-key', looksRandom],
  signature: ['token', looksRandom],
  sig: ['token', looksRandom],
  otp: ['password', isCode],
  totp: ['password', isCode],
  hotp: ['password', isCode],
  otpcode: ['password', isCode],
  mfacode: ['password', isCode],
  pin: ['password', isCode],
};

/** The kind of secret a JSON field holds, by its name and, for a common name, its value; undefined when it holds none. */
export function secretFieldKind(name: string, value: string): NamedSecretKind | undefined {
  const named = secretNameKind(name);
  if (named) return isSecretValue(value) ? named : undefined;
  const weak = WEAK[normalize(name)];
  return weak?.[1](value) ? weak[0] : undefined;
}

/**
 * Fields of an elicitation answer (what the user typed into a server's form) that are secrets
 * by name there, where `code` or `recovery` means a second factor, not source code or a setting.
 */
const ANSWER_SECRET =
  /^(pin|pincode|otp|totp|hotp|code|otpcode|mfa|mfacode|2fa|2facode|twofactor|twofactorcode|verificationcode|securitycode|securityanswer|recovery|recoverycodes?|recoverykey|backupcodes?|passcode|cvv2?|cvc2?|seedphrase|mnemonic)$/;

/** The kind of secret a field of an elicitation answer holds, or undefined. */
export function answerFieldKind(name: string, value: string): NamedSecretKind | undefined {
  if (ANSWER_SECRET.test(normalize(name)) && isSecretValue(value)) return 'password';
  return secretFieldKind(name, value);
}
