'use client';

import type { LaneModel } from '@/lib/state/timeline-lanes';
import { LANE_COLOR, LANE_WIDTH } from './TimelineRow';

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

/**
 * The header of the timeline: column names, the lanes in view (span kind and label on hover),
 * and the time scale of the waterfall column (the window's first to last instant).
 */
export function TimeAxis({ lanes }: { lanes: LaneModel }) {
  const span = Math.max(0, lanes.to - lanes.from);
  return (
    <div
      className="flex h-7 items-center gap-2 border-b border-border bg-surface-muted px-2 font-mono text-[10px] uppercase tracking-wide text-muted"
      data-testid="time-axis"
    >
      <span className="w-[86px] shrink-0">time</span>
      {lanes.kinds.length ? (
        <span className="relative h-full shrink-0" style={{ width: lanes.kinds.length * LANE_WIDTH }}>
          {lanes.lanes.map(({ span: s, lane }) => (
            <span
              key={s.key}
              data-testid="span-lane"
              data-kind={s.kind}
              data-label={s.label}
              data-first-id={s.firstId}
              data-last-id={s.lastId}
              title={`${s.label} · ${s.count} entries${s.errors ? ` · ${s.errors} errors` : ''}${s.open ? ' · open' : ''}`}
              className={`absolute top-2 size-2 rounded-full ${LANE_COLOR[s.kind]}`}
              style={{ left: lane * LANE_WIDTH + 2 }}
            />
          ))}
        </span>
      ) : null}
      <span className="w-3 shrink-0" />
      <span className="w-9 shrink-0">kind</span>
      <span className="min-w-0 flex-1">method</span>
      <span className="w-28 shrink-0">status</span>
      <span className="w-14 shrink-0">id</span>
      <span className="w-16 shrink-0">task</span>
      <span className="w-10 shrink-0">lints</span>
      <span className="flex w-32 shrink-0 justify-between border-l border-border pl-1" title="The exchange of each row on the time scale of the rows in view">
        <span>0</span>
        <span data-testid="time-axis-range">{duration(span)}</span>
      </span>
    </div>
  );
}
