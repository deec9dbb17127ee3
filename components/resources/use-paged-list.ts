'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { CacheHints, ListPage, Requester } from '@/lib/client/list-page';
import { describeOutcome } from '@/lib/client/results';
import { useInspector } from '@/components/inspector/use-inspector';

/**
 * A paginated list of the connected server (resources, templates, prompts): the first page is
 * asked for on every connect, "Load more" asks for the page at `nextCursor`. Each page's caching
 * hints are kept (the last page's are shown). Only the latest request of a connection counts.
 */

interface PagedList<T> {
  items: T[];
  nextCursor?: string;
  cache: CacheHints;
  pages: number;
  loading: boolean;
  problem?: string;
  loadMore(): void;
  refresh(): void;
}

type Loader<T> = (request: Requester, cursor?: string) => Promise<ListPage<T>>;

/** `enabled` is false when the server does not advertise the capability: nothing is asked. */
export function usePagedList<T>(load: Loader<T>, enabled: boolean): PagedList<T> {
  const session = useInspector((s) => s.connection.session);
  const connected = useInspector((s) => s.connection.status === 'connected');
  const epoch = useInspector((s) => s.connection.epoch);
  const [state, setState] = useState<Omit<PagedList<T>, 'loadMore' | 'refresh'>>({ items: [], cache: {}, pages: 0, loading: false });
  const generation = useRef(0);

  const fetchPage = useCallback(
    async (cursor: string | undefined) => {
      if (!session) return;
      const mine = ++generation.current;
      setState((s) => ({ ...s, loading: true }));
      const page = await load(session.request, cursor);
      if (mine !== generation.current) return;
      setState((s) => {
        const base = cursor ? s : { items: [] as T[], cache: {}, pages: 0, loading: false };
        if (page.outcome.type !== 'complete') return { ...base, loading: false, problem: describeOutcome(page.outcome) };
        return {
          items: [...base.items, ...page.items],
          cache: page.cache,
          pages: base.pages + 1,
          loading: false,
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
          ...(page.skipped ? { problem: `${page.skipped} entries were malformed and are not shown` } : {}),
        };
      });
    },
    [session, load],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: epoch is the trigger: a new connection lists again
  useEffect(() => {
    generation.current++;
    setState({ items: [], cache: {}, pages: 0, loading: false });
    if (connected && enabled) void fetchPage(undefined);
  }, [connected, enabled, epoch, fetchPage]);

  return {
    ...state,
    loadMore: () => void fetchPage(state.nextCursor),
    refresh: () => void fetchPage(undefined),
  };
}
