import type { Lint } from '../protocol';
import type { InspectorState } from './inspector-store';
import type { TimelineBuffer } from './timeline-buffer';
import { previewOf } from './timeline-entry';
import type { TimelineEntry, TimelineFilters } from './timeline-types';

/**
 * Selectors over the inspector store. Plain ones pick a field; the list ones are memoized per
 * store and incremental: while filters and search stay the same, new entries are filtered as
 * they come and evicted ones dropped from the front, so a 100,000-entry list costs nothing
 * per live frame.
 */

/** Changes whenever the timeline does. */
export const selectVersion = (s: InspectorState) => s.timeline.version;
/** Changes whenever new lints arrive. */
export const selectLintVersion = (s: InspectorState) => s.timeline.lintVersion;
/** The timeline buffer's counts and bytes. */
export const selectStats = (s: InspectorState) => s.timeline.stats;
/** The timeline filters. */
export const selectFilters = (s: InspectorState) => s.timeline.filters;
/** The timeline search text. */
export const selectSearch = (s: InspectorState) => s.timeline.search;
/** The selected entry's id. */
export const selectSelectedId = (s: InspectorState) => s.timeline.selectedId;
/** Whether the list follows new entries. */
export const selectFollow = (s: InspectorState) => s.timeline.follow;
/** The timeline buffer. */
export const selectBuffer = (s: InspectorState) => s.timeline.buffer;
/** The entry the UI was asked to reveal. */
export const selectReveal = (s: InspectorState) => s.ui.reveal;

const EMPTY: readonly Lint[] = [];
const MESSAGE_KINDS = new Set(['http-request', 'message', 'sse-frame', 'error', 'bridge', 'fault']);

/** Which entry of its exchange a lint is shown on, by the path it points at. */
function lintHome(l: Lint): 'head' | 'response' | 'request' {
  const p = l.path ?? '';
  if (p.startsWith('response.status') || p.startsWith('response.headers')) return 'head';
  if (p.startsWith('response')) return 'response';
  return 'request';
}

function entryRole(e: TimelineEntry): 'head' | 'response' | 'request' | undefined {
  if (e.direction === 'out' && (e.kind === 'http-request' || e.kind === 'message')) return 'request';
  if (e.kind === 'http-response') return 'head';
  if (e.direction === 'in' && (e.rpcKind === 'result' || e.rpcKind === 'error')) return 'response';
  return undefined;
}

/** The lints of an entry's exchange that belong on this entry (request, response head or response). */
export function lintsForEntry(buffer: TimelineBuffer, e: TimelineEntry): readonly Lint[] {
  const all = buffer.lintsOf(e.exchangeId);
  if (!all?.length) return EMPTY;
  const role = entryRole(e);
  if (!role) return EMPTY;
  const mine = all.filter((l) => lintHome(l) === role);
  return mine.length ? mine : EMPTY;
}

/** The most severe level among lints, for the badge colour. */
export function worstSeverity(lints: readonly Lint[]): Lint['severity'] | undefined {
  if (lints.some((l) => l.severity === 'error')) return 'error';
  if (lints.some((l) => l.severity === 'warning')) return 'warning';
  return lints.length ? 'info' : undefined;
}

/** A case-insensitive matcher for the search box (plain text, not a pattern). */
function searchMatcher(search: string): ((e: TimelineEntry) => boolean) | undefined {
  const text = search.trim();
  if (!text) return undefined;
  const re = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  return (e) =>
    re.test(e.method ?? '') ||
    re.test(e.target ?? '') ||
    re.test(e.status ?? '') ||
    re.test(previewOf(e) ?? '') ||
    re.test(e.errorText ?? '') ||
    re.test(e.fault ?? '');
}

/** Whether an entry passes the filters and search. */
function entryMatches(buffer: TimelineBuffer, e: TimelineEntry, f: TimelineFilters, search?: (e: TimelineEntry) => boolean): boolean {
  if (f.direction !== 'all' && e.direction !== f.direction) return false;
  if (f.kinds === 'messages' && !MESSAGE_KINDS.has(e.kind)) return false;
  if (f.errorsOnly && !e.isError) return false;
  if (f.faultsOnly && e.kind !== 'fault') return false;
  if (f.taskFp && e.taskFp !== f.taskFp) return false;
  if (f.methods.length && !(e.method && f.methods.includes(e.method))) return false;
  if (f.hasLints && !lintsForEntry(buffer, e).length) return false;
  return !search || search(e);
}

/** The filtered list: entry ids in order, and how many the buffer holds in all. */
export interface VisibleList {
  ids: number[];
  total: number;
  /** Method names seen (for the method filter), sorted. */
  methods: string[];
}

interface Cache {
  key: string;
  buffer: TimelineBuffer;
  nextId: number;
  ids: number[];
  methods: Set<string>;
  result: VisibleList;
  version: number;
}

/**
 * A memoized selector of the filtered list for one store (create it once per provider or
 * component with useMemo/useState). Returns the same object while nothing relevant changed.
 */
export function createVisibleSelector(): (s: InspectorState) => VisibleList {
  let c: Cache | undefined;
  return (s) => {
    const t = s.timeline;
    const { buffer, filters, search } = t;
    const key = JSON.stringify([filters, search, filters.hasLints ? t.lintVersion : 0]);
    if (c && c.version === t.version && c.buffer === buffer && c.key === key) return c.result;
    const stats = buffer.stats();
    if (!c || c.key !== key || c.buffer !== buffer || stats.nextId < c.nextId) {
      c = {
        key,
        buffer,
        nextId: stats.firstId,
        ids: [],
        methods: c?.buffer === buffer ? c.methods : new Set(),
        result: { ids: [], total: 0, methods: [] },
        version: -1,
      };
    }
    // Evicted entries leave from the front.
    let drop = 0;
    while (drop < c.ids.length && c.ids[drop]! < stats.firstId) drop++;
    if (drop) c.ids.splice(0, drop);
    const match = searchMatcher(search);
    const methodsBefore = c.methods.size;
    const cache = c;
    buffer.forEach((e) => {
      if (e.method) cache.methods.add(e.method);
      if (entryMatches(buffer, e, filters, match)) cache.ids.push(e.id);
    }, c.nextId);
    c.nextId = stats.nextId;
    c.version = t.version;
    c.result = {
      ids: c.ids,
      total: stats.count,
      methods: c.methods.size !== methodsBefore || !c.result.methods.length ? [...c.methods].sort() : c.result.methods,
    };
    return c.result;
  };
}

/** Task fingerprints currently on the timeline (for the task filter), newest last. */
export function taskFingerprints(buffer: TimelineBuffer): string[] {
  const out: string[] = [];
  for (const s of buffer.longSpans()) if (s.kind === 'task' && s.taskFp) out.push(s.taskFp);
  return out;
}
