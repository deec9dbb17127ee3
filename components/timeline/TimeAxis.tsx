'use client';

import type { LaneModel } from '@/lib/state/timeline-lanes';
import { formatSpan } from '@/lib/state/timeline-window';
import { COLUMNS, LANE_COLOR, LANE_LETTER, LANE_WIDTH } from './columns';
import type { Waterfall } from './use-waterfall';

const KIND_NAME = {
  exchange: 'exchange',
  task: 'task',
  conversation: 'MRTR conversation',
  listen: 'listen stream',
  bridge: 'app bridge',
  auth: 'authorization (OAuth)',
} as const;
const zoomButton = 'rounded px-1 leading-4 hover:bg-surface hover:text-foreground';

/** The waterfall's header cell: the window's length and the zoom and pan buttons (the wheel and keys do the same). */
function WaterfallHead({ w }: { w: Waterfall }) {
  return (
    <span
      className={`flex ${COLUMNS.waterfall} items-center justify-between border-l border-border pl-1 normal-case tracking-normal`}
      data-waterfall
      data-testid="waterfall-head"
      data-from={Math.round(w.win.from)}
      data-to={Math.round(w.win.to)}
      data-pinned={w.pinned || undefined}
      title="The time window of the bars. Ctrl + wheel zooms, Shift + wheel pans; in the list, + and − zoom, Shift + ←/→ pan, 0 fits the rows in view."
    >
      <span data-testid="time-axis-range">{formatSpan(Math.max(0, w.win.to - w.win.from))}</span>
      <span className="flex items-center">
        <button type="button" className={zoomButton} aria-label="Pan earlier" onClick={() => w.pan(-0.25)}>
          ◀
        </button>
        <button type="button" className={zoomButton} aria-label="Zoom out" data-testid="zoom-out" onClick={() => w.zoom(2)}>
          −
        </button>
        <button type="button" className={zoomButton} aria-label="Zoom in" data-testid="zoom-in" onClick={() => w.zoom(0.5)}>
          +
        </button>
        <button type="button" className={zoomButton} aria-label="Pan later" data-testid="pan-later" onClick={() => w.pan(0.25)}>
          ▶
        </button>
        <button type="button" className={`${zoomButton} ${w.pinned ? 'text-accent' : ''}`} aria-label="Fit the rows in view" onClick={w.reset}>
          fit
        </button>
      </span>
    </span>
  );
}

/**
 * The header of the timeline: column names, the lanes in view (a coloured letter each: T task,
 * M MRTR conversation, L listen, A app bridge; span and counts on hover), and the waterfall's window.
 */
export function TimeAxis({ lanes, waterfall }: { lanes: LaneModel; waterfall: Waterfall }) {
  return (
    <div
      className="flex h-7 shrink-0 items-center gap-2 border-b border-border bg-surface-muted px-2 font-mono text-[10px] uppercase tracking-wide text-muted"
      data-testid="time-axis"
    >
      <span className={COLUMNS.time}>time</span>
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
              title={`${KIND_NAME[s.kind]}: ${s.label} · ${s.count} entries${s.errors ? ` · ${s.errors} errors` : ''}${s.open ? ' · open' : ''}`}
              className="absolute top-1 flex h-4 w-3 flex-col items-center text-[9px] font-bold text-foreground"
              style={{ left: lane * LANE_WIDTH }}
            >
              {LANE_LETTER[s.kind]}
              <span className={`h-0.5 w-2 rounded-full ${LANE_COLOR[s.kind]}`} />
            </span>
          ))}
        </span>
      ) : null}
      <span className={COLUMNS.method}>method</span>
      <span className={COLUMNS.status}>status</span>
      <span className={`${COLUMNS.duration} text-right`} title="How long the exchange took (open streams: so far)">
        took
      </span>
      <span className={`${COLUMNS.size} text-right`}>size</span>
      <span className={COLUMNS.lints}>lints</span>
      <WaterfallHead w={waterfall} />
    </div>
  );
}
