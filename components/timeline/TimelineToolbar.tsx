'use client';

import { useEffect, useMemo, useState } from 'react';
import { selectFilters, selectSearch, selectStats, taskFingerprints } from '@/lib/state/selectors';
import type { TimelineFilters } from '@/lib/state/timeline-types';
import { useInspector, useInspectorStore } from '@/components/inspector/use-inspector';

const field = 'rounded-md border border-border bg-surface px-2 py-1 text-xs';

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Filters (method, direction, errors, task, lints, transport frames) and search over the timeline. */
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

  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-border px-2 py-2" data-testid="timeline-toolbar">
      <input
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Search methods and bodies"
        aria-label="Search the timeline"
        data-testid="timeline-search"
        className={`${field} w-56`}
      />
      <select
        aria-label="Method"
        data-testid="filter-method"
        value={filters.methods[0] ?? ''}
        onChange={(e) => set({ methods: e.target.value ? [e.target.value] : [] })}
        className={field}
      >
        <option value="">All methods</option>
        {methods.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
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
      <select
        aria-label="Task"
        data-testid="filter-task"
        value={filters.taskFp ?? ''}
        onChange={(e) => set({ taskFp: e.target.value || undefined })}
        className={field}
      >
        <option value="">All tasks</option>
        {tasks.map((fp) => (
          <option key={fp} value={fp}>
            task {fp}
          </option>
        ))}
      </select>
      <label className="flex items-center gap-1 text-xs">
        <input type="checkbox" data-testid="filter-errors" checked={filters.errorsOnly} onChange={(e) => set({ errorsOnly: e.target.checked })} />
        Errors only
      </label>
      <label className="flex items-center gap-1 text-xs">
        <input type="checkbox" data-testid="filter-lints" checked={filters.hasLints} onChange={(e) => set({ hasLints: e.target.checked })} />
        Has lints
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
      <span className="ml-auto text-xs text-muted" data-testid="timeline-count" data-shown={shown} data-total={stats.count}>
        {shown} of {stats.count} · {formatBytes(stats.retainedBytes)}
        {stats.spilled ? ` · ${stats.spilled} older spilled` : ''}
      </span>
      <button
        type="button"
        onClick={() => store.getState().timeline.clear()}
        className="rounded-md border border-border px-2 py-1 text-xs hover:bg-surface-muted"
      >
        Clear
      </button>
    </div>
  );
}
