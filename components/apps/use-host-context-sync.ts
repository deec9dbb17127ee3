'use client';

import { useEffect, type RefObject } from 'react';
import type { AppHost } from '@/lib/client/app-host';
import { effectiveTheme, THEME_EVENT } from '@/components/ui/theme';

/**
 * Keep a view's host context current: the page's theme (the user's choice, else the system's) and
 * its container's size. The size comes from a ResizeObserver, after a layout the page did anyway;
 * `width` keeps the last inline width seen, for the next view's first context (a Resume).
 */
export function useHostContextSync(
  host: RefObject<AppHost | undefined>,
  container: RefObject<HTMLElement | null>,
  displayMode: 'inline' | 'fullscreen',
  maxInlineHeight: number,
  width: { current: number | undefined },
): void {
  useEffect(() => {
    if (typeof matchMedia === 'undefined') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const on = () => host.current?.updateContext({ theme: effectiveTheme() });
    mq.addEventListener('change', on);
    window.addEventListener(THEME_EVENT, on);
    return () => {
      mq.removeEventListener('change', on);
      window.removeEventListener(THEME_EVENT, on);
    };
  }, [host]);

  useEffect(() => {
    const el = container.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    // The entry's size, not clientWidth: another observer or frame callback may have changed the
    // page since this layout, and clientWidth would lay it out again here.
    const ro = new ResizeObserver((entries) => {
      const box = entries.at(-1)?.contentRect.width ?? el.clientWidth;
      const dims = displayMode === 'fullscreen' ? { width: innerWidth, height: innerHeight } : { width: Math.round(box), maxHeight: maxInlineHeight };
      if (displayMode !== 'fullscreen') width.current = dims.width;
      host.current?.updateContext({ containerDimensions: dims });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [host, container, displayMode, maxInlineHeight, width]);
}
