'use client';

import { useControlRoom } from './use-control-room';
import { JournalEntryRow } from './JournalEntryRow';
import { EmptyState } from '@/components/ui/EmptyState';

/** Rows rendered at once; entries highlighted as evidence are rendered even when older. */
const VISIBLE = 300;

/** The live journal: every request the mock received, newest first. */
export function JournalPanel() {
  const journal = useControlRoom((s) => s.journal);
  const highlighted = useControlRoom((s) => s.highlighted);
  const focus = useControlRoom((s) => s.focus);
  const lit = new Set(highlighted);
  const recent = journal.slice(-VISIBLE);
  const older = journal.slice(0, -VISIBLE).filter((r) => lit.has(r.seq));
  const rows = [...older, ...recent].reverse();
  return (
    <section aria-label="Journal" className="flex min-h-0 flex-col rounded-xl border border-border bg-surface shadow-sm">
      <header className="flex items-center justify-between border-b border-border px-4 py-2">
        <h2 className="text-sm font-semibold">
          Journal <span className="font-normal text-muted">({journal.length})</span>
        </h2>
        {highlighted.length ? <span className="text-xs text-accent">{highlighted.length} entries highlighted as evidence</span> : null}
      </header>
      {rows.length === 0 ? (
        <EmptyState testId="journal-empty" className="px-4 py-6">
          No requests yet. Point a client at this scenario&apos;s endpoint and its requests appear here.
        </EmptyState>
      ) : (
        <ol data-testid="journal" className="max-h-[36rem] overflow-y-auto">
          {rows.map((row) => (
            <JournalEntryRow key={row.seq} row={row} highlighted={lit.has(row.seq)} focusNonce={focus?.seq === row.seq ? focus.nonce : undefined} />
          ))}
        </ol>
      )}
      {journal.length > VISIBLE ? <p className="border-t border-border px-4 py-1 text-xs text-muted">Showing the latest {VISIBLE} entries.</p> : null}
    </section>
  );
}
