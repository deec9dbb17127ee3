'use client';

import { keyedByContent } from '@/components/ui/content-keys';
import type { DetailDiff } from './use-detail';

const LINE = { same: 'text-muted', add: 'bg-success/10 text-success', del: 'bg-danger/10 text-danger' } as const;
const MARK = { same: ' ', add: '+', del: '-' } as const;

/** The change from the same task's previous snapshot, line by line. */
export function SnapshotDiff({ diff, onSelect }: { diff: DetailDiff; onSelect(id: number): void }) {
  if (diff.kind === 'none') return null;
  return (
    <div className="space-y-2" data-testid="detail-diff">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">Since the previous snapshot</h3>
      {diff.kind === 'first' ? <p className="text-xs text-muted">The first snapshot of task {diff.taskFp} on the timeline.</p> : null}
      {diff.kind === 'too-large' ? <p className="text-xs text-muted">The snapshots are too large to compare here.</p> : null}
      {diff.kind === 'diff' ? (
        <>
          <button type="button" onClick={() => onSelect(diff.previousId)} className="text-xs text-accent hover:underline">
            Go to the previous snapshot
          </button>
          <pre className="max-h-64 overflow-auto rounded-md border border-border bg-surface-muted p-2 font-mono text-xs">
            {keyedByContent(diff.lines, (l) => `${l.op}${l.text}`).map(({ key, item: l }) => (
              <div key={key} data-op={l.op} className={LINE[l.op]}>
                {MARK[l.op]} {l.text}
              </div>
            ))}
          </pre>
        </>
      ) : null}
    </div>
  );
}
