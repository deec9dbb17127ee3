'use client';

import { useEffect, type RefObject } from 'react';
import type { AppHost } from '@/lib/client/app-host';
import { effectiveTheme, THEME_EVENT } from '@/components/ui/theme';

/** Keep a view's host context current: the page's theme (the user's choice, else the system's) and its container's size. */
export function useHostContextSync(
  host: RefObject<AppHost | undefined>,
  container: RefObject<HTMLElement | null>,
  displayMode: 'inline' | 'fullscreen',
  maxInlineHeight: number,
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
    const ro = new ResizeObserver(() => {
      const dims = displayMode === 'fullscreen' ? { width: innerWidth, height: innerHeight } : { width: el.clientWidth, maxHeight: maxInlineHeight };
      host.current?.updateContext({ containerDimensions: dims });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [host, container, displayMode, maxInlineHeight]);
}
