'use client';

import { useMemo, useRef } from 'react';
import { AppView } from '@/components/apps/AppView';
import { createMemoryTransport } from '@/lib/client/memory-transport';
import type { RequestOutcome } from '@/lib/client/results';
import { createClientSession, type ClientSession } from '@/lib/client/session';
import type { Tool } from '@/lib/protocol';
import { appAt, recordedAppCall } from '@/lib/recording/moment';
import { createReplay } from '@/lib/recording/replay';
import type { Recording } from '@/lib/recording/schema';
import { INSPECTOR_CAPABILITIES } from '@/lib/state/inspector-capabilities';

/**
 * The app view as it was at a moment of a recording: the HTML stored in the recording runs in
 * the same sandbox as live, with the recorded call's input and (if it had arrived) its result;
 * calls the view makes are answered by a replay of the recording, so no server is needed.
 */
export function RecordedApp({ recording, at }: { recording: Recording; at: number }) {
  const app = useMemo(() => appAt(recording, at), [recording, at]);
  const call = useMemo(() => (app ? recordedAppCall(recording, app, at) : undefined), [recording, app, at]);
  // The replay indexes every recorded exchange: build it when the view first calls a tool.
  const replay = useRef<{ recording: Recording; session: ClientSession }>(undefined);
  const replaySession = () => {
    if (replay.current?.recording !== recording) {
      const session = createClientSession({
        transport: createMemoryTransport(createReplay(recording)),
        era: recording.connection.era === 'legacy' ? 'legacy' : 'modern',
        capabilities: INSPECTOR_CAPABILITIES,
      });
      replay.current = { recording, session };
    }
    return replay.current.session;
  };
  if (!app) {
    return (
      <p data-testid="recorded-app-none" className="text-xs text-muted">
        No app view had been shown by this moment.
      </p>
    );
  }
  if (!call) {
    return (
      <p data-testid="recorded-app-none" className="text-xs text-muted">
        The recording holds the HTML of {app.uri} but not the tool call that showed it.
      </p>
    );
  }
  const outcome: RequestOutcome | undefined = call.result ? { type: 'complete', result: call.result } : undefined;
  const info = recording.connection.serverInfo;
  return (
    <div data-testid="recorded-app" data-uri={app.uri} data-digest={app.digest}>
      <AppView
        // A new moment with another call or result starts the view again, as the live host would.
        key={`${app.digest}:${call.result ? 'done' : 'running'}`}
        tool={call.tool as unknown as Tool}
        tools={call.tools as unknown as Tool[]}
        input={call.input}
        outcome={outcome}
        server={{ id: `recording:${recording.createdAt}:${recording.connection.target}`, name: info?.name, version: info?.version }}
        readResource={async () => ({ type: 'complete', result: call.resource })}
        callTool={(name, args) => replaySession().callTool(name, args)}
      />
    </div>
  );
}
