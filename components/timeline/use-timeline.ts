'use client';

import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type UIEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { layoutLanes, type LaneModel } from '@/lib/state/timeline-lanes';
import { createRowGrouper, type ListRow } from '@/lib/state/timeline-rows';
import { selectBuffer, selectFollow, selectLintVersion, selectSelectedId, selectVersion } from '@/lib/state/selectors';
import { useInspector, useInspectorStore, useVisibleEntries } from '@/components/inspector/use-inspector';
import { useWaterfall } from './use-waterfall';

/**
 * The timeline list's behaviour: rows (one per exchange, expandable, or one per frame),
 * virtualization over them (fixed-height rows, so 100,000 entries cost what ~40 rendered rows
 * cost), the lane layout and waterfall window of the rows in view, following the newest entry
 * until the user scrolls away, and keyboard selection, expansion and zoom.
 */

const ROW_HEIGHT = 28;
const OVERSCAN = 12;
const ZOOM_KEYS: Record<string, number> = { '+': 0.5, '=': 0.5, '-': 2, _: 2 };
/** The keys the list moves, folds and opens with. */
const LIST_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'Enter', 'Escape']);

/** The timeline list's state and handlers: virtual rows, lanes, waterfall, selection, following, scroll, click and keys. */
export function useTimeline() {
  const store = useInspectorStore();
  const visible = useVisibleEntries();
  const version = useInspector(selectVersion);
  const lintVersion = useInspector(selectLintVersion);
  const buffer = useInspector(selectBuffer);
  const selectedId = useInspector(selectSelectedId);
  const follow = useInspector(selectFollow);
  const grouped = useInspector((s) => s.timeline.grouped);
  const firstId = useInspector((s) => s.timeline.stats.firstId);
  const scrollRef = useRef<HTMLTableElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const grouper = useMemo(() => createRowGrouper(), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer and the id list are mutated in place; `version` is the counter that moves when they change
  const rows = useMemo(() => grouper(buffer, visible.ids, grouped, expanded), [grouper, buffer, visible, grouped, expanded, version]);
  const count = rows.length;

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    // A scroll re-renders the rows in React's own time, in slices, not in a flushSync inside the
    // scroll event (44 ms of one task when a search scrolled 20,000 tools back to the top).
    useFlushSync: false,
    getItemKey: (index) => rows.at(index)?.key ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const inView = items.flatMap((item) => {
    const row = rows.at(item.index);
    return row ? [row] : [];
  });
  const viewKey = inView.map((r) => r.key).join();

  // Lanes only for the rows in view: cheap however long the list is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `viewKey` names the rows in view; `version` moves when they gain entries
  const lanes: LaneModel = useMemo(() => {
    const ids = [...new Set(inView.flatMap((r) => (r.exchange ? [r.first, r.id] : [r.id])))].sort((a, b) => a - b);
    return layoutLanes(buffer, ids);
  }, [buffer, viewKey, version]);
  const fit = useMemo(() => ({ from: lanes.from, to: lanes.to }), [lanes.from, lanes.to]);
  const waterfall = useWaterfall(fit, sectionRef);
  const selectedRow = selectedId === undefined ? -1 : rows.indexOf(selectedId);

  // Follow the newest entry while following: when a row is added, or the oldest entries leave (a
  // full buffer evicting as it grows keeps the count). Not on every ingest: frames that only add
  // to a row already in view need no scroll. The scroll waits for the next animation frame:
  // scrolling right after React wrote the rows read the scroll height, a forced layout per commit
  // (47 ms of a 116 ms task while a 50 MB answer was read), where in the frame the layout is one
  // the frame does anyway; commits within one frame scroll once. Through the virtualizer, which
  // must know where the list is (a bare scrollTop write left it rendering a stale range).
  const followedTo = useRef(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `firstId` moves when the oldest entries leave, which shifts the rows under a count that stays the same
  useEffect(() => {
    // Not following (a row selected, or scrolled away): no scroll of ours is on its way.
    if (!follow) followedTo.current = -1;
    if (!follow || !count) return;
    const frame = requestAnimationFrame(() => {
      const el = scrollRef.current;
      if (!el) return;
      virtualizer.scrollToEnd();
      followedTo.current = el.scrollTop;
    });
    return () => cancelAnimationFrame(frame);
  }, [follow, count, firstId, virtualizer]);

  // Keep the selected entry in view (opening the detail pane shrinks the list).
  useEffect(() => {
    if (selectedRow >= 0) virtualizer.scrollToIndex(selectedRow, { align: 'auto' });
  }, [selectedRow, virtualizer]);

  const onScroll = useCallback(
    (e: UIEvent<HTMLTableElement>) => {
      const el = e.currentTarget;
      const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT;
      // The event of the follow's own scroll comes a frame later, when rows added since may have
      // moved the end further: still following unless the person scrolled up from there.
      const following = atEnd || (followedTo.current >= 0 && el.scrollTop >= followedTo.current - 1);
      const t = store.getState().timeline;
      if (following !== t.follow) t.setFollow(following);
      if (!following) followedTo.current = -1;
    },
    [store],
  );

  const toggle = useCallback((exchangeId: string, open?: boolean) => {
    setExpanded((prev) => {
      if (open === prev.has(exchangeId)) return prev;
      const next = new Set(prev);
      if (next.has(exchangeId)) next.delete(exchangeId);
      else next.add(exchangeId);
      return next;
    });
  }, []);

  // One handler for every row: a click selects the row's entry; on the chevron it also folds or unfolds.
  const onClick = useCallback(
    (e: MouseEvent<HTMLTableElement>) => {
      const row = e.target instanceof Element ? e.target.closest<HTMLElement>('tr[data-id]') : null;
      if (!row) return;
      const exchange = row.dataset.exchange;
      if (exchange && e.target instanceof Element && e.target.closest('[data-expand]')) toggle(exchange);
      store.getState().timeline.select(Number(row.dataset.id));
    },
    [store, toggle],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTableElement>) => {
      const zoomBy = ZOOM_KEYS[e.key];
      if (zoomBy !== undefined || e.key === '0' || (e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight'))) {
        e.preventDefault();
        if (zoomBy !== undefined) return waterfall.zoom(zoomBy);
        if (e.key === '0') return waterfall.reset();
        return waterfall.pan(e.key === 'ArrowLeft' ? -0.25 : 0.25);
      }
      if (!LIST_KEYS.has(e.key)) return;
      e.preventDefault();
      const t = store.getState().timeline;
      if (e.key === 'Escape') return t.select(undefined);
      const at = t.selectedId === undefined ? -1 : rows.indexOf(t.selectedId);
      // Not rows.at(-1), the last row: with the selection filtered out of view, nothing is current.
      const current: ListRow | undefined = at >= 0 ? rows.at(at) : undefined;
      const go = (index: number) => {
        const row = rows.at(index);
        if (!row) return;
        t.select(row.id);
        virtualizer.scrollToIndex(index, { align: 'auto' });
      };
      // Enter opens the selected exchange (its detail is shown already); → and ← unfold and fold
      // it; ← on a frame goes up to its exchange, as in a tree.
      if (e.key === 'Enter' || e.key === 'ArrowRight') return current?.exchange ? toggle(current.exchange.id, true) : undefined;
      if (e.key === 'ArrowLeft') {
        if (current?.exchange) return toggle(current.exchange.id, false);
        let parent = at;
        while (parent > 0 && rows.at(parent)?.child) parent -= 1;
        return current?.child ? go(parent) : undefined;
      }
      if (e.key === 'Home' || e.key === 'End') return go(e.key === 'Home' ? 0 : rows.length - 1);
      go(e.key === 'ArrowDown' ? Math.min(rows.length - 1, at + 1) : Math.max(0, at < 0 ? rows.length - 1 : at - 1));
    },
    [store, rows, virtualizer, toggle, waterfall],
  );

  return { scrollRef, sectionRef, virtualizer, items, rows, visible, buffer, lanes, waterfall, lintVersion, selectedRow, onClick, onScroll, onKeyDown };
}
