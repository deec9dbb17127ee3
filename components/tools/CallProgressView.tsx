'use client';

import type { CallProgress } from './use-tool-call';

/**
 * The server's latest notifications/progress for a running call: a bar when it gave a total
 * (else an indeterminate one), the count, and its message as plain text.
 */
export function CallProgressView({ progress }: { progress: CallProgress }) {
  const { total } = progress;
  const known = total !== undefined && Number.isFinite(total) && total > 0;
  const label = `${progress.progress}${known ? ` of ${total}` : ''}`;
  return (
    <div data-testid="call-progress" data-progress={progress.progress} className="flex min-w-0 items-center gap-2 text-xs text-muted">
      <progress className="w-32" aria-label="Progress reported by the server" {...(known ? { value: Math.min(progress.progress, total), max: total } : {})} />
      <span className="tabular-nums">{label}</span>
      {progress.message ? <span className="truncate">{progress.message}</span> : null}
    </div>
  );
}
