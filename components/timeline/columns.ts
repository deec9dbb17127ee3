import type { SpanKind, TimelineEntry } from '@/lib/state/timeline-types';

/**
 * Widths of the timeline's columns, shared by the header and the rows so they line up. In a
 * narrow pane (1024 px screens) the waterfall gives up width first and the method keeps enough to
 * be read; the fixed columns never shrink.
 */
export const COLUMNS = {
  time: 'w-[86px] shrink-0',
  status: 'w-28 shrink-0',
  method: 'min-w-24 flex-1',
  duration: 'w-16 shrink-0',
  size: 'w-16 shrink-0',
  lints: 'w-9 shrink-0',
  waterfall: 'w-44 min-w-30 shrink',
} as const;

/** Colours of the span lanes, by kind. */
export const LANE_COLOR: Record<SpanKind, string> = {
  exchange: 'bg-muted',
  task: 'bg-amber-500',
  conversation: 'bg-violet-500',
  listen: 'bg-sky-500',
  bridge: 'bg-emerald-500',
  auth: 'bg-rose-500',
};

/** The letter naming a lane in the header (its colour alone would not say what it is). */
export const LANE_LETTER: Record<SpanKind, string> = { exchange: 'X', task: 'T', conversation: 'M', listen: 'L', bridge: 'A', auth: 'O' };

/** Width of one lane in pixels, shared by the rows and the time axis so the lanes line up. */
export const LANE_WIDTH = 12;

/** A frame row's short kind tag. */
export const KIND_TAG: Record<TimelineEntry['kind'], string> = {
  'http-request': 'POST',
  'http-response': 'HEAD',
  message: 'MSG',
  'sse-open': 'SSE+',
  'sse-frame': 'SSE',
  'sse-comment': '···',
  'sse-close': 'END',
  error: 'ERR',
  bridge: 'APP',
  fault: 'FLT',
};

/** A byte count as the size column shows it. */
export function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
