'use client';

import { type UIEvent, useRef } from 'react';
import { barOf } from '@/lib/state/timeline-lanes';
import type { TimelineBuffer } from '@/lib/state/timeline-buffer';
import type { ListRow } from '@/lib/state/timeline-rows';
import type { TimelineEntry } from '@/lib/state/timeline-types';
import { formatSpan } from '@/lib/state/timeline-window';
import { EmptyState } from '@/components/ui/EmptyState';
import { formatBytes } from './columns';
import { TimeAxis } from './TimeAxis';
import { type ExchangeFacts, TimelineRow } from './TimelineRow';
import { TimelineToolbar } from './TimelineToolbar';
import { useTimeline } from './use-timeline';

/** An exchange row's facts from its span: HTTP status and answer, how long it took (so far, while open), its bytes. */
function exchangeFacts(buffer: TimelineBuffer, row: ListRow, e: TimelineEntry): ExchangeFacts | undefined {
  if (!row.exchange) return undefined;
  const span = buffer.span(`exchange:${row.exchange.id}`);
  const status = [span?.httpStatus, span?.status ?? (span?.open ? 'pending' : undefined)].filter((s) => s !== undefined).join(' ');
  return {
    ...row.exchange,
    status: span ? status : (e.status ?? ''),
    duration: span ? `${span.open ? '≥' : ''}${formatSpan(span.endAt - span.startAt)}` : '',
    size: formatBytes(span?.bytes ?? e.bytes),
    open: span?.open ?? false,
    error: (span?.errors ?? 0) > 0 || e.isError,
    ...(span?.fault ? { fault: span.fault } : {}),
  };
}

/**
 * The timeline: the connection's traffic, one row per HTTP exchange (method, status, duration,
 * size, lints, a waterfall bar) that unfolds into its frames, virtualized. Long spans (a task
 * with its polls, an MRTR conversation, a listen stream, an app's bridge) run as lettered lanes
 * on the left. Click or arrow keys select an entry for the detail pane. The list is a grid (a
 * `<table>` laid out as blocks, its rows placed by the virtualizer): it holds the focus and the
 * keys, and takes clicks for its rows.
 */
export function Timeline() {
  const t = useTimeline();
  const { visible, items, lanes, buffer, rows, waterfall } = t;
  const kindKey = lanes.kinds.join(',');
  // The header row sits outside the scroller (it stays put vertically); sideways it follows the
  // rows, which in a narrow pane are wider than the pane. Both keep a scrollbar's gutter, so with
  // always-shown scrollbars the header is exactly as wide as the rows beside the list's bar.
  const axisRef = useRef<HTMLDivElement>(null);
  const onScroll = (e: UIEvent<HTMLTableElement>) => {
    t.onScroll(e);
    if (axisRef.current) axisRef.current.scrollLeft = e.currentTarget.scrollLeft;
  };
  return (
    <section
      ref={t.sectionRef}
      className="flex min-h-0 flex-1 flex-col rounded-xl border border-border bg-surface"
      aria-label="Timeline"
      data-testid="timeline"
    >
      <TimelineToolbar methods={visible.methods} shown={visible.ids.length} />
      <div ref={axisRef} className="shrink-0 overflow-hidden [scrollbar-gutter:stable]">
        <TimeAxis lanes={lanes} waterfall={waterfall} />
      </div>
      <table
        ref={t.scrollRef}
        onScroll={onScroll}
        onKeyDown={t.onKeyDown}
        onClick={t.onClick}
        tabIndex={0}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table with role="treegrid" is the ARIA tree grid pattern (HTML-ARIA allows any role on table; rows that unfold need it); the rule's fix, a div, is what useSemanticElements rejects
        role="treegrid"
        aria-label="Exchanges and frames"
        aria-rowcount={rows.length}
        data-testid="timeline-list"
        className="relative block min-h-0 flex-1 overflow-auto outline-none [contain:strict] [scrollbar-gutter:stable] focus-visible:ring-2 focus-visible:ring-accent/40"
      >
        <tbody className="block" style={{ height: t.virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows.at(item.index);
            const entry = row ? buffer.get(row.id) : undefined;
            if (!row || !entry) return null;
            const x = exchangeFacts(buffer, row, entry);
            return (
              <TimelineRow
                key={row.key}
                entry={entry}
                buffer={buffer}
                exchange={x}
                child={row.child}
                glyphs={lanes.glyphs.get(row.first) ?? ''}
                kinds={kindKey}
                bar={barOf(buffer, entry, waterfall.win.from, waterfall.win.to, !x)}
                size={formatBytes(entry.bytes)}
                lintVersion={t.lintVersion}
                selected={t.selectedRow === item.index}
                top={item.start}
              />
            );
          })}
        </tbody>
        {rows.length === 0 ? (
          <tbody className="block">
            <tr className="block">
              <td className="block">
                <EmptyState testId="timeline-empty" className="p-6">
                  {visible.total ? 'No entry matches the filters.' : 'Nothing yet: frames appear here as the inspector talks to the server.'}
                </EmptyState>
              </td>
            </tr>
          </tbody>
        ) : null}
      </table>
    </section>
  );
}
