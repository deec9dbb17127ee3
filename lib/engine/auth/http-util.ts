import { sha256Hex } from '../../shared/fingerprint';
import type { HttpOutput } from '../http-types';

/** Small HTTP and secret helpers shared by the authorization server's endpoints. */

/** What an auth endpoint answers, before it goes on the wire: the body as an object for the journal. */
export interface AuthReply {
  status: number;
  headers: Record<string, string>;
  /** JSON body (an object), HTML text, or nothing (a redirect). */
  json?: Record<string, unknown>;
  html?: string;
}

/** OAuth answers must never be cached (RFC 6749 §5.1). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** A JSON answer. */
export function jsonReply(status: number, json: Record<string, unknown>, headers: Record<string, string> = {}): AuthReply {
  return { status, headers: { 'Content-Type': 'application/json', ...NO_STORE, ...headers }, json };
}

/** An OAuth error answer (RFC 6749 §5.2). */
export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): AuthReply {
  return jsonReply(status, { error, error_description: description }, headers);
}

/** A 302 to `location`. */
export function redirectReply(location: string): AuthReply {
  return { status: 302, headers: { Location: location, ...NO_STORE } };
}

/**
 * An HTML page (the manual consent page). The page may not be framed (clickjacking). Browsers
 * apply `form-action` to the redirects that follow a form post too, so the origin the consent
 * answer is redirected to (the client's redirect URI) must be listed beside 'self', or the
 * person's Approve ends on a blocked navigation instead of at the client.
 */
export function htmlReply(status: number, html: string, formTargets: readonly string[] = []): AuthReply {
  const targets = formTargets.filter((t) => /^https?:\/\/[^\s;,']+$/.test(t));
  return {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...targets].join(' ')}; frame-ancestors 'none'`,
      ...NO_STORE,
    },
    html,
  };
}

/** The wire form of a reply. */
export function toOutput(reply: AuthReply): HttpOutput {
  const body = reply.json ? JSON.stringify(reply.json) : reply.html;
  return { status: reply.status, headers: reply.headers, ...(body === undefined ? {} : { body }) };
}

/**
 * A secret as the journal keeps it: a hash prefix, so the report card can tell whether two
 * requests carried the same value (a code, a verifier) without the journal holding it.
 */
function redacted(secret: string): string {
  return `[redacted ${sha256Hex(secret).slice(0, 12)}]`;
}

/** Parameter names whose values are secrets wherever they appear (form, query, JSON, Location). */
const SECRET_PARAMS = new Set([
  'code',
  'code_verifier',
  'client_secret',
  'client_assertion',
  'refresh_token',
  'access_token',
  'id_token',
  'registration_access_token',
]);

/** A copy of a parameter record with secret values redacted. */
export function redactParams(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, SECRET_PARAMS.has(k) && typeof v === 'string' ? redacted(v) : v]));
}

/** Request headers for the journal: credentials (the named headers) reduced to their scheme and a hash. */
export function redactHeaders(headers: Record<string, string>, names: readonly string[] = ['authorization', 'cookie', 'dpop']): Record<string, string> {
  const out = { ...headers };
  for (const name of names) {
    const v = out[name];
    if (v === undefined) continue;
    const [scheme = '', ...rest] = v.split(' ');
    out[name] = rest.length ? `${scheme} ${redacted(rest.join(' '))}` : redacted(v);
  }
  return out;
}

/** A URL with secret query parameters redacted (an authorization response's Location). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const k of [...u.searchParams.keys()]) if (SECRET_PARAMS.has(k)) u.searchParams.set(k, redacted(u.searchParams.get(k) ?? ''));
    return u.toString();
  } catch {
    return '[unparsable url]';
  }
}

/** Form fields of a body (application/x-www-form-urlencoded), or JSON object fields. */
export function parseFields(text: string, contentType: string | null): Record<string, string> {
  if ((contentType ?? '').toLowerCase().includes('application/json')) {
    try {
      const v: unknown = JSON.parse(text);
      if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
      return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** `Authorization: Basic` credentials (RFC 6749 §2.3.1: each half form-encoded), or undefined. */
export function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return undefined;
  let text: string;
  try {
    text = new TextDecoder().decode(Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const at = text.indexOf(':');
  if (at < 0) return undefined;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { id: decode(text.slice(0, at)), secret: decode(text.slice(at + 1)) };
}

/** BASE64URL(SHA-256(verifier)), the S256 code challenge (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  const hex = sha256Hex(verifier);
  const bytes = Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** A loopback http(s) URL (where a local client's redirect, or a test's CIMD document, may live). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

/** Escape text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
