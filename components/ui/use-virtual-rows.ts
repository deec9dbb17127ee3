'use client';

import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

/** Lists longer than this are virtualized. */
const VIRTUAL_FROM = 200;
/** The height of a virtualized list's scrolling region. */
export const VIRTUAL_VIEW_HEIGHT = 480;

/**
 * The rows of a long table to render: up to `VIRTUAL_FROM` every row; above that (a server with
 * 100,000 tools or resources) only those in view at a fixed `rowHeight`, with spacer heights
 * `before` and `after` for the rows not drawn, so the table costs what ~30 rows cost however long
 * the list is. `total` is how many of `items` count (a list that grows in place may hold more).
 */
export function useVirtualRows<T>(items: readonly T[], total: number, rowHeight: number) {
  const virtual = total > VIRTUAL_FROM;
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? total : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    // A scroll re-renders the rows in React's own time, in slices, not in a flushSync inside the
    // scroll event (44 ms of one task when a search scrolled 20,000 tools back to the top).
    useFlushSync: false,
  });
  const inView = virtualizer.getVirtualItems();
  const before = inView[0]?.start ?? 0;
  const after = virtual ? virtualizer.getTotalSize() - (inView.at(-1)?.end ?? 0) : 0;
  const rows = virtual ? inView.flatMap((v) => items[v.index] ?? []) : items.length === total ? items : items.slice(0, total);
  return { virtual, scrollRef, rows, before, after };
}
