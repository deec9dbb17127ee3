'use client';

import { useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { useVirtualRows, VIRTUAL_VIEW_HEIGHT } from '@/components/ui/use-virtual-rows';

/**
 * A long list of a server (resources, prompts) as a table with a search box, virtualized when
 * long (use-virtual-rows.ts). Filtering runs on a deferred copy of the query, so typing stays responsive while
 * the matches of a huge list are found.
 */

/** Lists longer than this get a search box. */
const SEARCH_FROM = 10;

interface SearchableTableProps<T> {
  /** `resources` → data-testid `resources-table`, `resources-search`, `resources-matches`. */
  name: string;
  /** Grows in place; `count` is how much of it to show. */
  items: readonly T[];
  count: number;
  /** Whether an entry holds the query (lower case, trimmed, not empty). */
  matches(item: T, query: string): boolean;
  /** The header cells. */
  head: ReactNode;
  columns: number;
  /** One entry's row: a `<tr>` of `columns` cells (its height fixed to `rowHeight` when `compact`). */
  row(item: T, compact: boolean): ReactNode;
  rowHeight: number;
  empty: string;
}

/** The table with its search box and match count. */
export function SearchableTable<T>({ name, items, count, matches, head, columns, row, rowHeight, empty }: SearchableTableProps<T>) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query.trim().toLowerCase());
  // `items` grows in place; `count` (a dependency) moves when it does.
  const filtered = useMemo(() => {
    if (!deferred) return undefined;
    const out: T[] = [];
    for (let i = 0; i < count; i++) {
      const item = items[i];
      if (item !== undefined && matches(item, deferred)) out.push(item);
    }
    return out;
  }, [items, count, deferred, matches]);
  // Unfiltered, the list is shown as it is (no copy of 100,000 entries per page that arrives).
  const shown = filtered ?? items;
  const total = filtered ? filtered.length : count;
  const { virtual, scrollRef, rows, before, after } = useVirtualRows(shown, total, rowHeight);
  const label = name.charAt(0).toUpperCase() + name.slice(1);

  return (
    <div className="space-y-2">
      {count > SEARCH_FROM ? (
        <input
          type="search"
          data-testid={`${name}-search`}
          aria-label={`Search ${name}`}
          placeholder={`Search ${count.toLocaleString('en-US')} ${name}`}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="w-full rounded-md border border-border bg-surface px-2 py-1 text-xs"
        />
      ) : null}
      {deferred ? (
        <p data-testid={`${name}-matches`} className="text-xs text-muted">
          {total.toLocaleString('en-US')} of {count.toLocaleString('en-US')} match
        </p>
      ) : null}
      <section
        ref={scrollRef}
        className="overflow-auto rounded-lg border border-border"
        style={virtual ? { height: VIRTUAL_VIEW_HEIGHT } : undefined}
        aria-label={label}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus so a keyboard user can scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
        tabIndex={0}
      >
        <table data-testid={`${name}-table`} data-virtual={virtual ? 'true' : 'false'} className={`w-full text-left text-xs ${virtual ? 'table-fixed' : ''}`}>
          <thead className="sticky top-0 z-10 bg-surface-muted uppercase tracking-wide text-muted">{head}</thead>
          <tbody>
            {before > 0 ? <tr style={{ height: before }} /> : null}
            {rows.map((item) => row(item, virtual))}
            {after > 0 ? <tr style={{ height: after }} /> : null}
            {total === 0 ? (
              <tr>
                <td colSpan={columns} className="px-2 py-3 text-center text-muted">
                  {deferred ? `No ${name.replace(/s$/, '')} matches.` : empty}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </section>
    </div>
  );
}
