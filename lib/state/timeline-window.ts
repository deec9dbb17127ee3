/**
 * The waterfall's time window: the stretch of time the timeline's bar column shows. By default
 * it fits the rows in view (so an hour-long session is read at the scale of what is on screen,
 * not squeezed into its last pixels); zooming and panning pin an explicit window.
 */

/** A window of time, epoch milliseconds. */
export interface TimeWindow {
  from: number;
  to: number;
}

const MIN_SPAN_MS = 5;
const MAX_SPAN_MS = 24 * 60 * 60 * 1000;

/** Zoom by `factor` (< 1 zooms in) keeping the instant at `anchor` (0 = left edge, 1 = right) in place. */
export function zoomWindow(w: TimeWindow, factor: number, anchor = 0.5): TimeWindow {
  const span = Math.max(1, w.to - w.from);
  const next = Math.min(MAX_SPAN_MS, Math.max(MIN_SPAN_MS, span * factor));
  const a = Math.min(1, Math.max(0, anchor));
  const at = w.from + a * span;
  const from = at - a * next;
  return { from, to: from + next };
}

/** Move the window by `fraction` of its width (negative: earlier). */
export function panWindow(w: TimeWindow, fraction: number): TimeWindow {
  const shift = (w.to - w.from) * fraction;
  return { from: w.from + shift, to: w.to + shift };
}

/** A duration as the axis shows it: `850 ms`, `12.40 s`, `3.5 min`, `1.2 h`. */
export function formatSpan(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
