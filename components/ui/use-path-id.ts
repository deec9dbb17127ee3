'use client';

import { usePathname } from 'next/navigation';
import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * The id in a dynamic page's URL: `usePathId('/scenarios/')` on `/scenarios/demo` is `demo`.
 *
 * The static export holds one placeholder per dynamic route (`/scenarios/_`, `/replay/_`) that the
 * app server answers for every id, so the id exists only in the browser's URL: route params would
 * say `_`. The router's pathname is the URL the user asked for (`window.location` on a full load,
 * the target of a client navigation even before the address bar changes). It is undefined while
 * the exported HTML hydrates, because that first render has to match the HTML built with no id.
 */
export function usePathId(prefix: string): string | undefined {
  const pathname = usePathname();
  const hydrated = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  if (!hydrated || !pathname?.startsWith(prefix)) return undefined;
  const segment = pathname.slice(prefix.length).split('/')[0] ?? '';
  try {
    return decodeURIComponent(segment) || undefined;
  } catch {
    return undefined;
  }
}
