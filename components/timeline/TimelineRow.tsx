'use client';

import { memo, useMemo } from 'react';
import type { TimelineBuffer } from '@/lib/state/timeline-buffer';
import type { SpanKind, TimelineEntry } from '@/lib/state/timeline-types';
import { lintsForEntry, worstSeverity } from '@/lib/state/selectors';
import { clockTime } from '@/components/ui/clock-time';
import { COLUMNS, KIND_TAG, LANE_COLOR, LANE_WIDTH } from './columns';

const SEVERITY_STYLE = { error: 'bg-danger/15 text-danger', warning: 'bg-amber-500/15 text-warning', info: 'bg-accent/10 text-accent' } as const;

/** The lanes this row is on: a glyph per lane (' ' when the lane's span does not cover the row). */
function Lanes({ glyphs, kinds }: { glyphs: string; kinds: readonly SpanKind[] }) {
  // A mark is keyed by its lane number: the lane, not the position in a list, is what it shows.
  const marks = [...glyphs].flatMap((glyph, lane) => {
    const kind = kinds[lane];
    return glyph === ' ' ? [] : [{ lane, glyph, color: kind ? LANE_COLOR[kind] : '' }];
  });
  return (
    <td className="relative h-full shrink-0" style={{ width: kinds.length * LANE_WIDTH }} aria-hidden>
      {marks.map(({ lane, glyph, color }) => (
        <span key={lane} className="absolute inset-y-0" style={{ left: lane * LANE_WIDTH + 4, width: 4 }}>
          <span className={`absolute left-[1.5px] w-px ${color} ${glyph === 's' ? 'top-1/2 bottom-0' : glyph === 'e' ? 'top-0 bottom-1/2' : 'inset-y-0'}`} />
          {glyph !== '|' ? <span className={`absolute top-1/2 left-0 size-1 -translate-y-1/2 rounded-full ${color}`} /> : null}
        </span>
      ))}
    </td>
  );
}

function Bar({ bar, error, open }: { bar: string; error: boolean; open: boolean }) {
  const [start = 0, width = 0, tick = -1] = bar ? bar.split(',').map(Number) : [];
  return (
    <td className={`relative h-full ${COLUMNS.waterfall} border-l border-border`} data-waterfall aria-hidden>
      {bar && (width > 0 || tick < 0) ? (
        <span
          className={`absolute top-1/2 h-2 -translate-y-1/2 rounded-sm ${error ? 'bg-danger/50' : open ? 'bg-accent/20' : 'bg-accent/40'}`}
          style={{ left: `${start / 10}%`, width: `max(2px, ${width / 10}%)` }}
        />
      ) : null}
      {tick >= 0 ? <span className={`absolute inset-y-1.5 w-0.5 ${error ? 'bg-danger' : 'bg-accent'}`} style={{ left: `${tick / 10}%` }} /> : null}
    </td>
  );
}

/** What an exchange row shows, computed by the list from its span (strings, so memo compares them). */
export interface ExchangeFacts {
  id: string;
  frames: number;
  expanded: boolean;
  status: string;
  duration: string;
  size: string;
  open: boolean;
  error: boolean;
  /** The faults a tap injected into the exchange. */
  fault?: string;
}

interface TimelineRowProps {
  entry: TimelineEntry;
  buffer: TimelineBuffer;
  /** Set for an exchange row (one row for all its frames). */
  exchange?: ExchangeFacts;
  /** A frame shown under its expanded exchange. */
  child?: boolean;
  /** Lane glyphs of this row (see lib/state/timeline-lanes.ts). */
  glyphs: string;
  /** Span kind of each lane, comma-separated (a string, so memo compares it by value). */
  kinds: string;
  /** Exchange bar "start,width,tick" on the waterfall window. */
  bar: string;
  /** Size and duration of a frame row. */
  size: string;
  lintVersion: number;
  selected: boolean;
  top: number;
}

/**
 * One row of the timeline's grid, an exchange or a frame; memoized, so a new frame re-renders
 * only rows whose inputs changed. The grid selects on click (by the row's `data-id`), folds and
 * unfolds on the chevron and with ←/→.
 */
export const TimelineRow = memo(function TimelineRow(p: TimelineRowProps) {
  const { entry: e, buffer, exchange: x } = p;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer's lints are mutated in place; `lintVersion` is the counter that moves when they change
  const lints = useMemo(() => (x ? (buffer.lintsOf(e.exchangeId) ?? []) : lintsForEntry(buffer, e)), [buffer, e, x, p.lintVersion]);
  const severity = worstSeverity(lints);
  const label = e.kind === 'sse-comment' ? 'keep-alive' : e.auth ? `auth ${e.auth.step}` : (e.method ?? e.kind);
  const error = x ? x.error : e.isError;
  const fault = x ? x.fault : e.fault;
  const expandable = x && x.frames > 1;
  return (
    <tr
      aria-selected={p.selected}
      aria-expanded={expandable ? x.expanded : undefined}
      aria-level={p.child ? 2 : 1}
      data-testid="timeline-row"
      data-id={e.id}
      data-kind={x ? 'exchange' : e.kind}
      data-exchange={x?.id}
      data-child={p.child || undefined}
      data-method={e.method ?? ''}
      data-direction={x ? undefined : e.direction}
      data-error={error || undefined}
      data-fault={fault}
      className={`absolute inset-x-0 flex h-7 cursor-pointer items-center gap-2 border-b border-border/60 px-2 font-mono text-xs ${p.selected ? 'bg-accent/10' : 'hover:bg-surface-muted'} ${error ? 'text-danger' : ''}`}
      style={{ top: p.top }}
    >
      <td className={`${COLUMNS.time} text-muted`}>{clockTime(e.at)}</td>
      {p.kinds ? <Lanes glyphs={p.glyphs} kinds={p.kinds.split(',') as SpanKind[]} /> : null}
      <td
        className={`flex ${COLUMNS.method} items-center gap-1 ${p.child ? 'pl-5' : ''}`}
        title={[label, e.target].filter(Boolean).join(' ')}
        data-testid="row-method"
      >
        {x ? (
          <span data-expand className={`w-3 shrink-0 text-muted ${expandable ? '' : 'invisible'}`}>
            {x.expanded ? '▾' : '▸'}
          </span>
        ) : (
          <span className={`shrink-0 ${e.direction === 'out' ? 'text-accent' : 'text-success'}`} title={e.direction === 'out' ? 'sent' : 'received'}>
            {e.direction === 'out' ? '→' : '←'} <span className="text-[10px] text-muted">{KIND_TAG[e.kind]}</span>
          </span>
        )}
        <span className="truncate">
          {label}
          {e.target ? <span className="text-muted"> {e.target}</span> : null}
        </span>
        {fault ? (
          // An injected fault, marked apart from the peers' own errors (neither peer caused it).
          <span className="shrink-0 truncate rounded bg-warning/15 px-1 text-warning" data-testid="fault-mark" title={`fault injected by the tap: ${fault}`}>
            ⚡{fault}
          </span>
        ) : null}
        {e.taskFp ? (
          <span className="shrink-0 text-warning" data-testid="task-fp" title="task fingerprint">
            {e.taskFp}
          </span>
        ) : null}
      </td>
      <td className={`${COLUMNS.status} truncate text-muted`} data-testid="row-status">
        {x ? x.status : (e.status ?? '')}
      </td>
      <td className={`${COLUMNS.duration} text-right whitespace-nowrap text-muted`} data-testid="row-duration">
        {x ? x.duration : ''}
      </td>
      <td className={`${COLUMNS.size} text-right whitespace-nowrap text-muted`} data-testid="row-size">
        {x ? x.size : p.size}
      </td>
      <td className={COLUMNS.lints}>
        {severity ? (
          <span
            data-testid="lint-badge"
            data-severity={severity}
            title={lints.map((l) => l.message).join('\n')}
            className={`rounded px-1 ${SEVERITY_STYLE[severity]}`}
          >
            ⚑{lints.length}
          </span>
        ) : null}
      </td>
      <Bar bar={p.bar} error={error} open={x?.open ?? false} />
    </tr>
  );
});
