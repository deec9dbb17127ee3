'use client';

import { useEffect, useRef, useState } from 'react';
import { createAppCache, type AppCacheKeyParts } from '@/lib/client/app-cache';
import { readAppResource, type AppResource } from '@/lib/client/app-resource';
import type { RequestOutcome } from '@/lib/client/results';

/**
 * Loads the `ui://` resource of a view through the inspector's connection, or takes it from the
 * cache shared by every view on the page (keyed by URI, server identity and version, and the
 * principal for private resources; fresh for the server's ttlMs).
 */

/** One cache for the page: views of the same resource on the same server reuse a read. */
const appResourceCache = createAppCache({ maxEntries: 50 });

type AppResourceState = { phase: 'loading' } | { phase: 'error'; problem: string } | { phase: 'ready'; resource: AppResource; cacheHit: boolean; key: string };

/** The resource for a `ui://` URI on this server, from the cache or a fresh resources/read. */
export function useAppResource(
  uri: string | undefined,
  parts: Omit<AppCacheKeyParts, 'uri'>,
  readResource: (uri: string) => Promise<RequestOutcome>,
): AppResourceState {
  const [state, setState] = useState<AppResourceState>({ phase: 'loading' });
  const { server, serverName, serverVersion, principal } = parts;
  // readResource is the connection's: a new function identity alone is not a new resource, so
  // the effect reads the latest one through a ref instead of re-running for it.
  const read = useRef(readResource);
  read.current = readResource;
  useEffect(() => {
    let live = true;
    if (!uri) {
      setState({ phase: 'error', problem: 'The tool names no ui:// resource' });
      return;
    }
    const key = { uri, server, serverName, serverVersion, principal };
    const hit = appResourceCache.get(key);
    if (hit) {
      setState({ phase: 'ready', resource: hit.resource, cacheHit: true, key: hit.key });
      return;
    }
    setState({ phase: 'loading' });
    read
      .current(uri)
      .then((outcome) => readAppResource(outcome, uri))
      .then(
        (load) => {
          if (!live) return;
          if (!load.ok) return setState({ phase: 'error', problem: load.problem });
          const entry = appResourceCache.put(key, load.resource);
          setState({ phase: 'ready', resource: load.resource, cacheHit: false, key: entry.key });
        },
        (e: unknown) => live && setState({ phase: 'error', problem: `Failed to read ${uri}: ${e instanceof Error ? e.message : String(e)}` }),
      );
    return () => {
      live = false;
    };
  }, [uri, server, serverName, serverVersion, principal]);
  return state;
}
