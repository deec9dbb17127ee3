'use client';

import Link from 'next/link';
import { useState } from 'react';
import { InspectorProvider } from '@/components/inspector/InspectorProvider';
import { StreamsPanel, TasksPanel } from '@/components/inspector/panels';
import { Workbench, WORKBENCH_PAGE } from '@/components/inspector/Workbench';
import { ThemeToggle } from '@/components/ui/ThemeToggle';
import { OpenRecording } from './OpenRecording';
import { RecordedApp } from './RecordedApp';
import { RecordingActions } from './RecordingActions';
import { ReviewDialog } from './ReviewDialog';
import { Scrubber } from './Scrubber';
import { SessionsList } from './SessionsList';
import { useRecordingViewer } from './use-recording-viewer';

/**
 * The recording viewer: open a recording (file picker, drag and drop, share link), then read
 * it like a live session (timeline, detail, tasks, streams, the app view) with no server, and
 * scrub to any moment. From here it can be re-shared, converted into a scenario or replayed.
 */
export function RecordingViewer() {
  const v = useRecordingViewer();
  const [reviewing, setReviewing] = useState(false);
  // The tab outlives the store, which is rebuilt at each moment scrubbed to.
  const [tab, setTab] = useState('app');
  const r = v.loaded?.recording;
  return (
    <main className={WORKBENCH_PAGE} data-testid="recording-viewer" data-state={r ? (v.store ? 'ready' : 'loading') : 'empty'}>
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="text-lg font-semibold tracking-tight">
          Loupe <span className="align-middle text-xs font-normal text-muted">recording</span>
        </h1>
        {r ? (
          <p data-testid="recording-info" className="truncate font-mono text-xs text-muted">
            {v.loaded?.name} · {r.connection.serverInfo ? `${r.connection.serverInfo.name} v${r.connection.serverInfo.version} · ` : ''}
            {r.connection.target || 'unknown server'} · {r.frames.length} frames · recorded {r.createdAt}
            {r.redaction ? ' · secrets replaced by pseudonyms' : ''}
            {v.loaded?.migratedFrom ? ` · upgraded from format ${v.loaded.migratedFrom}` : ''}
            {v.loaded?.har ? ` · HAR: ${v.loaded.har.imported} MCP exchanges (${v.loaded.har.skipped} other entries skipped)` : ''}
          </p>
        ) : null}
        <nav className="ml-auto flex items-center gap-4 text-sm">
          <ThemeToggle />
          <Link href="/" className="text-accent hover:underline">
            Inspector →
          </Link>
        </nav>
      </header>
      {!r ? (
        <>
          <OpenRecording onOpen={v.openText} error={v.error} />
          <SessionsList onOpen={v.openText} />
        </>
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <RecordingActions recording={r} />
            <div className="flex items-center gap-3">
              <button
                type="button"
                data-testid="export-recording"
                onClick={() => setReviewing(true)}
                className="rounded-md border border-border px-2 py-1 text-sm hover:bg-surface-muted"
              >
                Export / share
              </button>
              <OpenRecording onOpen={v.openText} error={v.error} compact />
            </div>
          </div>
          {v.range && v.at !== undefined ? <Scrubber start={v.range.start} end={v.range.end} at={v.at} builtAt={v.builtAt} onScrub={v.scrub} /> : null}
          {v.store ? (
            <InspectorProvider key={v.storeKey} store={v.store}>
              <Workbench
                tab={tab}
                onTab={setTab}
                panels={[
                  { id: 'app', title: 'App view', content: v.at !== undefined ? <RecordedApp recording={r} at={v.builtAt ?? v.at} /> : null },
                  { id: 'tasks', title: 'Tasks', content: <TasksPanel /> },
                  { id: 'streams', title: 'Streams', content: <StreamsPanel /> },
                ]}
              />
            </InspectorProvider>
          ) : (
            <p className="text-sm text-muted">Opening the recording…</p>
          )}
          {reviewing ? <ReviewDialog recording={r} onClose={() => setReviewing(false)} /> : null}
        </>
      )}
    </main>
  );
}
