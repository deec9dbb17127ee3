import type { AppResource } from './app-resource';

/**
 * Cache of rendered MCP App resources. A `ui://` URI alone names nothing: the same URI on two
 * servers (or two versions of one server) is two different documents, and a `private` answer
 * belongs to the authorization it was read with. So an entry is found by
 * (ui:// URI, server identity, server name@version, principal when private), it lives for the
 * `ttlMs` the server gave, and the rendered document is identified by that key plus the SHA-256
 * of its HTML, which changes whenever the content does.
 */

export interface AppCacheKeyParts {
  uri: string;
  /** The connection's server identity: its endpoint URL (or another stable id for stdio). */
  server: string;
  /** `serverInfo` name and version from the server's `_meta`, when known. */
  serverName?: string;
  serverVersion?: string;
  /** Who the connection authenticates as (e.g. a fingerprint of its token); used for private entries only. */
  principal?: string;
}

interface AppCacheEntry {
  resource: AppResource;
  /** The full identity of the rendered document: lookup key + content digest. */
  key: string;
  storedAt: number;
  expiresAt: number;
}

/** The lookup key for a scope: the principal is part of it only for private resources. */
export function appCacheKey(parts: AppCacheKeyParts, scope: 'public' | 'private', digest?: string): string {
  const identity = `${parts.serverName ?? ''}@${parts.serverVersion ?? ''}`;
  const principal = scope === 'private' ? (parts.principal ?? '') : '';
  const key = ['ui', parts.uri, parts.server, identity, scope, principal];
  if (digest !== undefined) key.push(`sha256:${digest}`);
  return JSON.stringify(key);
}

interface AppCache {
  /** A fresh entry for these parts (private entries only for the same principal), or undefined. */
  get(parts: AppCacheKeyParts): AppCacheEntry | undefined;
  /** Store a resource read for these parts under its own cache scope; returns the entry. */
  put(parts: AppCacheKeyParts, resource: AppResource): AppCacheEntry;
  /** Drop every entry (e.g. on list_changed or a "bypass cache" reload). */
  clear(): void;
  readonly size: number;
}

interface AppCacheOptions {
  /** Most entries kept; the least recently used goes first (default 50). */
  maxEntries?: number;
  /** Clock in ms (default Date.now), injected for tests. */
  now?: () => number;
}

/** Create an in-memory app resource cache. */
export function createAppCache(options: AppCacheOptions = {}): AppCache {
  const max = Math.max(1, options.maxEntries ?? 50);
  const now = options.now ?? (() => Date.now());
  const entries = new Map<string, AppCacheEntry>();

  const fresh = (lookup: string): AppCacheEntry | undefined => {
    const entry = entries.get(lookup);
    if (!entry) return undefined;
    if (now() >= entry.expiresAt) {
      entries.delete(lookup);
      return undefined;
    }
    // Re-insert: Map order doubles as recency for eviction.
    entries.delete(lookup);
    entries.set(lookup, entry);
    return entry;
  };

  return {
    get(parts) {
      return fresh(appCacheKey(parts, 'private')) ?? fresh(appCacheKey(parts, 'public'));
    },
    put(parts, resource) {
      const storedAt = now();
      const entry: AppCacheEntry = { resource, key: appCacheKey(parts, resource.cacheScope, resource.digest), storedAt, expiresAt: storedAt + resource.ttlMs };
      const lookup = appCacheKey(parts, resource.cacheScope);
      entries.delete(lookup);
      if (resource.ttlMs > 0) entries.set(lookup, entry);
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
      return entry;
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
