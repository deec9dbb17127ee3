'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { followPages, type ListPage, type ListSoFar, type Requester } from '@/lib/client/list-page';
import { describeOutcome } from '@/lib/client/results';
import { useInspector } from '@/components/inspector/use-inspector';

/**
 * A paginated list of the connected server (resources, templates, prompts): on every connect
 * every page is asked for in turn, following `nextCursor` (up to 1,000 pages, each parsed in
 * slices that yield), and the list shows as it grows; "Load more" goes on from where it
 * stopped (the page cap, or a page that failed). The items are one array appended to in place
 * (`count` moves when it grows), so 100,000 entries are never copied page after page. The last
 * page's caching hints are shown. Only the latest listing of a connection counts. When
 * `changes` moves (the server announced the list changed: lib/state/list-changes.ts), it is
 * listed again from the first page.
 */

interface PagedList<T> {
  /** Grows in place; `count` is its length when this state was made. */
  items: readonly T[];
  count: number;
  nextCursor?: string;
  cache: ListSoFar<T>['cache'];
  pages: number;
  loading: boolean;
  problem?: string;
  loadMore(): void;
  refresh(): void;
}

type Loader<T> = (request: Requester, cursor?: string) => Promise<ListPage<T>>;

type ListState<T> = Omit<PagedList<T>, 'loadMore' | 'refresh'>;

const EMPTY = { items: [], count: 0, cache: {}, pages: 0, loading: false };

function stateOf<T>(list: ListSoFar<T>): ListState<T> {
  const problems = [
    list.outcome.type !== 'complete' ? describeOutcome(list.outcome) : undefined,
    list.skipped ? `${list.skipped.toLocaleString('en-US')} entries were malformed and are not shown` : undefined,
  ].filter((p): p is string => !!p);
  return {
    items: list.items,
    count: list.items.length,
    cache: list.cache,
    pages: list.pages,
    loading: list.loading,
    ...(list.nextCursor ? { nextCursor: list.nextCursor } : {}),
    ...(problems.length ? { problem: problems.join('; ') } : {}),
  };
}

/** `enabled` is false when the server does not advertise the capability: nothing is asked. */
export function usePagedList<T>(load: Loader<T>, enabled: boolean, changes = 0): PagedList<T> {
  const session = useInspector((s) => s.connection.session);
  const connected = useInspector((s) => s.connection.status === 'connected');
  const epoch = useInspector((s) => s.connection.epoch);
  const [state, setState] = useState<ListState<T>>(EMPTY);
  const generation = useRef(0);
  const list = useRef<ListSoFar<T>>(undefined);

  const follow = useCallback(
    async (cursor: string | undefined) => {
      if (!session) return;
      const mine = ++generation.current;
      const into = cursor && list.current ? { ...list.current, loading: true } : undefined;
      setState((s) => (into ? { ...s, loading: true } : { ...EMPTY, loading: true }));
      const current = () => mine === generation.current;
      const done = await followPages((c) => load(session.request, c), {
        ...(cursor ? { cursor } : {}),
        ...(into ? { into } : {}),
        current,
        onPage: (l) => {
          if (current()) setState(stateOf(l));
        },
      });
      if (current()) list.current = done;
    },
    [session, load],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: epoch and changes are the triggers: a new connection, or a change announced, lists again
  useEffect(() => {
    generation.current++;
    list.current = undefined;
    setState(EMPTY);
    if (connected && enabled) void follow(undefined);
  }, [connected, enabled, epoch, changes, follow]);

  return {
    ...state,
    loadMore: () => void follow(state.nextCursor),
    refresh: () => void follow(undefined),
  };
}
