'use client';

import { useMemo } from 'react';
import type { Lint } from '@/lib/protocol';
import { maskAuthText } from '@/lib/state/auth-mask';
import { displayJsonText } from '@/lib/shared/display-json';
import { headerRows, type HeaderRowView } from '@/lib/state/header-mask';
import { lineDiff, snapshotText, type DiffLine } from '@/lib/state/line-diff';
import { lintsForEntry, selectBuffer, selectLintVersion, selectReveal, selectSelectedId, selectVersion } from '@/lib/state/selectors';
import type { TimelineBuffer } from '@/lib/state/timeline-buffer';
import { previewOf } from '@/lib/state/timeline-entry';
import type { TimelineEntry } from '@/lib/state/timeline-types';
import { useInspector } from '@/components/inspector/use-inspector';

/**
 * What the detail pane shows for the selected entry: its payload pretty-printed (the full
 * body when still kept), the exchange's request and response headers with secrets masked
 * unless revealed, a line diff against the same task's previous snapshot, and its lints.
 */

/** Above this, JSON is shown as sent rather than re-indented (parsing it would stall the page). */
const PRETTY_LIMIT = 4 * 1024 * 1024;
const HEAD_SCAN = 64;

/** One header table of the pane: its title and its rows, secrets masked unless revealed. */
export interface DetailHeaders {
  title: string;
  rows: HeaderRowView[];
}

/** The selected snapshot against the task's previous one: none (not a snapshot), the first, too large to compare, or the diff. */
export type DetailDiff =
  | { kind: 'none' }
  | { kind: 'first'; taskFp?: string }
  | { kind: 'too-large' }
  | { kind: 'diff'; lines: DiffLine[]; previousId: number };

/** Pretty JSON of a payload, or the text as is (not JSON, cut short, or too large). */
function prettyJson(text: string | undefined): string {
  if (text === undefined) return '';
  if (text.length > PRETTY_LIMIT) return text;
  return displayJsonText(text).text;
}

/** The request and response-head entries of an exchange (scanning from its first entry). */
function exchangeEnds(buffer: TimelineBuffer, e: TimelineEntry): { request?: TimelineEntry; head?: TimelineEntry } {
  const span = buffer.span(`exchange:${e.exchangeId}`);
  if (!span) return {};
  let request: TimelineEntry | undefined;
  let head: TimelineEntry | undefined;
  for (let id = span.firstId; id <= span.lastId && id < span.firstId + HEAD_SCAN && !(request && head); id++) {
    const x = buffer.get(id);
    if (!x || x.exchangeId !== e.exchangeId) continue;
    if (x.kind === 'http-request') request = x;
    if (x.kind === 'http-response') head = x;
  }
  return { request, head };
}

function diffOf(buffer: TimelineBuffer, e: TimelineEntry): DetailDiff {
  if (!e.snapshot) return { kind: 'none' };
  const prev = buffer.previousSnapshot(e.id);
  if (!prev) return { kind: 'first', taskFp: e.taskFp };
  const lines = lineDiff(snapshotText(buffer.text(prev.id)) ?? '', snapshotText(buffer.text(e.id)) ?? '');
  return lines ? { kind: 'diff', lines, previousId: prev.id } : { kind: 'too-large' };
}

interface Detail {
  entry?: TimelineEntry;
  selectedId?: number;
  json: string;
  /** The payload shown is the preview only (the full body was evicted or never kept). */
  partial: boolean;
  headers: DetailHeaders[];
  lints: readonly Lint[];
  /** Lints of the same exchange shown on its other entries. */
  otherLints: number;
  diff: DetailDiff;
  reveal: boolean;
}

/** The detail of the timeline's selected entry (see above); recomputed as the buffer or the lints change. */
export function useDetail(): Detail {
  const selectedId = useInspector(selectSelectedId);
  const buffer = useInspector(selectBuffer);
  const version = useInspector(selectVersion);
  const lintVersion = useInspector(selectLintVersion);
  const reveal = useInspector(selectReveal);
  const entry = selectedId === undefined ? undefined : buffer.get(selectedId);
  const full = entry ? buffer.fullBody(entry.id) : undefined;
  // An auth step's codes, verifiers, secrets and tokens stay masked until revealed.
  const json = useMemo(() => {
    const text = prettyJson(full ?? (entry && previewOf(entry)));
    return entry?.auth && !reveal ? maskAuthText(text) : text;
  }, [entry, full, reveal]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer is mutated in place; `version` is the counter that moves when the exchange gains its response head
  const headers = useMemo(() => {
    if (!entry) return [];
    const { request, head } = exchangeEnds(buffer, entry);
    const method = request?.method ?? entry.method;
    const out: DetailHeaders[] = [];
    if (request?.headers) out.push({ title: 'Request headers', rows: headerRows(request.headers, method, reveal) });
    if (head?.headers) out.push({ title: `Response headers · HTTP ${head.httpStatus ?? '?'}`, rows: headerRows(head.headers, method, reveal) });
    if (!request && !head && entry.headers) out.push({ title: 'Headers', rows: headerRows(entry.headers, method, reveal) });
    return out;
  }, [buffer, entry, reveal, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer's lints are mutated in place; `lintVersion` is the counter that moves when they change
  const lints = useMemo(() => (entry ? lintsForEntry(buffer, entry) : []), [buffer, entry, lintVersion]);
  const otherLints = entry ? (buffer.lintsOf(entry.exchangeId)?.length ?? 0) - lints.length : 0;
  const diff = useMemo(() => (entry ? diffOf(buffer, entry) : ({ kind: 'none' } as const)), [buffer, entry]);
  return { entry, selectedId, json, partial: !!entry?.truncated && full === undefined, headers, lints, otherLints, diff, reveal };
}
