'use client';

import { useEffect, useState } from 'react';
import { useInspector } from '@/components/inspector/use-inspector';
import { RecordedApp } from '@/components/recording/RecordedApp';
import { clockTime } from '@/components/ui/clock-time';
import { appAt } from '@/lib/recording/moment';
import type { Recording } from '@/lib/recording/schema';
import { selectSelectedId } from '@/lib/state/selectors';

/** When the app view of a call is: once the call has its answer, or once its view was read if the client read it after. */
function momentOf(r: Recording, callEnd: number): number {
  if (appAt(r, callEnd)) return callEnd;
  const later = r.frames.find((f) => f.at > callEnd && f.method === 'resources/read' && f.direction === 'in' && appAt(r, f.at));
  return later?.at ?? callEnd;
}

/**
 * The app view of a live tap: the `ui://` resource the tapped client read, shown in the same
 * sandbox as a recording's with the tool call that brought it: the selected tools/call on the
 * timeline, else the newest. Calls the view makes are answered from what the tap saw, never
 * sent on the tapped connection.
 */
export function LiveTapApp({ recording, frameCount }: { recording: () => Recording | undefined; frameCount: number }) {
  const [built, setBuilt] = useState<{ recording?: Recording; count: number }>({ count: -1 });
  const selectedId = useInspector(selectSelectedId);
  const buffer = useInspector((s) => s.timeline.buffer);
  // Rebuilt when frames arrive, at most once a second: a view restarts only when its call changes.
  useEffect(() => {
    if (built.count === frameCount) return;
    const timer = setTimeout(() => setBuilt({ recording: recording(), count: frameCount }), built.count < 0 ? 0 : 1000);
    return () => clearTimeout(timer);
  }, [frameCount, recording, built.count]);
  const r = built.recording;
  if (!r?.frames.length) return <p className="text-xs text-muted">No app view yet.</p>;
  const selected = selectedId !== undefined ? buffer.get(selectedId) : undefined;
  const call = selected?.method === 'tools/call' ? buffer.span(`exchange:${selected.exchangeId}`) : undefined;
  const at = call ? momentOf(r, call.endAt) : r.frames[r.frames.length - 1]!.at;
  return (
    <div className="flex h-full flex-col gap-1" data-testid="tap-app" data-call={call ? selected?.exchangeId : undefined}>
      <p className="text-xs text-muted">
        {call
          ? `The view of the selected call (${call.label}, ${clockTime(call.startAt)})`
          : 'The newest view; select a tools/call on the timeline for its view.'}
      </p>
      {/* Another call starts the view again, with that call's input and result. */}
      <RecordedApp key={call?.key ?? 'newest'} recording={r} at={at} />
    </div>
  );
}
