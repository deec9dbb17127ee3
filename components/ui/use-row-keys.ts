'use client';

import { useRef } from 'react';

/**
 * React keys for an editable list whose rows carry no id (the rows are plain values kept by
 * index): a key is made when a row appears and leaves with its row, so removing one row does
 * not hand the next row's inputs (focus, caret, typing in progress) to its neighbour. A key
 * cannot come from the row's content, which changes with every keystroke.
 *
 * Call `remove(i)` together with removing row `i`; rows added at the end get new keys by
 * themselves, and rows the list loses from its end lose theirs.
 */
export function useRowKeys(count: number): { keys: readonly number[]; remove(index: number): void } {
  const state = useRef<{ next: number; keys: number[] }>({ next: 0, keys: [] });
  const s = state.current;
  // Matching the count is idempotent, so doing it while rendering is safe even when a render is retried.
  while (s.keys.length < count) {
    s.keys.push(s.next);
    s.next += 1;
  }
  if (s.keys.length > count) s.keys.length = count;
  return {
    keys: [...s.keys],
    remove: (index) => {
      state.current.keys.splice(index, 1);
    },
  };
}
