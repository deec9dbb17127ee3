'use client';

import { useSyncExternalStore } from 'react';

/**
 * Whether the window matches a media query, following it as the window changes. False while the
 * exported HTML hydrates (the server has no window), so the first render matches the HTML.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => matchMedia(query).matches,
    () => false,
  );
}
