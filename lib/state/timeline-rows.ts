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
  /** The group's place among the groups (its row when nothing above it is unfolded). */
  pos: number;
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
        g = { exchangeId: e.exchangeId, pos: order.length, ids: [] };
        groups.set(e.exchangeId, g);
        order.push(g);
      }
      g.ids.push(id);
      if (g.answer === undefined && e.kind === 'message' && e.direction === 'in' && (e.rpcKind === 'result' || e.rpcKind === 'error')) g.answer = id;
    }
  }

  const headRow = (g: Group, open: boolean): ListRow => {
    const first = g.ids[0] ?? -1;
    return { key: `x:${g.exchangeId}`, id: g.answer ?? first, first, exchange: { id: g.exchangeId, frames: g.ids.length, expanded: open } };
  };

  // Rows are read by index without being built: nothing unfolded, row i is group i; each unfolded
  // group (few) shifts the groups after it by its frame count.
  return (buffer: TimelineBuffer, ids: readonly number[], grouped: boolean, expanded: ReadonlySet<string>): RowList => {
    if (!grouped) return flatRows(ids);
    take(buffer, ids);
    const open: Group[] = [];
    for (const id of expanded) {
      const g = groups.get(id);
      if (g && g.ids.length > 1) open.push(g);
    }
    open.sort((a, b) => a.pos - b.pos);
    const extra = open.reduce((n, g) => n + g.ids.length, 0);
    const isOpen = new Set(open);
    /** The row of a group's head. */
    const rowOfGroup = (g: Group) => {
      let shift = 0;
      for (const o of open) {
        if (o.pos >= g.pos) break;
        shift += o.ids.length;
      }
      return g.pos + shift;
    };
    return {
      length: order.length + extra,
      at(i) {
        let shift = 0;
        for (const o of open) {
          const at = o.pos + shift;
          if (i <= at) break;
          if (i <= at + o.ids.length) {
            const id = o.ids[i - at - 1];
            return id === undefined ? undefined : { key: `f:${id}`, id, first: id, child: true };
          }
          shift += o.ids.length;
        }
        const g = order[i - shift];
        return g ? headRow(g, isOpen.has(g)) : undefined;
      },
      indexOf(id) {
        const e = buffer.get(id);
        const g = e ? groups.get(e.exchangeId) : undefined;
        if (!g) return -1;
        const row = rowOfGroup(g);
        if (!isOpen.has(g) || id === (g.answer ?? g.ids[0])) return row;
        const at = g.ids.indexOf(id);
        return at < 0 ? -1 : row + 1 + at;
      },
    };
  };
}
