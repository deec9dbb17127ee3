'use client';

import type { Grade } from '@/lib/protocol/loupe-api';
import { useReportCard } from './use-report-card';
import { Badge } from '@/components/ui/Badge';

const TONE = { pass: 'success', fail: 'danger', 'not-observed': 'neutral' } as const;
const LABEL = { pass: 'Pass', fail: 'Fail', 'not-observed': 'Not observed' } as const;

function GradeRow({ grade, active, onShow }: { grade: Grade; active: boolean; onShow: (seqs: number[]) => void }) {
  return (
    <li
      data-testid="grade"
      data-grade-id={grade.id}
      data-status={grade.status}
      className={`space-y-1 border-t border-border px-4 py-2 first:border-t-0 ${active ? 'bg-accent/10' : ''}`}
    >
      <div className="flex items-center gap-2">
        <Badge tone={TONE[grade.status]} className="w-28 shrink-0 whitespace-nowrap text-center text-xs font-medium">
          {LABEL[grade.status]}
        </Badge>
        <span className="text-sm font-medium">{grade.title}</span>
      </div>
      {grade.detail ? <p className="text-xs text-muted">{grade.detail}</p> : null}
      <div className="flex flex-wrap items-center gap-1 text-xs">
        {grade.evidence.length ? (
          <>
            <button type="button" data-testid="grade-evidence" className="text-accent hover:underline" onClick={() => onShow(grade.evidence)}>
              Show {grade.evidence.length} journal {grade.evidence.length === 1 ? 'entry' : 'entries'}
            </button>
            {grade.evidence.slice(0, 12).map((seq) => (
              <button key={seq} type="button" className="font-mono text-muted hover:text-accent" onClick={() => onShow([seq])}>
                #{seq}
              </button>
            ))}
          </>
        ) : (
          <span className="text-muted">No journal entries yet</span>
        )}
      </div>
      {grade.specRef ? <p className="text-[11px] text-muted">{grade.specRef}</p> : null}
    </li>
  );
}

/** The client report card: how the client behaved against the spec, each grade linked to its evidence. */
export function ReportCardPanel() {
  const { card, highlighted, highlight } = useReportCard();
  const key = highlighted.join(',');
  return (
    <section
      aria-label="Client report card"
      data-testid="report-card"
      data-state={card.status}
      className="flex min-h-0 flex-col rounded-xl border border-border bg-surface shadow-sm"
    >
      <header className="flex items-center justify-between border-b border-border px-4 py-2">
        <h2 className="text-sm font-semibold">Client report card</h2>
        {highlighted.length ? (
          <button type="button" className="text-xs text-muted hover:text-foreground" onClick={() => highlight([])}>
            Clear highlight
          </button>
        ) : null}
      </header>
      {card.status === 'idle' || card.status === 'loading' ? <p className="px-4 py-4 text-sm text-muted">Grading…</p> : null}
      {card.status === 'unavailable' || card.status === 'error' ? <p className="px-4 py-4 text-sm text-muted">{card.message}</p> : null}
      {card.status === 'ready' ? (
        <ul
          className="max-h-[28rem] overflow-y-auto"
          aria-label="Grades"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a list that scrolls must take focus so a keyboard user can scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
          tabIndex={0}
        >
          {card.card.grades.map((grade) => (
            <GradeRow key={grade.id} grade={grade} active={key !== '' && key === grade.evidence.join(',')} onShow={highlight} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
