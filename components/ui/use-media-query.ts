'use client';

import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether the window matches a media query, following it as the window changes. False while the
 * exported HTML hydrates (the server has no window), so the first render matches the HTML.
 */
export function useMediaQuery(query: string): boolean {
  // One subscription per query: a new function each render would make React subscribe again.
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => matchMedia(query).matches,
    () => false,
  );
}
