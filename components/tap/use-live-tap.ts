'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { apiKey, loupeFetch } from '@/lib/client/api-key';
import type { Frame } from '@/lib/client/frames';
import { createRecorder, type Recorder } from '@/lib/recording/recorder';
import { TapEndEventSchema, TapFaultsEventSchema, TapFramesEventSchema, TapSnapshotEventSchema, type TapInfo } from '@/lib/recording/tap-api';
import { TapFaultEntrySchema, type TapFaultEntry } from '@/lib/scenario/tap-faults';
import { createInspectorStore, type InspectorStore } from '@/lib/state/inspector-store';
import { createLiveTaskFeed } from '@/lib/state/live-tasks';

/**
 * A live tap in the browser: follows `/api/taps/<id>/events` (cookie-authenticated server-sent
 * events) and feeds every frame into an inspector store, so the timeline, detail, lints, tasks
 * and streams read the tapped session as they read the inspector's own. Nothing is sent on the
 * tapped connection: the page only observes, and flips fault switches through Loupe.
 */

type LiveState = 'connecting' | 'live' | 'ended' | 'missing';

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, text: string): T | undefined {
  try {
    const r = schema.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

const entriesOf = (list: readonly unknown[]): TapFaultEntry[] =>
  list.flatMap((f) => {
    const e = TapFaultEntrySchema.safeParse(f);
    return e.success ? [e.data] : [];
  });

/** The live tap `id`: its store, info, fault switches and a recorder of the frames (for the app view). */
export function useLiveTap(id: string) {
  const [store] = useState<InspectorStore>(() => createInspectorStore({ lint: true }));
  // Each batch adds to the store, the task feed and the recorder; nothing is rebuilt from the start.
  const [taskFeed] = useState(() => createLiveTaskFeed(store));
  const [info, setInfo] = useState<TapInfo>();
  const [state, setState] = useState<LiveState>('connecting');
  const [faults, setFaultsState] = useState<TapFaultEntry[]>([]);
  const [frameCount, setFrameCount] = useState(0);
  const [error, setError] = useState<string>();
  const lastSeq = useRef(-1);
  const recorder = useRef<Recorder>(undefined);

  useEffect(() => {
    const source = new EventSource(`/api/taps/${encodeURIComponent(id)}/events?key=${encodeURIComponent(apiKey())}`);
    const ingest = (batch: readonly Frame[]) => {
      // A reconnect replays the snapshot: keep only frames not seen yet.
      const fresh = batch.filter((f) => f.seq > lastSeq.current);
      if (!fresh.length) return;
      lastSeq.current = fresh[fresh.length - 1]!.seq;
      recorder.current ??= createRecorder({ connection: { target: '', headerNames: [] }, lint: false });
      for (const f of fresh) recorder.current.sink(f);
      // Tasks first, so the polls in the batch land on tasks the store knows.
      taskFeed.push(fresh);
      store.getState().timeline.appendMany(fresh);
      setFrameCount(recorder.current.frames().length);
    };
    source.addEventListener('tap:snapshot', (e) => {
      const data = parse(TapSnapshotEventSchema, (e as MessageEvent<string>).data);
      if (!data) return;
      setInfo(data.tap);
      recorder.current ??= createRecorder({ connection: { target: data.tap.target, transport: data.tap.transport, headerNames: [] }, lint: false });
      setFaultsState(entriesOf(data.faults));
      setState(data.tap.endedAt !== undefined ? 'ended' : 'live');
      ingest(data.frames);
    });
    source.addEventListener('tap:frames', (e) => {
      const data = parse(TapFramesEventSchema, (e as MessageEvent<string>).data);
      if (data) ingest(data.frames);
    });
    source.addEventListener('tap:faults', (e) => {
      const data = parse(TapFaultsEventSchema, (e as MessageEvent<string>).data);
      if (data) setFaultsState(entriesOf(data.faults));
    });
    source.addEventListener('tap:end', (e) => {
      const data = parse(TapEndEventSchema, (e as MessageEvent<string>).data);
      if (data) setInfo((i) => (i ? { ...i, endedAt: data.endedAt } : i));
      setState('ended');
    });
    source.onerror = () => {
      // A 404 (unknown tap) closes the source for good; otherwise the browser reconnects.
      if (source.readyState === EventSource.CLOSED) setState((s) => (s === 'connecting' ? 'missing' : s));
    };
    return () => source.close();
  }, [id, store, taskFeed]);

  const setFaults = useCallback(
    async (next: TapFaultEntry[]) => {
      // Shown at once; Loupe's echo (`tap:faults`) confirms it, or the error says it did not take.
      setFaultsState(next);
      const res = await loupeFetch(`/api/taps/${encodeURIComponent(id)}/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ faults: next }),
      }).catch((e: unknown) => ({ ok: false, status: 0, statusText: (e as Error).message }) as const);
      setError(res.ok ? undefined : `Could not switch the faults (HTTP ${res.status})`);
    },
    [id],
  );

  return { store, info, state, faults, setFaults, error, frameCount, recording: () => recorder.current?.build() };
}
