'use client';

import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { panWindow, zoomWindow, type TimeWindow } from '@/lib/state/timeline-window';

/**
 * The waterfall's window: fitted to the rows in view until the user zooms or pans, then pinned
 * (Fit returns to following the rows). Ctrl/⌘ + wheel over the bar column zooms around the
 * pointer; Shift + wheel (or a sideways swipe) there pans.
 */
export function useWaterfall(fit: TimeWindow, scrollRef: RefObject<HTMLElement | null>) {
  const [pinned, setPinned] = useState<TimeWindow>();
  const win = pinned ?? fit;
  const zoom = useCallback((factor: number, anchor = 0.5) => setPinned((p) => zoomWindow(p ?? fit, factor, anchor)), [fit]);
  const pan = useCallback((fraction: number) => setPinned((p) => panWindow(p ?? fit, fraction)), [fit]);
  const reset = useCallback(() => setPinned(undefined), []);
  // The listener reads the latest zoom and pan through a ref, so it is added once: `fit` moves
  // with every entry that lands in view, and re-adding a blocking wheel listener each time made
  // the browser recompute the page's wheel handler regions on every commit of a flood.
  const latest = useRef({ zoom, pan });
  latest.current = { zoom, pan };

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    // Native and not passive: Ctrl + wheel would otherwise zoom the whole page.
    const onWheel = (e: WheelEvent) => {
      const column = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-waterfall]') : null;
      if (!column) return;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        const box = column.getBoundingClientRect();
        latest.current.zoom(e.deltaY > 0 ? 1.25 : 0.8, box.width ? (e.clientX - box.left) / box.width : 0.5);
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        latest.current.pan(((e.shiftKey ? e.deltaY : 0) + e.deltaX > 0 ? 1 : -1) * 0.1);
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [scrollRef]);

  return { win, pinned: pinned !== undefined, zoom, pan, reset };
}

/** What the waterfall's controls need. */
export type Waterfall = ReturnType<typeof useWaterfall>;
