import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import { openRecording, serializeRecording, type OpenResult, type Recording } from './schema';

/**
 * Share links: the recording, deflated (fflate) and base64url-encoded, travels in the URL
 * fragment `#rec=...`. Browsers never send the fragment to a server, so opening the link
 * reveals nothing to Loupe's host or anyone on the path. Links are capped at
 * {@link MAX_SHARE_FRAGMENT_BYTES}; larger recordings are exported as a file instead.
 */

/** The largest fragment a share link carries: 1.5 MB (browsers accept URLs of about 2 MB). */
export const MAX_SHARE_FRAGMENT_BYTES = 1_500_000;
/** The same limit, as the UI states it. */
export const MAX_SHARE_LABEL = '1.5 MB';
/** Largest recording a link may inflate to (a guard against decompression bombs). */
const MAX_SHARED_RECORDING_BYTES = 64 * 1024 * 1024;
/** The fragment parameter. */
const SHARE_PARAM = 'rec';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) LOOKUP[B64.charCodeAt(i)] = i;

/** base64url without padding (works in browsers and Node without Buffer). */
export function toBase64Url(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const left = bytes.length - i;
    const digit = (shift: number) => B64.charAt((n >> shift) & 63);
    chunk += digit(18) + digit(12) + (left > 1 ? digit(6) : '') + (left > 2 ? digit(0) : '');
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = '';
    }
  }
  parts.push(chunk);
  return parts.join('');
}

/** Decode base64url (padding and standard-alphabet characters tolerated); undefined when invalid. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  const clean = text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  if (clean.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    let n = 0;
    let k = 0;
    for (; k < 4 && i + k < clean.length; k++) {
      const c = clean.charCodeAt(i + k);
      // Past the table (code 128 and up) is no base64url character either.
      const v = LOOKUP[c] ?? -1;
      if (v < 0) return undefined;
      n |= v << (18 - 6 * k);
    }
    out[o++] = (n >> 16) & 255;
    if (k > 2) out[o++] = (n >> 8) & 255;
    if (k > 3) out[o++] = n & 255;
  }
  return out.subarray(0, o);
}

/** A share link's fragment, or why the recording cannot be shared as a link. */
export type ShareOutcome =
  | { ok: true; fragment: string; bytes: number }
  | { ok: false; reason: 'too-large'; bytes: number; limit: number; message: string }
  | { ok: false; reason: 'not-redacted'; message: string };

/**
 * The `#rec=...` fragment for a recording. Recordings are redacted before they are shared:
 * an unredacted one is refused unless the caller says the user chose to keep its secrets.
 */
export function shareFragment(recording: Recording, options: { allowUnredacted?: boolean } = {}): ShareOutcome {
  if (!recording.redaction && !options.allowUnredacted)
    return { ok: false, reason: 'not-redacted', message: 'Redact the recording before sharing it (review what will be published first).' };
  const packed = deflateSync(strToU8(serializeRecording(recording)), { level: 9 });
  const fragment = `#${SHARE_PARAM}=${toBase64Url(packed)}`;
  if (fragment.length > MAX_SHARE_FRAGMENT_BYTES) {
    return {
      ok: false,
      reason: 'too-large',
      bytes: fragment.length,
      limit: MAX_SHARE_FRAGMENT_BYTES,
      message: `Too large for a link (${(fragment.length / 1e6).toFixed(1)} MB compressed; links carry up to ${MAX_SHARE_LABEL}): export a file instead.`,
    };
  }
  return { ok: true, fragment, bytes: fragment.length };
}

/** A full share URL: `base` (e.g. `http://127.0.0.1:3000/recording`) plus the fragment. */
export function shareLink(recording: Recording, base: string, options: { allowUnredacted?: boolean } = {}): ShareOutcome & { url?: string } {
  const out = shareFragment(recording, options);
  return out.ok ? { ...out, url: `${base.replace(/#.*$/, '')}${out.fragment}` } : out;
}

/** Inflate with a cap on the output size. */
function inflateCapped(data: Uint8Array, max: number): Uint8Array | string {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > max) over = true;
    else chunks.push(chunk);
  });
  try {
    const step = 4096;
    for (let i = 0; i < data.length && !over; i += step) inflater.push(data.subarray(i, i + step), i + step >= data.length);
  } catch (e) {
    return `the link is damaged (${(e as Error).message})`;
  }
  if (over) return `the recording in the link is larger than ${MAX_SHARED_RECORDING_BYTES / 1024 / 1024} MB`;
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** Open the recording carried by a URL fragment (`#rec=...`, with or without `#`), or say why not. */
export function openShareFragment(hash: string): OpenResult {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const payload = params.get(SHARE_PARAM);
  if (payload === '')
    return { ok: false, error: `The link's #${SHARE_PARAM}= fragment is empty: the recording was cut off the link, copy the whole link again` };
  if (!payload) return { ok: false, error: `The link carries no recording (no #${SHARE_PARAM}= fragment)` };
  const bytes = fromBase64Url(payload);
  if (!bytes) return { ok: false, error: 'The link is damaged: the recording is not valid base64url' };
  const inflated = inflateCapped(bytes, MAX_SHARED_RECORDING_BYTES);
  if (typeof inflated === 'string') return { ok: false, error: `Cannot open the link: ${inflated}` };
  let doc: unknown;
  try {
    doc = JSON.parse(strFromU8(inflated));
  } catch (e) {
    return { ok: false, error: `The link is damaged: ${(e as Error).message}` };
  }
  return openRecording(doc);
}
