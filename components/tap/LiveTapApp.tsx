'use client';

import { useEffect, useState } from 'react';
import { RecordedApp } from '@/components/recording/RecordedApp';
import type { Recording } from '@/lib/recording/schema';

/**
 * The app view of a live tap: the newest `ui://` resource the tapped client read, shown in the
 * same sandbox as a recording's, with the tool call that brought it. Calls the view makes are
 * answered from what the tap saw, never sent on the tapped connection.
 */
export function LiveTapApp({ recording, frameCount }: { recording: () => Recording | undefined; frameCount: number }) {
  const [built, setBuilt] = useState<{ recording?: Recording; count: number }>({ count: -1 });
  // Rebuilt when frames arrive, at most once a second: a view restarts only when its call changes.
  useEffect(() => {
    if (built.count === frameCount) return;
    const timer = setTimeout(() => setBuilt({ recording: recording(), count: frameCount }), built.count < 0 ? 0 : 1000);
    return () => clearTimeout(timer);
  }, [frameCount, recording, built.count]);
  const r = built.recording;
  if (!r?.frames.length) return <p className="text-xs text-muted">No app view yet.</p>;
  return <RecordedApp recording={r} at={r.frames[r.frames.length - 1]!.at} />;
}
