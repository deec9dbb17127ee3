'use client';

import { useMemo } from 'react';
import { selectBuffer, selectVersion } from '@/lib/state/selectors';
import type { TimelineEntry } from '@/lib/state/timeline-types';
import { useInspector, useInspectorStore } from '@/components/inspector/use-inspector';
import { KIND_TAG } from '@/components/timeline/columns';

/** How far past the exchange's first entry to look, and how many frames to list (a listen stream can hold thousands). */
const SCAN = 4000;
const SHOWN = 24;

/**
 * The frames of the selected entry's exchange (request, head, answer or SSE frames, close) as
 * buttons: the detail of one exchange reads like a network panel's Headers / Payload / Response.
 */
export function ExchangeFrames({ entry }: { entry: TimelineEntry }) {
  const store = useInspectorStore();
  const buffer = useInspector(selectBuffer);
  const version = useInspector(selectVersion);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer is mutated in place; `version` moves when the exchange gains frames
  const frames = useMemo(() => {
    const span = entry.kind === 'bridge' ? undefined : buffer.span(`exchange:${entry.exchangeId}`);
    if (!span) return [];
    const out: TimelineEntry[] = [];
    for (let id = span.firstId; id <= span.lastId && id < span.firstId + SCAN; id++) {
      const x = buffer.get(id);
      if (x?.exchangeId === entry.exchangeId) out.push(x);
    }
    return out;
  }, [buffer, entry, version]);
  if (frames.length < 2) return null;
  const at = frames.findIndex((f) => f.id === entry.id);
  const from = Math.max(0, Math.min(at - SHOWN / 2, frames.length - SHOWN));
  return (
    <nav aria-label="Frames of this exchange" className="flex flex-wrap items-center gap-1 font-mono text-[11px]" data-testid="exchange-frames">
      <span className="mr-1 font-sans text-xs text-muted">{frames.length} frames:</span>
      {frames.slice(from, from + SHOWN).map((f) => (
        <button
          key={f.id}
          type="button"
          aria-current={f.id === entry.id || undefined}
          data-frame-kind={f.kind}
          onClick={() => store.getState().timeline.select(f.id)}
          title={[f.method, f.status].filter(Boolean).join(' · ')}
          className={`rounded border px-1.5 py-0.5 ${f.id === entry.id ? 'border-accent bg-accent/10 text-accent' : 'border-border hover:bg-surface-muted'}`}
        >
          {f.direction === 'out' ? '→' : '←'} {KIND_TAG[f.kind]}
        </button>
      ))}
      {frames.length > from + SHOWN ? <span className="text-muted">…</span> : null}
    </nav>
  );
}
