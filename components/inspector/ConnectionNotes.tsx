'use client';

import { useShallow } from 'zustand/react/shallow';
import { lastStderr } from '@/lib/state/server-output-slice';
import { useInspector } from './use-inspector';

/**
 * Under the connection bar: which way the connection goes and why ("via proxy: server sends no
 * Access-Control-Allow-Origin"), and a failed connect as its cause and its fix; for a stdio
 * server, its last stderr lines too (a crash says why there) and a way to all of its output.
 */
export function ConnectionNotes({ failed }: { failed: boolean }) {
  const route = useInspector((s) => s.connection.route);
  const mode = useInspector((s) => s.connection.config.mode);
  const problem = useInspector((s) => s.connection.problem);
  const error = useInspector((s) => s.connection.error);
  const stderr = useInspector(useShallow((s) => (s.connection.config.mode === 'stdio' ? lastStderr(s.serverOutput.lines, s.connection.epoch) : [])));
  const setPanel = useInspector((s) => s.ui.setPanel);
  // "chosen": the user picked direct or proxy; only auto's own choice needs explaining.
  const showRoute = route && mode === 'auto' && !failed;
  return (
    <>
      {showRoute ? (
        <p data-testid="connection-route" data-via={route.via} className="text-xs text-muted">
          {route.via === 'proxy' ? 'via proxy' : 'direct'}: {route.reason}
        </p>
      ) : null}
      {failed && error ? (
        <div role="alert" className="space-y-1 rounded-md border border-danger/40 bg-danger/10 p-2 text-xs text-danger">
          <p data-testid="connection-error" className="font-mono">
            {error}
          </p>
          {stderr.length ? (
            <pre data-testid="connection-stderr" className="whitespace-pre-wrap break-all rounded bg-surface/60 p-1.5 font-mono text-foreground">
              {stderr.join('\n')}
            </pre>
          ) : null}
          {problem?.fix ? (
            <p data-testid="connection-fix" className="font-medium">
              Fix: {problem.fix}
            </p>
          ) : null}
          {mode === 'stdio' ? (
            <button type="button" data-testid="show-server-output" onClick={() => setPanel('output')} className="font-medium underline">
              Show all server output
            </button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
