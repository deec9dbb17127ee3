import { utf8Bytes, type Frame } from '../client/frames';
import { fingerprint, sha256Hex } from '../shared/fingerprint';
import type { Recording } from './schema';
import { replaceNamedShort } from './named-text';
import { collectFrameSecrets, collectSecrets, SECRET_KINDS, type Secret, type SecretKind } from './secrets';

/**
 * Redaction, on by default for every export: each secret (see secrets.ts) is replaced by its
 * pseudonym everywhere it occurs: header values (Authorization, Cookie, Mcp-Name), params and
 * results, notifications, raw JSON and SSE text, error texts, lint messages (which show the
 * first 8 characters of a task id), the target URL and app HTML. The same value always gets
 * the same pseudonym, so the redacted session reads like the original.
 */

/** What the review screen lists before anything is published: one row per kind of secret. */
export interface ReviewItem {
  kind: SecretKind;
  label: string;
  /** Distinct values found. */
  distinct: number;
  /** Places replaced. */
  occurrences: number;
  /** A few values, masked (never shown in full), each with its pseudonym. */
  examples: { masked: string; pseudonym: string }[];
  /** Whether this kind is replaced in the export (false when the user chose to keep it). */
  redacted: boolean;
}

/** Choices of the review screen. */
interface RedactOptions {
  /** Kinds to leave as they are (the user's explicit choice on the review screen). */
  keep?: readonly SecretKind[];
  now?: () => number;
}

/** How the review screen names each kind of secret. */
const KIND_LABELS: Record<SecretKind, string> = {
  authorization: 'Authorization credentials (bearer tokens, Basic credentials)',
  cookie: 'Cookie values (Cookie headers, cookie and set_cookie fields)',
  token:
    'Tokens and credentials (query parameters, loupe_token, token, secret, auth, bearer and credentials headers and fields, X-Auth-style headers, signatures, client certificates, --token arguments and TOKEN= assignments)',
  'api-key': 'API keys (api_key, x-api-key, access_key, secret_access_key, AccountKey, subscription key headers and fields, random-looking key fields)',
  'session-id': 'Session ids (Mcp-Session-Id, X-Session headers, sessionId fields)',
  'task-id': 'Task ids (they act as bearer tokens)',
  oauth: 'OAuth codes, PKCE verifiers, state and client secrets',
  'provider-key': 'Provider keys in message text (sk-, sk_live_, ghp_, github_pat_, xox…, AKIA…, AIza…)',
  jwt: 'JWTs in message text',
  'private-key': 'Private keys (PEM blocks, private_key fields)',
  password: 'Passwords (password, passphrase and pwd fields, "password: …" in text, URL user info, PINs, one-time and recovery codes)',
};

/**
 * A secret shown without revealing it, since the review goes to terminals and CI logs: its
 * length, and for a long one (24 characters or more) its first 2 characters, enough to tell an
 * `sk-` key from a JWT and too few to guess from. A head and tail of 5 characters gave away
 * almost half of a 12-character secret.
 */
export function maskSecret(value: string): string {
  return value.length >= 24 ? `${value.slice(0, 2)}… (${value.length} chars)` : `••• (${value.length} chars)`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Builds the text replacer for a set of secrets, counting replacements per secret value. */
function createReplacer(secrets: Secret[]) {
  const map = new Map<string, Secret>();
  const counts = new Map<string, number>();
  const exact = new Map<string, Secret>();
  for (const s of secrets) {
    // Short values are replaced only where a whole string equals them; substrings would
    // mangle unrelated text.
    if (s.value.length < 8) {
      exact.set(s.value, s);
      continue;
    }
    map.set(s.value, s);
    const escaped = JSON.stringify(s.value).slice(1, -1);
    if (escaped !== s.value) map.set(escaped, { ...s, pseudonym: JSON.stringify(s.pseudonym).slice(1, -1) });
    if (s.kind === 'task-id') {
      // Logs name task ids by fingerprint; recordings made before lints did too named them by
      // their first 8 characters.
      map.set(`${s.value.slice(0, 8)}…`, { ...s, pseudonym: `${s.pseudonym.slice(0, 8)}…` });
      map.set(fingerprint(s.value), { ...s, pseudonym: fingerprint(s.pseudonym) });
    }
  }
  const keys = [...map.keys()].sort((a, b) => b.length - a.length);
  const pattern = keys.length ? new RegExp(keys.map(escapeRegExp).join('|'), 'g') : undefined;
  const bump = (s: Secret) => counts.set(s.value, (counts.get(s.value) ?? 0) + 1);
  const text = (value: string): string => {
    const whole = exact.get(value);
    if (whole) {
      bump(whole);
      return whole.pseudonym;
    }
    if (value.length < 8) return value;
    const out = pattern
      ? value.replace(pattern, (m) => {
          const s = map.get(m)!;
          bump(s);
          return s.pseudonym;
        })
      : value;
    if (!exact.size) return out;
    // Short secrets are replaced where text names them ("password hunter2", `user:pw9@`, `--pin 8264`), not as substrings.
    return replaceNamedShort(out, (v) => {
      const s = exact.get(v);
      if (s) bump(s);
      return s?.pseudonym;
    });
  };
  const json = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(json);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[text(k)] = json(v);
      return out;
    }
    return value;
  };
  /** A secret-bearing header value: cookies pair by pair, credentials after their scheme, whatever their length. */
  const header = (name: string, value: string): string => {
    const lower = name.toLowerCase();
    if (lower === 'cookie' || lower === 'set-cookie') {
      return value.replace(/(^|;\s*)([^=;\s]+)=([^;]*)/g, (m, sep: string, key: string, v: string) => {
        const s = exact.get(v.trim()) ?? map.get(v.trim());
        if (!s) return m;
        bump(s);
        return `${sep}${key}=${s.pseudonym}`;
      });
    }
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const m = /^(\s*[A-Za-z][\w-]*\s+)(\S.*)$/.exec(value);
      // Both groups are not optional: a match has them.
      const s = m ? exact.get(m[2]!.trim()) : undefined;
      if (m && s) {
        bump(s);
        return `${m[1]}${s.pseudonym}`;
      }
    }
    return text(value);
  };
  return { text, json, header, counts };
}

function redactFrame(f: Frame, r: ReturnType<typeof createReplacer>): Frame {
  const out: Frame = { ...f };
  if (f.taskId !== undefined) out.taskId = r.text(f.taskId);
  if (f.headers) out.headers = Object.fromEntries(Object.entries(f.headers).map(([k, v]) => [k, r.header(k, v)]));
  if (f.body !== undefined) out.body = r.json(f.body);
  if (f.errorText !== undefined) out.errorText = r.text(f.errorText);
  if (f.auth !== undefined) out.auth = r.json(f.auth) as Frame['auth'];
  if (f.raw !== undefined) {
    let raw = r.text(f.raw);
    // Raw JSON must stay JSON; if a replacement broke it, write the redacted body instead.
    if (f.body !== undefined && raw !== f.raw) {
      try {
        JSON.parse(raw);
      } catch {
        raw = JSON.stringify(out.body);
      }
    }
    out.raw = raw;
    out.bytes = utf8Bytes(raw);
  } else if (out.body !== undefined && out.body !== f.body) out.bytes = utf8Bytes(JSON.stringify(out.body));
  return out;
}

/**
 * The frames with every authorization step (lane `auth`) redacted and the rest as they are:
 * what a recording written during a session keeps, so codes, verifiers, client secrets and
 * tokens never reach the disk even before an export.
 */
export function redactAuthLane(frames: readonly Frame[]): Frame[] {
  const auth = frames.filter((f) => f.lane === 'auth');
  if (!auth.length) return [...frames];
  const r = createReplacer(collectFrameSecrets(auth));
  return frames.map((f) => (f.lane === 'auth' ? redactFrame(f, r) : f));
}

/** The secrets of a recording and the redacted copy; `items` is what the review screen lists. */
export function redactRecording(recording: Recording, options: RedactOptions = {}): { recording: Recording; items: ReviewItem[] } {
  const keep = new Set(options.keep ?? []);
  const secrets = collectSecrets(recording);
  const replaced = secrets.filter((s) => !keep.has(s.kind));
  const r = createReplacer(replaced);
  const frames = recording.frames.map((f) => redactFrame(f, r));
  const apps: Record<string, string> = {};
  const digests = new Map<string, string>();
  for (const [digest, html] of Object.entries(recording.apps)) {
    const redacted = r.text(html);
    const next = redacted === html ? digest : sha256Hex(redacted);
    digests.set(digest, next);
    apps[next] = redacted;
  }
  const out: Recording = {
    ...recording,
    connection: r.json(recording.connection) as Recording['connection'],
    frames,
    streams: r.json(recording.streams) as Recording['streams'],
    lints: r.json(recording.lints) as Recording['lints'],
    apps,
    views: recording.views.map((v) => ({ ...(r.json(v) as typeof v), digest: digests.get(v.digest) ?? v.digest })),
  };
  const items: ReviewItem[] = [];
  for (const kind of SECRET_KINDS) {
    const of = secrets.filter((s) => s.kind === kind);
    if (!of.length) continue;
    // A value's percent-encoded forms share its pseudonym: one value, not several.
    const firsts = of.filter((s, i) => of.findIndex((o) => o.pseudonym === s.pseudonym) === i);
    items.push({
      kind,
      label: KIND_LABELS[kind],
      distinct: firsts.length,
      occurrences: of.reduce((n, s) => n + (r.counts.get(s.value) ?? 0), 0),
      examples: firsts.slice(0, 3).map((s) => ({ masked: maskSecret(s.value), pseudonym: s.pseudonym })),
      redacted: !keep.has(kind),
    });
  }
  out.redaction = {
    redactedAt: new Date((options.now ?? Date.now)()).toISOString(),
    counts: Object.fromEntries(items.filter((i) => i.redacted).map((i) => [i.kind, i.distinct])),
  };
  return { recording: out, items };
}

/** What will be published, per kind of secret, for the review screen (nothing is changed). */
export function reviewItems(recording: Recording, options: RedactOptions = {}): ReviewItem[] {
  return redactRecording(recording, options).items;
}
