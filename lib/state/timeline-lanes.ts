import type { TimelineBuffer } from './timeline-buffer';
import { spanKeysOf } from './timeline-spans';
import type { Span, SpanKind, TimelineEntry } from './timeline-types';

/**
 * The time axis of the visible window, as plain strings a memoized row can compare:
 * - lanes: the long spans (task, MRTR conversation, listen, app bridge) overlapping the window,
 *   each given a column left of the rows; per row and lane a glyph: `s` the span starts here,
 *   `e` it ends here, `o` the entry belongs to it, `|` it passes by, ` ` nothing;
 * - bars: each row's exchange drawn as a bar on the window's time scale (start and width in
 *   per-mille of the window, plus the entry's own tick), like a network waterfall.
 */

const MAX_LANES = 6;

/** The span lanes and time bars of the visible rows. */
export interface LaneModel {
  /** The spans given a lane, by lane index. */
  lanes: { span: Span; lane: number }[];
  /** Per entry id: one glyph per lane, e.g. "o| " (kinds are in `kinds`). */
  glyphs: Map<number, string>;
  /** Kind of each lane (colour). */
  kinds: SpanKind[];
  /** The window's time range. */
  from: number;
  to: number;
}

/** Lay out the spans overlapping the rows with these ids (ascending). */
export function layoutLanes(buffer: TimelineBuffer, ids: readonly number[]): LaneModel {
  const empty: LaneModel = { lanes: [], glyphs: new Map(), kinds: [], from: 0, to: 0 };
  const lo = ids[0];
  const hi = ids.at(-1);
  if (lo === undefined || hi === undefined) return empty;
  const spans: Span[] = [];
  for (const s of buffer.longSpans()) if (s.firstId <= hi && s.lastId >= lo) spans.push(s);
  spans.sort((a, b) => a.firstId - b.firstId);
  const ends: number[] = [];
  const lanes: LaneModel['lanes'] = [];
  for (const span of spans) {
    let lane = ends.findIndex((end) => end < span.firstId);
    if (lane < 0 && ends.length < MAX_LANES) lane = ends.length;
    if (lane < 0) continue;
    ends[lane] = span.lastId;
    lanes.push({ span, lane });
  }
  const width = ends.length;
  const kinds: SpanKind[] = new Array(width);
  for (const l of lanes) kinds[l.lane] = l.span.kind;
  const glyphs = new Map<number, string>();
  let from = Infinity;
  let to = -Infinity;
  for (const id of ids) {
    const e = buffer.get(id);
    if (!e) continue;
    from = Math.min(from, e.at);
    to = Math.max(to, e.at);
    const ex = buffer.span(`exchange:${e.exchangeId}`);
    if (ex) {
      from = Math.min(from, ex.startAt);
      to = Math.max(to, ex.endAt);
    }
    if (!width) continue;
    const row = new Array<string>(width).fill(' ');
    const keys = spanKeysOf(e);
    for (const { span, lane } of lanes) {
      if (id < span.firstId || id > span.lastId) continue;
      row[lane] = id === span.firstId ? 's' : id === span.lastId ? 'e' : keys.includes(span.key) ? 'o' : '|';
    }
    glyphs.set(id, row.join(''));
  }
  return { lanes, glyphs, kinds, from: Number.isFinite(from) ? from : 0, to: Number.isFinite(to) ? to : 0 };
}

/**
 * The row's exchange bar on the window's scale: "start,width,tick" in per-mille, the tick being
 * the entry's own instant (-1 for none: an exchange row is its whole bar); parts outside the
 * window are clipped to its edges, and a row wholly outside it has no bar ('').
 */
export function barOf(buffer: TimelineBuffer, e: TimelineEntry, from: number, to: number, withTick = true): string {
  const range = Math.max(1, to - from);
  const ex = e.kind === 'bridge' ? undefined : buffer.span(`exchange:${e.exchangeId}`);
  const pm = (t: number) => Math.max(0, Math.min(1000, Math.round(((t - from) / range) * 1000)));
  const startAt = ex?.startAt ?? e.at;
  const endAt = ex?.endAt ?? e.at;
  if (endAt < from || startAt > to) return '';
  const tick = (withTick || !ex) && e.at >= from && e.at <= to ? pm(e.at) : -1;
  const start = pm(startAt);
  return `${start},${Math.max(pm(endAt) - start, 0)},${tick}`;
}
