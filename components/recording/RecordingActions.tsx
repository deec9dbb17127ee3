'use client';

import Link from 'next/link';
import { ActionButton } from '@/components/ui/ActionButton';
import type { Recording } from '@/lib/recording/schema';
import { useRecordingActions, type ActionState } from './use-recording-actions';

/** "Convert to scenario" (opens the control room on it) and "Replay as a mock" (a live endpoint). */
export function RecordingActions({ recording }: { recording: Recording }) {
  const a = useRecordingActions(recording);
  return (
    <div className="space-y-1" data-testid="recording-actions">
      <div className="flex flex-wrap gap-2">
        <ActionButton
          action="convert-to-scenario"
          data-testid="convert-to-scenario"
          disabled={a.convert.phase === 'busy'}
          onClick={() => void a.toScenario()}
          title="Tools, results and task lifecycles as an editable scenario, opened in the control room"
        >
          Convert to scenario
        </ActionButton>
        <ActionButton
          action="replay"
          data-testid="replay-recording"
          disabled={a.replay.phase === 'busy'}
          onClick={() => void a.serve()}
          title="Serve this recording as a mock: requests are answered with the recorded responses"
        >
          Replay as a mock
        </ActionButton>
      </div>
      <Status state={a.convert} testId="convert-status" />
      {a.replay.phase === 'done' ? (
        <p data-testid="replay-status" data-path={a.replay.path} className="text-xs">
          Serving {a.replay.exchanges} recorded exchanges at <code className="font-mono">{a.replay.path}</code> (POST, like any MCP endpoint; try{' '}
          <code className="font-mono">
            mcp-loupe tools --url {origin()}
            {a.replay.path}
          </code>
          ).{' '}
          <Link href={`/replay/${a.replay.path.split('/').pop()}`} className="text-accent hover:underline" data-testid="inspect-replay">
            Inspect it live →
          </Link>
        </p>
      ) : (
        <Status state={a.replay} testId="replay-status" />
      )}
    </div>
  );
}

const origin = () => (typeof window === 'undefined' ? '' : window.location.origin);

function Status({ state, testId }: { state: ActionState; testId: string }) {
  if (state.phase === 'busy') return <p className="text-xs text-muted">Working…</p>;
  if (state.phase === 'error')
    return (
      <p role="alert" data-testid={testId} data-state="error" className="text-xs text-danger">
        {state.message}
      </p>
    );
  return null;
}
