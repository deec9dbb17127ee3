'use client';

import { useEffect, useState } from 'react';
import { recordingsApiWriter, startAutosave } from '@/lib/recording/autosave';
import { createRecorder, type Recorder } from '@/lib/recording/recorder';
import type { ConnectionMeta } from '@/lib/recording/schema';
import type { InspectorState, InspectorStore } from '@/lib/state/inspector-store';
import { recordingConnection } from '@/lib/state/recording-connection';

/**
 * Records the live inspector session: every frame the timeline ingests goes to a recorder
 * (bodies in full, whatever the timeline's byte budget keeps), the connection metadata follows
 * the connection (secret values never kept), and the session is autosaved through the control
 * API under `.loupe/recordings/`. Without the launch cookie autosave stops quietly; export still works.
 */

/** Memory the live recording may hold; past it the oldest frames go (the export says so). */
const MAX_SESSION_BYTES = 96 * 1024 * 1024;

/** Connection metadata of the inspector's state, without secret values. */
const connectionMetaOf = (s: InspectorState): ConnectionMeta => recordingConnection(s.connection.config, s.connection.server);

/** The recorder of the enclosing inspector, started on mount (before the provider connects). */
export function useSessionRecorder(store: InspectorStore, options: { autosave?: boolean } = {}): Recorder {
  const [recorder] = useState(() => createRecorder({ connection: connectionMetaOf(store.getState()), maxBytes: MAX_SESSION_BYTES }));
  const autosave = options.autosave !== false;
  useEffect(() => {
    const offFrames = store.getState().timeline.subscribeFrames((frames) => {
      for (const f of frames) recorder.sink(f);
    });
    const offState = store.subscribe((s, prev) => {
      if (s.connection.server !== prev.connection.server || s.connection.config !== prev.connection.config) recorder.setConnection(connectionMetaOf(s));
    });
    let stopped = false;
    const saver = autosave
      ? startAutosave(recorder, {
          write: recordingsApiWriter(),
          delayMs: 5_000,
          onError: () => {
            // No launch cookie (401) or no server: keep recording in memory only.
            stopped = true;
            saver?.stop();
          },
        })
      : undefined;
    const flush = () => {
      if (!stopped) void saver?.flush();
    };
    window.addEventListener('pagehide', flush);
    return () => {
      offFrames();
      offState();
      window.removeEventListener('pagehide', flush);
      saver?.stop();
    };
  }, [store, recorder, autosave]);
  return recorder;
}
