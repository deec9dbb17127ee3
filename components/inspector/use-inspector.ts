'use client';

import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { InspectorState } from '@/lib/state/inspector-store';
import { createVisibleSelector, type VisibleList } from '@/lib/state/selectors';
import { useInspectorStore } from './InspectorProvider';

/**
 * Hooks over the inspector store: select a slice of state (re-render only when it changes)
 * and the filtered timeline list.
 */

export { useInspectorStore } from './InspectorProvider';

/** Select from the inspector state; re-renders only when the selected value changes (Object.is). */
export function useInspector<T>(selector: (s: InspectorState) => T): T {
  return useStore(useInspectorStore(), selector);
}

/** The filtered, searched list of entry ids; recomputed incrementally as frames arrive. */
export function useVisibleEntries(): VisibleList {
  const selector = useMemo(() => createVisibleSelector(), []);
  return useInspector(selector);
}
