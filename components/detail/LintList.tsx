'use client';

import { specUrl, type Lint } from '@/lib/protocol';
import { keyedByContent } from '@/components/ui/content-keys';

const STYLE = { error: 'border-danger/40 bg-danger/5', warning: 'border-amber-500/40 bg-amber-500/5', info: 'border-accent/30 bg-accent/5' } as const;

/** The lints on an entry, each with the spec section it enforces. */
export function LintList({ lints, otherLints }: { lints: readonly Lint[]; otherLints: number }) {
  return (
    <div className="space-y-2" data-testid="detail-lints">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">Lints</h3>
      {lints.length === 0 ? <p className="text-xs text-muted">No findings on this entry.</p> : null}
      <ul className="space-y-1.5">
        {keyedByContent(lints, (l) => `${l.id}|${l.path ?? ''}|${l.message}`).map(({ key, item: l }) => (
          <li key={key} data-lint-id={l.id} data-severity={l.severity} className={`rounded-md border p-2 text-xs ${STYLE[l.severity]}`}>
            <div className="flex items-baseline justify-between gap-2">
              <span className="font-mono font-medium">{l.id}</span>
              <span className="uppercase text-muted">{l.severity}</span>
            </div>
            <p className="mt-1">{l.message}</p>
            {l.path ? <p className="mt-1 font-mono text-muted">{l.path}</p> : null}
            <a
              href={specUrl(l.specRef)}
              target="_blank"
              rel="noreferrer noopener"
              className="mt-1 inline-block text-accent hover:underline"
              data-testid="lint-spec-link"
            >
              spec: {l.specRef}
            </a>
          </li>
        ))}
      </ul>
      {otherLints > 0 ? <p className="text-xs text-muted">{otherLints} more on other entries of this exchange.</p> : null}
    </div>
  );
}
