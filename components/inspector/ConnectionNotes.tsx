'use client';

import { useInspector } from './use-inspector';

/**
 * Under the connection bar: which way the connection goes and why ("via proxy: server sends no
 * Access-Control-Allow-Origin"), and a failed connect as its cause and its fix.
 */
export function ConnectionNotes({ failed }: { failed: boolean }) {
  const route = useInspector((s) => s.connection.route);
  const mode = useInspector((s) => s.connection.config.mode);
  const problem = useInspector((s) => s.connection.problem);
  const error = useInspector((s) => s.connection.error);
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
          {problem?.fix ? (
            <p data-testid="connection-fix" className="font-medium">
              Fix: {problem.fix}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
