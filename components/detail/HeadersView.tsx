'use client';

import type { DetailHeaders } from './use-detail';

/** Header tables of the exchange; masked values (task ids, credentials) until Reveal is clicked. */
export function HeadersView({ headers, reveal, onReveal }: { headers: DetailHeaders[]; reveal: boolean; onReveal(reveal: boolean): void }) {
  const anyMasked = headers.some((h) => h.rows.some((r) => r.masked));
  return (
    <div className="space-y-3" data-testid="detail-headers">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">Headers</h3>
        {anyMasked || reveal ? (
          <button
            type="button"
            data-testid="reveal-toggle"
            aria-pressed={reveal}
            onClick={() => onReveal(!reveal)}
            className="rounded border border-border px-2 py-0.5 text-xs hover:bg-surface-muted"
          >
            {reveal ? 'Hide secrets' : 'Reveal'}
          </button>
        ) : null}
      </div>
      {headers.length === 0 ? <p className="text-xs text-muted">No headers on this entry.</p> : null}
      {headers.map((h) => (
        <table key={h.title} className="w-full table-fixed text-left font-mono text-xs">
          <caption className="pb-1 text-left font-sans text-xs text-muted">{h.title}</caption>
          <tbody>
            {h.rows.map((r) => (
              <tr key={r.name} data-header={r.name} data-masked={r.masked || undefined} className="border-t border-border/60 align-top">
                <td className="w-2/5 py-0.5 pr-2 break-all text-muted">{r.name}</td>
                <td className={`py-0.5 break-all ${r.masked ? 'text-muted' : ''}`}>{r.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}
