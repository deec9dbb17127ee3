'use client';

import Link from 'next/link';
import { useState } from 'react';
import { useInspectorStore } from '@/components/inspector/InspectorProvider';
import type { Recording } from '@/lib/recording/schema';
import { ReviewDialog } from './ReviewDialog';
import { useSessionRecorder } from './use-session-recorder';

/**
 * The inspector's recording controls: the session is recorded from the first frame (and
 * autosaved under .loupe/recordings/); "Export / share" opens the review screen with a
 * snapshot of it; "Open a recording" goes to the viewer (file, drag and drop, share link).
 */
export function RecordingMenu() {
  const store = useInspectorStore();
  const recorder = useSessionRecorder(store);
  const [snapshot, setSnapshot] = useState<Recording>();
  return (
    <div className="flex items-center gap-3 text-sm" data-testid="recording-menu">
      <button
        type="button"
        data-testid="export-session"
        onClick={() => setSnapshot(recorder.build())}
        className="rounded-md border border-border px-2 py-1 hover:bg-surface-muted"
        title="Review and publish this session: a share link, a recording file or a HAR (redacted by default)"
      >
        Export / share
      </button>
      <Link href="/recording" className="text-accent hover:underline" data-testid="open-recording-link">
        Open a recording
      </Link>
      {snapshot ? (
        <ReviewDialog
          recording={snapshot}
          onClose={() => setSnapshot(undefined)}
          note={recorder.dropped ? `The session outgrew the recording's memory budget: its first ${recorder.dropped} frames are not included.` : undefined}
        />
      ) : null}
    </div>
  );
}
