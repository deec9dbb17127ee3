'use client';

import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent, type UIEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { layoutLanes, type LaneModel } from '@/lib/state/timeline-lanes';
import { selectBuffer, selectFollow, selectLintVersion, selectSelectedId, selectVersion } from '@/lib/state/selectors';
import { useInspector, useInspectorStore, useVisibleEntries } from '@/components/inspector/use-inspector';

/**
 * The timeline list's behaviour: virtualization over the filtered ids (fixed-height rows, so
 * 100,000 entries cost what ~40 rendered rows cost), the lane layout of the rows in view,
 * following the newest entry until the user scrolls away, and keyboard selection.
 */

const ROW_HEIGHT = 28;
const OVERSCAN = 12;

/** The timeline list's state and handlers: virtual rows, lanes, selection, following, scroll, click and keys. */
export function useTimeline() {
  const store = useInspectorStore();
  const visible = useVisibleEntries();
  const version = useInspector(selectVersion);
  const lintVersion = useInspector(selectLintVersion);
  const buffer = useInspector(selectBuffer);
  const selectedId = useInspector(selectSelectedId);
  const follow = useInspector(selectFollow);
  const scrollRef = useRef<HTMLTableElement>(null);
  const count = visible.ids.length;

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey: (index) => visible.ids[index] ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  // Lanes only for the rows in view: cheap however long the list is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer is mutated in place; `version` is the counter that moves when the rows in view gain entries
  const lanes: LaneModel = useMemo(() => layoutLanes(buffer, visible.ids.slice(first, last + 1)), [buffer, visible, first, last, version]);

  // Follow the newest entry while following.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` moves on every ingest, so the view keeps to the newest entry even when the count stays the same (a full buffer evicting as it grows)
  useEffect(() => {
    if (follow && count) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [follow, count, version, virtualizer]);

  // Keep the selected entry in view (opening the detail pane shrinks the list).
  useEffect(() => {
    if (selectedId === undefined) return;
    const index = visible.ids.indexOf(selectedId);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [selectedId, visible, virtualizer]);

  const onScroll = useCallback(
    (e: UIEvent<HTMLTableElement>) => {
      const el = e.currentTarget;
      const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT;
      const t = store.getState().timeline;
      if (atEnd !== t.follow) t.setFollow(atEnd);
    },
    [store],
  );

  // One handler for every row: a click anywhere in a row selects that row's entry.
  const onClick = useCallback(
    (e: MouseEvent<HTMLTableElement>) => {
      const row = e.target instanceof Element ? e.target.closest<HTMLElement>('tr[data-id]') : null;
      if (row) store.getState().timeline.select(Number(row.dataset.id));
    },
    [store],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTableElement>) => {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Escape') return;
      e.preventDefault();
      const t = store.getState().timeline;
      if (e.key === 'Escape') return t.select(undefined);
      const ids = visible.ids;
      const at = t.selectedId === undefined ? -1 : ids.indexOf(t.selectedId);
      const next = e.key === 'ArrowDown' ? Math.min(ids.length - 1, at + 1) : Math.max(0, at < 0 ? ids.length - 1 : at - 1);
      if (ids[next] === undefined) return;
      t.select(ids[next]);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    },
    [store, visible, virtualizer],
  );

  return { scrollRef, virtualizer, items, visible, buffer, lanes, lintVersion, selectedId, follow, onClick, onScroll, onKeyDown };
}
