import { base64url } from './runtime';

/**
 * Integrity-protected `requestState`: base64url(JSON payload) "." base64url(HMAC-SHA256).
 * The payload binds principal, method, a digest of the salient params and an expiry, so a
 * state minted for one caller or request cannot be replayed elsewhere or tampered with.
 */

/** What a requestState carries (short keys keep the token small). */
export interface StatePayload {
  /** principal */
  p: string;
  /** method */
  m: string;
  /** digest of salient params */
  d: string;
  /** expiry, epoch ms */
  e: number;
  /** MRTR round */
  r: number;
  /** gathered answers */
  a: Record<string, unknown>;
  /** one-time nonce, when the handler needs at-most-once */
  n?: string;
  /** handler data */
  x?: Record<string, unknown>;
}

type VerifyOutcome = { ok: true; payload: StatePayload } | { ok: false; reason: string };

function fromBase64url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  const bin = atob(b64);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Canonical JSON (sorted keys) so digests do not depend on key order. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(',')}}`;
}

/** SHA-256 of canonical JSON, base64url. */
export async function digest(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(value));
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/** Create a signer bound to one secret. */
export function createStateCodec(secret: string | Uint8Array) {
  const raw = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  const keyPromise = crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

  return {
    async sign(payload: StatePayload): Promise<string> {
      const body = base64url(new TextEncoder().encode(JSON.stringify(payload)));
      const mac = await crypto.subtle.sign('HMAC', await keyPromise, new TextEncoder().encode(body));
      return `${body}.${base64url(new Uint8Array(mac))}`;
    },
    async verify(token: unknown, expect: { principal: string; method: string; digest: string; now: number }): Promise<VerifyOutcome> {
      if (typeof token !== 'string') return { ok: false, reason: 'requestState must be a string' };
      // Ours are a few hundred characters: a longer one was not issued here, and is not read.
      if (token.length > 64 * 1024)
        return { ok: false, reason: `requestState is ${token.length} characters, longer than any this server issues (64 KiB at most)` };
      const dot = token.indexOf('.');
      if (dot <= 0 || dot !== token.lastIndexOf('.')) return { ok: false, reason: 'requestState is malformed' };
      const body = token.slice(0, dot);
      let mac: Uint8Array;
      try {
        mac = fromBase64url(token.slice(dot + 1));
      } catch {
        return { ok: false, reason: 'requestState is malformed' };
      }
      const valid = await crypto.subtle.verify('HMAC', await keyPromise, mac as BufferSource, new TextEncoder().encode(body));
      if (!valid) return { ok: false, reason: 'requestState failed its integrity check' };
      let payload: StatePayload;
      try {
        payload = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as StatePayload;
      } catch {
        return { ok: false, reason: 'requestState is malformed' };
      }
      if (payload.p !== expect.principal) return { ok: false, reason: 'requestState belongs to another principal' };
      if (payload.m !== expect.method || payload.d !== expect.digest) return { ok: false, reason: 'requestState was issued for a different request' };
      if (payload.e <= expect.now) return { ok: false, reason: 'requestState has expired' };
      return { ok: true, payload };
    },
  };
}
/** Signs and verifies requestState tokens with the engine's key. */
export type StateCodec = ReturnType<typeof createStateCodec>;
