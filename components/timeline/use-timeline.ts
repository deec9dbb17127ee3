'use client';

import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent, type UIEvent } from 'react';
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

export function useTimeline() {
  const store = useInspectorStore();
  const visible = useVisibleEntries();
  const version = useInspector(selectVersion);
  const lintVersion = useInspector(selectLintVersion);
  const buffer = useInspector(selectBuffer);
  const selectedId = useInspector(selectSelectedId);
  const follow = useInspector(selectFollow);
  const scrollRef = useRef<HTMLDivElement>(null);
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
  const lanes: LaneModel = useMemo(() => layoutLanes(buffer, visible.ids.slice(first, last + 1)), [buffer, visible, first, last, version]);

  // Follow the newest entry while following.
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
    (e: UIEvent<HTMLDivElement>) => {
      const el = e.currentTarget;
      const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT;
      const t = store.getState().timeline;
      if (atEnd !== t.follow) t.setFollow(atEnd);
    },
    [store],
  );

  const select = useCallback((id: number) => store.getState().timeline.select(id), [store]);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
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

  return { scrollRef, virtualizer, items, visible, buffer, lanes, lintVersion, selectedId, follow, select, onScroll, onKeyDown };
}
