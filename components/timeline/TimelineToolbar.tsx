'use client';

import { useEffect, useMemo, useState } from 'react';
import { selectFilters, selectSearch, selectStats, taskFingerprints } from '@/lib/state/selectors';
import type { TimelineFilters } from '@/lib/state/timeline-types';
import { useInspector, useInspectorStore } from '@/components/inspector/use-inspector';
import { formatBytes } from './columns';

const field = 'rounded-md border border-border bg-surface px-2 py-1 text-xs';

/** Search, the method and task filters, rows per exchange or per frame, the other filters folded in a menu; one line at 1280 px. */
export function TimelineToolbar({ methods, shown }: { methods: readonly string[]; shown: number }) {
  const store = useInspectorStore();
  const filters = useInspector(selectFilters);
  const search = useInspector(selectSearch);
  const stats = useInspector(selectStats);
  const version = useInspector((s) => s.timeline.version);
  const buffer = useInspector((s) => s.timeline.buffer);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the buffer is mutated in place; `version` is the counter that moves when entries (and so tasks) arrive
  const tasks = useMemo(() => taskFingerprints(buffer), [buffer, version]);
  const [text, setText] = useState(search);
  const set = (patch: Partial<TimelineFilters>) => store.getState().timeline.setFilters(patch);

  // Typing is debounced so a long list is searched once per pause, not per key.
  useEffect(() => {
    const t = setTimeout(() => store.getState().timeline.setSearch(text), 150);
    return () => clearTimeout(t);
  }, [text, store]);

  const grouped = useInspector((s) => s.timeline.grouped);
  const narrowed = [filters.direction !== 'all', filters.errorsOnly, filters.hasLints, filters.kinds === 'messages', filters.faultsOnly].filter(Boolean).length;

  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-border px-2 py-1.5" data-testid="timeline-toolbar">
      <input
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Search methods and bodies"
        aria-label="Search the timeline"
        data-testid="timeline-search"
        className={`${field} w-28 min-w-24 flex-1 xl:max-w-56`}
      />
      <select
        aria-label="Method"
        data-testid="filter-method"
        value={filters.methods[0] ?? ''}
        onChange={(e) => set({ methods: e.target.value ? [e.target.value] : [] })}
        className={`${field} max-w-36`}
      >
        <option value="">All methods</option>
        {methods.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      <select
        aria-label="Task"
        data-testid="filter-task"
        value={filters.taskFp ?? ''}
        onChange={(e) => set({ taskFp: e.target.value || undefined })}
        className={`${field} max-w-28`}
      >
        <option value="">All tasks</option>
        {tasks.map((fp) => (
          <option key={fp} value={fp}>
            task {fp}
          </option>
        ))}
      </select>
      <select
        aria-label="Rows"
        data-testid="timeline-view"
        value={grouped ? 'exchanges' : 'frames'}
        onChange={(e) => store.getState().timeline.setGrouped(e.target.value === 'exchanges')}
        className={field}
        title="One row per HTTP exchange (unfold one with ▸ or →), or one row per frame"
      >
        <option value="exchanges">Exchanges</option>
        <option value="frames">Frames</option>
      </select>
      <details className="relative" data-testid="timeline-filters">
        <summary className={`${field} cursor-pointer list-none whitespace-nowrap ${narrowed ? 'border-accent text-accent' : ''}`}>
          Filters{narrowed ? ` (${narrowed})` : ''} ▾
        </summary>
        <div className="absolute right-0 z-20 mt-1 flex w-52 flex-col gap-2 rounded-md border border-border bg-surface p-2 shadow-lg">
          <select
            aria-label="Direction"
            data-testid="filter-direction"
            value={filters.direction}
            onChange={(e) => set({ direction: e.target.value as TimelineFilters['direction'] })}
            className={field}
          >
            <option value="all">Both directions</option>
            <option value="out">→ Sent</option>
            <option value="in">← Received</option>
          </select>
          <label className="flex items-center gap-1 text-xs">
            <input type="checkbox" data-testid="filter-errors" checked={filters.errorsOnly} onChange={(e) => set({ errorsOnly: e.target.checked })} />
            Errors only
          </label>
          <label className="flex items-center gap-1 text-xs">
            <input type="checkbox" data-testid="filter-lints" checked={filters.hasLints} onChange={(e) => set({ hasLints: e.target.checked })} />
            Has lints
          </label>
          <label className="flex items-center gap-1 text-xs" title="Only the faults a tap injected">
            <input type="checkbox" data-testid="filter-faults" checked={filters.faultsOnly ?? false} onChange={(e) => set({ faultsOnly: e.target.checked })} />
            Faults only
          </label>
          <label className="flex items-center gap-1 text-xs" title="Hide response heads, stream open/close and keep-alives">
            <input
              type="checkbox"
              data-testid="filter-messages"
              checked={filters.kinds === 'messages'}
              onChange={(e) => set({ kinds: e.target.checked ? 'messages' : 'all' })}
            />
            Messages only
          </label>
        </div>
      </details>
      <span
        className="ml-auto shrink-0 text-xs whitespace-nowrap text-muted"
        data-testid="timeline-count"
        data-shown={shown}
        data-total={stats.count}
        title={`${shown} of ${stats.count} frames shown · ${formatBytes(stats.retainedBytes)} held${stats.spilled ? ` · ${stats.spilled} older frames spilled` : ''}`}
      >
        {shown}/{stats.count} · {formatBytes(stats.retainedBytes)}
        {stats.spilled ? ` · ${stats.spilled} spilled` : ''}
      </span>
      <button
        type="button"
        onClick={() => store.getState().timeline.clear()}
        className="shrink-0 rounded-md border border-border px-2 py-1 text-xs hover:bg-surface-muted"
      >
        Clear
      </button>
    </div>
  );
}
