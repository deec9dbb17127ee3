'use client';

import { memo, useMemo } from 'react';
import type { TimelineBuffer } from '@/lib/state/timeline-buffer';
import type { SpanKind, TimelineEntry } from '@/lib/state/timeline-types';
import { lintsForEntry, worstSeverity } from '@/lib/state/selectors';
import { clockTime } from '@/components/ui/clock-time';

/** Colours of the span lanes, by kind. */
export const LANE_COLOR: Record<SpanKind, string> = {
  exchange: 'bg-muted',
  task: 'bg-amber-500',
  conversation: 'bg-violet-500',
  listen: 'bg-sky-500',
  bridge: 'bg-emerald-500',
};

const KIND_TAG: Record<TimelineEntry['kind'], string> = {
  'http-request': 'POST',
  'http-response': 'HEAD',
  message: 'MSG',
  'sse-open': 'SSE+',
  'sse-frame': 'SSE',
  'sse-comment': '···',
  'sse-close': 'END',
  error: 'ERR',
  bridge: 'APP',
};

const SEVERITY_STYLE = { error: 'bg-danger/15 text-danger', warning: 'bg-amber-500/15 text-warning', info: 'bg-accent/10 text-accent' } as const;
/** Width of one lane in pixels, shared by the rows and the time axis so the lanes line up. */
export const LANE_WIDTH = 10;

/** Short JSON-RPC id for the row (ids can be long strings). */
function shortId(id: TimelineEntry['rpcId']): string {
  if (id === undefined) return '';
  const s = String(id);
  return `#${s.length > 6 ? `${s.slice(0, 5)}…` : s}`;
}

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
        <span key={lane} className="absolute inset-y-0" style={{ left: lane * LANE_WIDTH + 3, width: 4 }}>
          <span className={`absolute left-[1.5px] w-px ${color} ${glyph === 's' ? 'top-1/2 bottom-0' : glyph === 'e' ? 'top-0 bottom-1/2' : 'inset-y-0'}`} />
          {glyph !== '|' ? <span className={`absolute top-1/2 left-0 size-1 -translate-y-1/2 rounded-full ${color}`} /> : null}
        </span>
      ))}
    </td>
  );
}

function Bar({ bar, error }: { bar: string; error: boolean }) {
  const [start = 0, width = 0, tick = 0] = bar.split(',').map(Number);
  return (
    <td className="relative h-full w-32 shrink-0 border-l border-border" aria-hidden>
      {width > 0 ? (
        <span
          className={`absolute top-1/2 h-1.5 -translate-y-1/2 rounded-sm ${error ? 'bg-danger/40' : 'bg-accent/30'}`}
          style={{ left: `${start / 10}%`, width: `max(2px, ${width / 10}%)` }}
        />
      ) : null}
      <span className={`absolute inset-y-1.5 w-0.5 ${error ? 'bg-danger' : 'bg-accent'}`} style={{ left: `${tick / 10}%` }} />
    </td>
  );
}

interface TimelineRowProps {
  entry: TimelineEntry;
  buffer: TimelineBuffer;
  /** Lane glyphs of this row (see lib/state/timeline-lanes.ts). */
  glyphs: string;
  /** Span kind of each lane, comma-separated (a string, so memo compares it by value). */
  kinds: string;
  /** Exchange bar "start,width,tick" on the window's time scale. */
  bar: string;
  lintVersion: number;
  selected: boolean;
  top: number;
}

/**
 * One timeline entry, a row of the timeline's grid; memoized, so a new frame re-renders only rows
 * whose inputs changed. The grid selects on click (by the row's `data-id`) and with arrow keys.
 */
export const TimelineRow = memo(function TimelineRow({ entry: e, buffer, glyphs, kinds, bar, lintVersion, selected, top }: TimelineRowProps) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer's lints are mutated in place; `lintVersion` is the counter that moves when they change
  const lints = useMemo(() => lintsForEntry(buffer, e), [buffer, e, lintVersion]);
  const severity = worstSeverity(lints);
  const label = e.kind === 'sse-comment' ? 'keep-alive' : (e.method ?? e.kind);
  return (
    <tr
      aria-selected={selected}
      data-testid="timeline-row"
      data-id={e.id}
      data-kind={e.kind}
      data-method={e.method ?? ''}
      data-direction={e.direction}
      data-error={e.isError || undefined}
      className={`absolute inset-x-0 flex h-7 cursor-pointer items-center gap-2 border-b border-border/60 px-2 font-mono text-xs ${selected ? 'bg-accent/10' : 'hover:bg-surface-muted'} ${e.isError ? 'text-danger' : ''}`}
      style={{ top }}
    >
      <td className="w-[86px] shrink-0 text-muted">{clockTime(e.at)}</td>
      {kinds ? <Lanes glyphs={glyphs} kinds={kinds.split(',') as SpanKind[]} /> : null}
      <td className={`w-3 shrink-0 text-center ${e.direction === 'out' ? 'text-accent' : 'text-success'}`} title={e.direction === 'out' ? 'sent' : 'received'}>
        {e.direction === 'out' ? '→' : '←'}
      </td>
      <td className="w-9 shrink-0 text-[10px] text-muted">{KIND_TAG[e.kind]}</td>
      <td className="min-w-0 flex-1 truncate" title={[label, e.target].filter(Boolean).join(' ')}>
        {label}
        {e.target && e.direction === 'out' ? <span className="text-muted"> {e.target}</span> : null}
      </td>
      <td className="w-28 shrink-0 truncate text-muted" data-testid="row-status">
        {e.status ?? ''}
      </td>
      <td className="w-14 shrink-0 truncate text-muted" title={e.rpcId !== undefined ? `JSON-RPC id ${String(e.rpcId)}` : undefined}>
        {shortId(e.rpcId)}
      </td>
      <td className="w-16 shrink-0 text-warning" data-testid={e.taskFp ? 'task-fp' : undefined} title={e.taskFp ? 'task fingerprint' : undefined}>
        {e.taskFp ?? ''}
      </td>
      <td className="w-10 shrink-0">
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
      <Bar bar={bar} error={e.isError} />
    </tr>
  );
});
