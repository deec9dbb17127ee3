'use client';

import { useEffect } from 'react';
import { z } from 'zod';
import { JournalEntrySchema, ScenarioSnapshotSchema, TaskSnapshotSchema } from '@/lib/protocol/loupe-api';
import { useControlRoom, useControlRoomContext } from './use-control-room';

/**
 * Subscribes the control room to `/api/scenarios/<id>/events` (EventSource; the HttpOnly
 * cookie authenticates it) and feeds the store. When the stream fails, one control API call
 * tells why: an expired token or a deleted scenario stop the feed, anything else reconnects.
 */

const SnapshotSchema = ScenarioSnapshotSchema.pick({ entries: true, tasks: true });
const FrameSchema = z.object({ seq: z.number().int(), frame: z.unknown() });

function parse<T>(schema: z.ZodType<T>, event: MessageEvent): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(String(event.data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Keep the store in sync with the scenario's live events while mounted. */
export function useScenarioEvents(): void {
  const { store, client, scenarioId } = useControlRoomContext();
  const epoch = useControlRoom((s) => s.feedEpoch);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `epoch` is the request to reconnect the feed; the effect itself needs nothing from it
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const s = () => store.getState();

    const connect = () => {
      if (stopped) return;
      const es = new EventSource(client.eventsUrl(scenarioId));
      source = es;
      const on = <T>(type: string, schema: z.ZodType<T>, apply: (data: T) => void) =>
        es.addEventListener(type, (event) => {
          const data = parse(schema, event as MessageEvent);
          if (data !== undefined) apply(data);
        });
      on('scenario:snapshot', SnapshotSchema, (d) => s().applySnapshot(d.entries, d.tasks));
      on('journal:entry', JournalEntrySchema, (e) => s().upsertEntry(e));
      on('journal:end', JournalEntrySchema, (e) => s().upsertEntry(e));
      on('journal:frame', FrameSchema, (f) => s().addFrame(f.seq, f.frame));
      on('journal:clear', z.unknown(), () => s().clearJournal());
      for (const type of ['task:created', 'task:changed']) on(type, TaskSnapshotSchema, (t) => s().upsertTask(t));
      on('task:expired', TaskSnapshotSchema, (t) => s().expireTask(t));
      on('scenario:reset', z.unknown(), () => s().resetAll());
      on('scenario:replaced', z.unknown(), () => s().resetAll());
      on('scenario:deleted', z.unknown(), () => {
        s().setFeed('gone');
        es.close();
      });
      es.onopen = () => {
        if (s().feed !== 'live') s().setFeed('live');
      };
      es.onerror = () => {
        if (stopped) return;
        s().setFeed('reconnecting');
        // The browser retries by itself unless the answer was not an event stream.
        if (es.readyState !== EventSource.CLOSED) return;
        void client.tasks(scenarioId).then((probe) => {
          if (stopped) return;
          if (!probe.ok && probe.status === 401) return s().setFeed('unauthorized');
          if (!probe.ok && (probe.status === 404 || probe.status === 400)) return s().setFeed('gone');
          retry = setTimeout(connect, 2000);
        });
      };
    };
    connect();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      source?.close();
    };
  }, [store, client, scenarioId, epoch]);
}
