'use client';

import { useCallback, useEffect, useMemo, useState } from 'react';
import { framesUntil, timeRange } from '@/lib/recording/moment';
import { openRecordingText, type OpenedFile } from '@/lib/recording/open';
import { openShareFragment } from '@/lib/recording/share';
import { createInspectorStore, type InspectorStore } from '@/lib/state/inspector-store';
import { seedRecordedTasks } from '@/lib/state/recorded-tasks';

/**
 * The recording viewer's state: where the recording came from (a share link's fragment, a
 * picked or dropped file), the moment the user scrubbed to, and an inspector store holding the
 * frames up to that moment, so the timeline, the panels and the app view show the session as
 * it was then. Nothing is fetched: the recording renders with no server behind it.
 */

type LoadedRecording = Extract<OpenedFile, { ok: true }> & { name: string };

/** Rebuilds wait this long after the last scrub step. */
const SCRUB_DEBOUNCE_MS = 120;
/**
 * The viewer's timeline holds a whole recording (a live session keeps its newest 32 MiB):
 * the file is in memory anyway, and a 100,000-frame session needs about 80 MiB of entries.
 */
const VIEWER_LIMITS = { maxBytes: 256 * 1024 * 1024, maxBodyBytes: 64 * 1024 * 1024 };

function storeFor(loaded: LoadedRecording, at: number): InspectorStore {
  const { recording } = loaded;
  const lints = Object.keys(recording.lints).length ? new Map(Object.entries(recording.lints)) : undefined;
  // Lints come with the recording; a store without them lints the frames itself.
  const store = createInspectorStore({ lint: !lints, limits: VIEWER_LIMITS });
  const frames = framesUntil(recording, at);
  seedRecordedTasks(store, frames);
  store.getState().timeline.appendMany(frames, lints ? { lints } : {});
  return store;
}

/** The viewer's recording, moment and store; `openText` opens a picked or dropped file. */
export function useRecordingViewer() {
  const [loaded, setLoaded] = useState<LoadedRecording>();
  const [error, setError] = useState<string>();
  const [cutoff, setCutoff] = useState<number>();
  const [built, setBuilt] = useState<{ store: InspectorStore; at: number; n: number }>();

  const accept = useCallback((opened: OpenedFile, name: string) => {
    if (!opened.ok) {
      setError(opened.error);
      return;
    }
    setError(undefined);
    setCutoff(undefined);
    setLoaded({ ...opened, name });
  }, []);

  const openText = useCallback((text: string, name: string) => accept(openRecordingText(text, name), name), [accept]);

  useEffect(() => {
    const fromHash = () => {
      if (!/[#&]rec=/.test(window.location.hash)) return;
      const opened = openShareFragment(window.location.hash);
      accept(opened.ok ? { ...opened, source: 'recording' } : opened, 'shared link');
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
  }, [accept]);

  const range = useMemo(() => (loaded ? timeRange(loaded.recording) : undefined), [loaded]);
  const at = cutoff ?? range?.end;

  useEffect(() => {
    if (!loaded || at === undefined) return;
    const timer = setTimeout(() => setBuilt((b) => ({ store: storeFor(loaded, at), at, n: (b?.n ?? 0) + 1 })), cutoff === undefined ? 0 : SCRUB_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [loaded, at, cutoff]);

  return {
    loaded,
    error,
    openText,
    range,
    at,
    /** Scrub to a moment (undefined: the end of the recording). */
    scrub: setCutoff,
    store: built && loaded ? built.store : undefined,
    /** Changes with every rebuilt store (a React key for the provider). */
    storeKey: built?.n ?? 0,
    builtAt: built?.at,
  };
}
