'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { BridgeFrame } from '@/lib/client/app-bridge-transport';

/** A bridge frame as the bridge log shows it. */
export type LoggedFrame = BridgeFrame & { at: number; n: number };

/** Frames the log keeps (the timeline keeps them all). */
const MAX_LOG = 300;
/**
 * Past IMMEDIATE messages within FLUSH_MS, new frames reach the log at most every FLUSH_MS. A view
 * may send up to 200 messages a second, each a row: rendered as they came, every animation frame
 * of a burst re-laid the page out; gathered, a burst is a render or two, and an ordinary
 * conversation still shows each message at once.
 */
const FLUSH_MS = 100;
const IMMEDIATE = 20;

/** The bridge log of one view: `add` takes a frame at once (time and order), the rows render in batches. */
export function useBridgeLog() {
  const [frames, setFrames] = useState<LoggedFrame[]>([]);
  // Grows with each clear (a Resume): the log of a fresh view starts folded again.
  const [generation, setGeneration] = useState(0);
  const pending = useRef<LoggedFrame[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const n = useRef(0);
  const burst = useRef({ start: Number.NEGATIVE_INFINITY, count: 0 });
  const flush = useCallback(() => {
    timer.current = undefined;
    const batch = pending.current;
    pending.current = [];
    if (batch.length) setFrames((all) => [...all, ...batch].slice(-MAX_LOG));
  }, []);
  const add = useCallback(
    (f: BridgeFrame) => {
      pending.current.push({ ...f, at: Date.now(), n: n.current++ });
      const now = performance.now();
      const w = burst.current;
      if (now - w.start >= FLUSH_MS) burst.current = { start: now, count: 0 };
      if (++burst.current.count <= IMMEDIATE && timer.current === undefined) return flush();
      timer.current ??= setTimeout(flush, FLUSH_MS);
    },
    [flush],
  );
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    pending.current = [];
    setFrames([]);
    setGeneration((g) => g + 1);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { frames, generation, add, clear };
}
