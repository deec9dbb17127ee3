'use client';

import type { CacheHints } from '@/lib/client/list-page';

/** Under a paged list: the caching hints of the last page, any problem, progress while pages arrive, and "Load more" where the list stopped early. */
export function ListFooter({
  cache,
  pages,
  nextCursor,
  loading,
  problem,
  count,
  onMore,
}: {
  cache: CacheHints;
  pages: number;
  nextCursor?: string;
  loading: boolean;
  problem?: string;
  count: number;
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
      {loading ? <span data-testid="list-loading">Listing… {count.toLocaleString('en-US')} so far</span> : null}
      {nextCursor && !loading ? (
        <button type="button" data-testid="load-more" disabled={loading} className="text-accent hover:underline disabled:opacity-50" onClick={onMore}>
          Load more (nextCursor)
        </button>
      ) : null}
    </div>
  );
}
