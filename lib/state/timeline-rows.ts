import type { TimelineBuffer } from './timeline-buffer';

/**
 * The timeline's rows over the filtered entry ids. Grouped (the default), one row per HTTP
 * exchange, as a network panel shows them: a request, its response head, its JSON answer or SSE
 * frames and its close are one row, which expands to one row per frame. Flat, one row per frame.
 * The grouping is incremental: while the filtered list only grows at its end, each call looks at
 * the new ids alone, so a live session costs per frame what it costs per exchange.
 */

/** One row of the timeline list. */
export interface ListRow {
  /** Key for React and the virtualizer: `x:<exchangeId>` for an exchange, `f:<id>` for a frame. */
  key: string;
  /** The entry the row selects and shows: an exchange's answer (else its first frame), or the frame. */
  id: number;
  /** The row's first entry (the lane layout places rows by it). */
  first: number;
  /** An exchange row: its exchange id and how many of its frames pass the filters. */
  exchange?: { id: string; frames: number; expanded: boolean };
  /** A frame shown under its expanded exchange. */
  child?: boolean;
}

/** The rows, read by index (the flat view builds none up front: 100,000 frames stay 100,000 numbers). */
interface RowList {
  readonly length: number;
  at(index: number): ListRow | undefined;
  /** Index of the row that selects `id` (an exchange row stands for all its frames when folded). */
  indexOf(id: number): number;
}

interface Group {
  exchangeId: string;
  ids: number[];
  /** The answer (a result or error received), once seen. */
  answer?: number;
}

function flatRows(ids: readonly number[]): RowList {
  return {
    length: ids.length,
    at: (i) => {
      const id = ids[i];
      return id === undefined ? undefined : { key: `f:${id}`, id, first: id };
    },
    indexOf: (id) => ids.indexOf(id),
  };
}

/** A grouper for one list (create it once per view); call it with the filtered ids on every change. */
export function createRowGrouper() {
  let source: readonly number[] | undefined;
  let head: number | undefined;
  let seen = 0;
  let groups = new Map<string, Group>();
  let order: Group[] = [];

  function take(buffer: TimelineBuffer, ids: readonly number[]) {
    if (ids !== source || ids[0] !== head || ids.length < seen) {
      source = ids;
      seen = 0;
      groups = new Map();
      order = [];
    }
    head = ids[0];
    for (; seen < ids.length; seen++) {
      const id = ids[seen];
      const e = id === undefined ? undefined : buffer.get(id);
      if (id === undefined || !e) continue;
      let g = groups.get(e.exchangeId);
      if (!g) {
        g = { exchangeId: e.exchangeId, ids: [] };
        groups.set(e.exchangeId, g);
        order.push(g);
      }
      g.ids.push(id);
      if (g.answer === undefined && e.kind === 'message' && e.direction === 'in' && (e.rpcKind === 'result' || e.rpcKind === 'error')) g.answer = id;
    }
  }

  return (buffer: TimelineBuffer, ids: readonly number[], grouped: boolean, expanded: ReadonlySet<string>): RowList => {
    if (!grouped) return flatRows(ids);
    take(buffer, ids);
    const rows: ListRow[] = [];
    const rowOf = new Map<number, number>();
    for (const g of order) {
      const first = g.ids[0];
      if (first === undefined) continue;
      const open = expanded.has(g.exchangeId) && g.ids.length > 1;
      const id = g.answer ?? first;
      rows.push({ key: `x:${g.exchangeId}`, id, first, exchange: { id: g.exchangeId, frames: g.ids.length, expanded: open } });
      if (!open) for (const member of g.ids) rowOf.set(member, rows.length - 1);
      else {
        rowOf.set(id, rows.length - 1);
        for (const member of g.ids) {
          rows.push({ key: `f:${member}`, id: member, first: member, child: true });
          if (member !== id) rowOf.set(member, rows.length - 1);
        }
      }
    }
    return { length: rows.length, at: (i) => rows[i], indexOf: (id) => rowOf.get(id) ?? -1 };
  };
}
