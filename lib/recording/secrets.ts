import type { Frame } from '../client/frames';
import { COOKIE_HEADER, SECRET_QUERY, SESSION_HEADER } from './connection';
import { secretHeaderKind } from './secret-headers';
import { answerFieldKind, isSecretValue, secretFieldKind } from './secret-names';
import type { Recording } from './schema';
import { asRecord } from '../shared/records';
import { findBodySecrets } from './body-secrets';
import { findCommandLineSecrets, findNamedText } from './named-text';

/**
 * Finding the secrets of a recording: credentials in headers (Authorization, cookies, API
 * keys, session ids), bearer tokens and `?token=`-style query parameters anywhere in text,
 * credential-named JSON fields, and task ids (bearer tokens by the spec) wherever a message
 * names them, the codes, verifiers, secrets and tokens of authorization flows (lane `auth`), and
 * keys, JWTs, private keys and passwords pasted into message text (body-secrets.ts).
 * Each distinct value gets one pseudonym of its kind, so the redacted recording
 * still shows that two requests used the same task or the same credential.
 */

/** The kinds of secret a recording is scanned for. */
export const SECRET_KINDS = [
  'authorization',
  'cookie',
  'token',
  'api-key',
  'session-id',
  'task-id',
  'oauth',
  'provider-key',
  'jwt',
  'private-key',
  'password',
] as const;
/** One kind of secret (see SECRET_KINDS). */
export type SecretKind = (typeof SECRET_KINDS)[number];

/** A secret value and the pseudonym that replaces it. */
export interface Secret {
  kind: SecretKind;
  value: string;
  pseudonym: string;
}

const PREFIX: Record<SecretKind, (n: number) => string> = {
  authorization: (n) => `redacted-credential-${n}`,
  cookie: (n) => `redacted-cookie-${n}`,
  token: (n) => `redacted-token-${n}`,
  'api-key': (n) => `redacted-api-key-${n}`,
  // At least 16 characters, like a real id, so the redacted session lints the same way.
  'session-id': (n) => `session${String(n).padStart(4, '0')}-redacted`,
  'task-id': (n) => `task${String(n).padStart(4, '0')}-redacted`,
  oauth: (n) => `redacted-oauth-${n}`,
  'provider-key': (n) => `redacted-provider-key-${n}`,
  jwt: (n) => `redacted-jwt-${n}`,
  'private-key': (n) => `redacted-private-key-${n}`,
  password: (n) => `redacted-password-${n}`,
};

/**
 * The secrets of an authorization flow's frames (lane `auth`), by form field, JSON key or
 * query parameter: codes, PKCE verifiers, `state`, client secrets and assertions, tokens. They
 * travel in form bodies, query strings and `Location` headers, where MCP traffic has none.
 */
const AUTH_FIELD = /^(code|code_verifier|state|client_secret|client_assertion|registration_access_token|device_code)$/i;
const AUTH_TOKEN_FIELD = /^(access_token|refresh_token|id_token|subject_token|assertion)$/i;

const BEARER = /\bBearer\s+([A-Za-z0-9\-._~+/]+=*)(")?/gi;

/**
 * Whether what follows "Bearer" in free text is a credential rather than a word: prose says
 * "Bearer tokens", and a `WWW-Authenticate: Bearer resource_metadata="…"` challenge names a
 * parameter (the match then ends in `="`). Replacing "tokens" would rewrite every occurrence of
 * the word in the recording, since a value gets one pseudonym everywhere.
 */
const credentialLike = (value: string, quoted: boolean) => !(quoted && value.endsWith('=')) && value.length >= 8 && (/\d/.test(value) || value.length >= 20);
const QUERY = /[?&#]([A-Za-z_][A-Za-z0-9_-]*)=([^&#\s"'<>\\]+)/g;

/** One of our pseudonyms, whole. */
const PSEUDONYM = /^(redacted-[a-z-]+-\d+|(task|session)\d{4,}-redacted)$/;
/** Our pseudonyms anywhere in a text. */
const PSEUDONYMS = /redacted-[a-z-]+-\d+|(task|session)\d{4,}-redacted/g;

/** Collects secrets, giving each distinct value one pseudonym. */
interface SecretCollector {
  add(kind: SecretKind, value: string | undefined): void;
  /** Scan free text for bearer tokens and credential query parameters. */
  scanText(text: string): void;
  scanHeaders(headers: Record<string, string> | undefined): void;
  /** Walk a JSON value: task ids, credential-named fields, and text. */
  scanJson(value: unknown): void;
  /** An auth-lane frame's form or JSON fields and the query of its URLs. */
  scanAuth(value: unknown): void;
  scanAuthUrl(url: string): void;
  readonly secrets: Map<string, Secret>;
}

/** A collector that gives each distinct secret one pseudonym of its kind, in the order found. */
function createSecretCollector(taken: ReadonlySet<string> = new Set()): SecretCollector {
  const secrets = new Map<string, Secret>();
  const counters = new Map<SecretKind, number>();
  const add = (kind: SecretKind, value: string | undefined) => {
    if (!value || value.length < 3 || secrets.has(value)) return;
    // Our own pseudonyms are not secrets (an export redacted twice keeps its names).
    if (PSEUDONYM.test(value)) return;
    // A pseudonym already in the recording (a session redacted before this one was appended) is not given again.
    let n = (counters.get(kind) ?? 0) + 1;
    while (taken.has(PREFIX[kind](n))) n++;
    counters.set(kind, n);
    const secret = { kind, value, pseudonym: PREFIX[kind](n) };
    secrets.set(value, secret);
    // The same value as a form body or a query string carries it (`+`, `/`, `=` escaped).
    for (const encoded of [encodeURIComponent(value), new URLSearchParams([['', value]]).toString().slice(1)])
      if (encoded !== value && !secrets.has(encoded)) secrets.set(encoded, { ...secret, value: encoded });
  };

  // The groups of BEARER, QUERY and the authorization pattern are not optional: a match has them all.
  function scanText(text: string): void {
    if (text.length < 8) return;
    for (const m of text.matchAll(BEARER)) if (credentialLike(m[1]!, m[2] !== undefined)) add('authorization', m[1]!);
    for (const b of findBodySecrets(text)) add(b.kind, b.value);
    for (const n of findNamedText(text)) add(n.kind, n.value);
    if (!text.includes('=')) return;
    for (const m of text.matchAll(QUERY)) {
      const name = m[1]!;
      const value = m[2]!;
      if (!SECRET_QUERY.test(name)) continue;
      const kind: SecretKind = /key/i.test(name) ? 'api-key' : 'token';
      add(kind, value);
      try {
        const decoded = decodeURIComponent(value);
        if (decoded !== value) add(kind, decoded);
      } catch {
        /* not percent-encoded */
      }
    }
  }

  function scanHeaders(headers: Record<string, string> | undefined): void {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (/^(proxy-)?authorization$/i.test(name)) {
        const m = /^\s*([A-Za-z][\w-]*)\s+(\S.*)$/.exec(value);
        add('authorization', m ? m[2]!.trim() : value.trim());
      } else if (COOKIE_HEADER.test(name)) {
        const pairs = /^set-cookie$/i.test(name) ? value.split(';').slice(0, 1) : value.split(/;\s*/);
        for (const pair of pairs) {
          const i = pair.indexOf('=');
          if (i <= 0) continue;
          const cookieName = pair.slice(0, i).trim();
          add(SECRET_QUERY.test(cookieName) ? 'token' : 'cookie', pair.slice(i + 1).trim());
        }
      } else if (SESSION_HEADER.test(name)) add('session-id', value.trim());
      else {
        const kind = secretHeaderKind(name);
        if (kind && isSecretValue(value)) add(kind, value.trim());
        else scanText(value);
      }
    }
  }

  /** `answer`: inside what a user typed into a server's form, where more names are secrets. */
  function scanJson(value: unknown, key?: string, answer = false): void {
    if (typeof value === 'string') {
      const named = key === undefined ? undefined : (answer ? answerFieldKind : secretFieldKind)(key, value);
      if (key === 'taskId') add('task-id', value);
      else if (named) add(named, value);
      else scanText(value);
      return;
    }
    // The items of a list are named by the list (`recoveryCodes: [...]`, `secrets: [...]`).
    if (Array.isArray(value)) {
      for (const v of value) scanJson(v, key, answer);
      return;
    }
    const o = asRecord(value);
    if (!o) return;
    // An elicitation answer (a 2025-11-25 result, a 2026-07-28 input response): its content is the user's.
    const accepted = o.action === 'accept' && asRecord(o.content) !== undefined;
    for (const [k, v] of Object.entries(o)) scanJson(v, k, answer || (accepted && k === 'content'));
  }

  function scanAuth(value: unknown, key?: string): void {
    if (typeof value === 'string') {
      if (key !== undefined && AUTH_FIELD.test(key)) add('oauth', value);
      else if (key !== undefined && AUTH_TOKEN_FIELD.test(key)) add('token', value);
      else scanJson(value, key);
      return;
    }
    if (Array.isArray(value)) for (const v of value) scanAuth(v);
    else for (const [k, v] of Object.entries(asRecord(value) ?? {})) scanAuth(v, k);
  }

  function scanAuthUrl(url: string): void {
    try {
      scanAuth(Object.fromEntries(new URL(url).searchParams));
    } catch {
      scanText(url);
    }
  }

  return { add, scanText, scanHeaders, scanJson: (v) => scanJson(v), scanAuth: (v) => scanAuth(v), scanAuthUrl, secrets };
}

/** Every secret of a frame. */
function scanFrame(c: SecretCollector, f: Frame): void {
  if (f.lane === 'auth') {
    if (f.auth?.url) c.scanAuthUrl(f.auth.url);
    if (f.headers?.location) c.scanAuthUrl(f.headers.location);
    c.scanAuth(f.body);
    // A form body's raw text is its fields again.
    if (f.raw !== undefined && f.body === undefined) c.scanAuth(Object.fromEntries(new URLSearchParams(f.raw)));
  }
  if (f.taskId) c.add('task-id', f.taskId);
  c.scanHeaders(f.headers);
  if (f.body !== undefined) c.scanJson(f.body);
  // Raw text that did not parse as JSON (or a comment) is scanned as text.
  if (f.raw !== undefined && f.body === undefined) c.scanText(f.raw);
  if (f.errorText) c.scanText(f.errorText);
}

/** Every secret of some frames, in the order first seen. */
export function collectFrameSecrets(frames: readonly Frame[]): Secret[] {
  const c = createSecretCollector();
  for (const f of frames) scanFrame(c, f);
  return [...c.secrets.values()];
}

/** Every secret of a recording, in the order first seen. */
export function collectSecrets(recording: Recording): Secret[] {
  // Pseudonyms the recording holds already keep their meaning: new secrets get other numbers.
  const c = createSecretCollector(new Set(JSON.stringify(recording).match(PSEUDONYMS) ?? []));
  for (const f of recording.frames) scanFrame(c, f);
  c.scanText(recording.connection.target);
  // Not a URL: a stdio command line, whose secret-named assignments are secrets whatever their shape.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(recording.connection.target))
    for (const s of findCommandLineSecrets(recording.connection.target)) c.add(s.kind, s.value);
  for (const html of Object.values(recording.apps)) c.scanText(html);
  return [...c.secrets.values()];
}
