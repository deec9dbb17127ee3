import { APP_MIME_TYPE, UiResourceMetaSchema, type UiResourceMeta } from '../protocol';
import type { RequestOutcome } from './results';
import { asRecord } from '../shared/records';

/**
 * A UI resource as a host renders it: the HTML of a `ui://` resources/read, its `_meta.ui`
 * (from the content item, else from the resources/list entry), the caching hints that came
 * with it, and the SHA-256 of the HTML (shown to the user, and part of the cache identity).
 */

export interface AppResource {
  uri: string;
  html: string;
  meta: UiResourceMeta;
  /** Lowercase hex SHA-256 of the HTML (UTF-8). */
  digest: string;
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** A loaded resource, or why it cannot be rendered (shown instead of the view). */
type AppResourceLoad = { ok: true; resource: AppResource } | { ok: false; problem: string };

/** Hex SHA-256 of a string's UTF-8 bytes (Web Crypto: browsers and Node 20). */
export async function htmlDigest(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const hash = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Decode a base64 `blob` as UTF-8 text. */
function decodeBase64(blob: string): string {
  const binary = atob(blob);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The MIME type without parameter spacing differences (`text/html; profile=mcp-app` counts). */
function sameMime(value: unknown): boolean {
  return typeof value === 'string' && value.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE;
}

/**
 * Turn the outcome of `resources/read {uri}` into a renderable resource. The content must be
 * one item for this URI, of type `text/html;profile=mcp-app`, with `text` or base64 `blob`.
 * `listedMeta` is the `_meta` of the resources/list entry, used when the item has no `_meta.ui`.
 */
export async function readAppResource(outcome: RequestOutcome, uri: string, listedMeta?: unknown): Promise<AppResourceLoad> {
  if (outcome.type === 'error') return { ok: false, problem: `resources/read failed: ${outcome.error.code} ${outcome.error.message}` };
  if (outcome.type === 'failure') return { ok: false, problem: `resources/read failed: ${outcome.message}` };
  if (outcome.type === 'invalid') return { ok: false, problem: `resources/read answered an invalid response: ${outcome.reason}` };
  if (outcome.type !== 'complete') return { ok: false, problem: `resources/read answered ${outcome.type}, not the resource` };
  const contents = outcome.result.contents;
  if (!Array.isArray(contents) || contents.length === 0) return { ok: false, problem: 'resources/read returned no contents' };
  const item = asRecord(contents.find((c) => asRecord(c)?.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined));
  if (!item) return { ok: false, problem: `resources/read returned no content for ${uri}` };
  if (!sameMime(item.mimeType))
    return { ok: false, problem: `The UI resource has MIME type ${JSON.stringify(item.mimeType)}; hosts render only ${APP_MIME_TYPE}` };
  let html: string;
  if (typeof item.text === 'string') html = item.text;
  else if (typeof item.blob === 'string') {
    try {
      html = decodeBase64(item.blob);
    } catch {
      return { ok: false, problem: 'The UI resource blob is not valid base64' };
    }
  } else return { ok: false, problem: 'The UI resource has neither text nor blob' };
  // The content item wins; the list entry is the fallback. Python servers send `meta`.
  const rawUi = asRecord(asRecord(item._meta)?.ui) ?? asRecord(asRecord(item.meta)?.ui) ?? asRecord(asRecord(listedMeta)?.ui) ?? {};
  const parsed = UiResourceMetaSchema.safeParse(rawUi);
  const meta = parsed.success ? parsed.data : {};
  const ttl = outcome.result.ttlMs;
  return {
    ok: true,
    resource: {
      uri,
      html,
      meta,
      digest: await htmlDigest(html),
      ttlMs: typeof ttl === 'number' && ttl >= 0 ? ttl : 0,
      cacheScope: outcome.result.cacheScope === 'private' ? 'private' : 'public',
    },
  };
}
