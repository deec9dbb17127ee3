'use client';

import { barOf } from '@/lib/state/timeline-lanes';
import { TimeAxis } from './TimeAxis';
import { TimelineRow } from './TimelineRow';
import { TimelineToolbar } from './TimelineToolbar';
import { useTimeline } from './use-timeline';
import { EmptyState } from '@/components/ui/EmptyState';

/**
 * The timeline: every frame of the connection on a time axis, virtualized. Long spans (a task
 * with its polls, an MRTR conversation, a listen stream, an app's bridge) run as lanes on the
 * left; each row's exchange is a bar on the right. Click or arrow keys select an entry for
 * the detail pane. The list is a grid (a `<table>` laid out as blocks, its rows placed by the
 * virtualizer): it holds the focus and the keys, and takes clicks for its rows.
 */
export function Timeline() {
  const t = useTimeline();
  const { visible, items, lanes, buffer } = t;
  const kindKey = lanes.kinds.join(',');
  return (
    <section className="flex min-h-0 flex-1 flex-col rounded-xl border border-border bg-surface" aria-label="Timeline" data-testid="timeline">
      <TimelineToolbar methods={visible.methods} shown={visible.ids.length} />
      <TimeAxis lanes={lanes} />
      <table
        ref={t.scrollRef}
        onScroll={t.onScroll}
        onKeyDown={t.onKeyDown}
        onClick={t.onClick}
        tabIndex={0}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table with role="grid" is the ARIA data grid pattern (HTML-ARIA allows any role on table); the rule's fix, a div, is what useSemanticElements rejects
        role="grid"
        aria-rowcount={visible.ids.length}
        data-testid="timeline-list"
        className="relative block max-h-[85vh] min-h-0 flex-1 overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-accent/40"
      >
        <tbody className="block" style={{ height: t.virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const id = visible.ids[item.index];
            const entry = id === undefined ? undefined : buffer.get(id);
            if (id === undefined || !entry) return null;
            return (
              <TimelineRow
                key={id}
                entry={entry}
                buffer={buffer}
                glyphs={lanes.glyphs.get(id) ?? ''}
                kinds={kindKey}
                bar={barOf(buffer, entry, lanes.from, lanes.to)}
                lintVersion={t.lintVersion}
                selected={t.selectedId === id}
                top={item.start}
              />
            );
          })}
        </tbody>
        {visible.ids.length === 0 ? (
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
