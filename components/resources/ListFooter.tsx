'use client';

import type { CacheHints } from '@/lib/client/list-page';

/** Under a paged list: the caching hints of the last page, any problem, and "Load more" while there is a next cursor. */
export function ListFooter({
  cache,
  pages,
  nextCursor,
  loading,
  problem,
  onMore,
}: {
  cache: CacheHints;
  pages: number;
  nextCursor?: string;
  loading: boolean;
  problem?: string;
  onMore(): void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
      {pages > 0 ? (
        <span data-testid="cache-hints">
          {pages} page{pages === 1 ? '' : 's'} · ttlMs <span data-testid="ttl-ms">{cache.ttlMs ?? '—'}</span> · cacheScope{' '}
          <span data-testid="cache-scope">{cache.cacheScope ?? '—'}</span>
        </span>
      ) : null}
      {problem ? (
        <span role="alert" className="text-danger">
          {problem}
        </span>
      ) : null}
      {nextCursor ? (
        <button type="button" data-testid="load-more" disabled={loading} className="text-accent hover:underline disabled:opacity-50" onClick={onMore}>
          Load more (nextCursor)
        </button>
      ) : null}
    </div>
  );
}
