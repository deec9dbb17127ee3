'use client';

import { useState, type ReactNode } from 'react';
import { DetailPane } from '@/components/detail/DetailPane';
import { Timeline } from '@/components/timeline/Timeline';

/** One collapsible section of the workbench's side column. */
export interface WorkbenchPanel {
  id: string;
  title: string;
  content: ReactNode;
  /**
   * Starts folded, and its content mounts only once opened: panels that ask the server for
   * something on mount (resources, prompts) send nothing the user did not ask for (a replay
   * of a recording without those requests would answer "not recorded").
   */
  folded?: boolean;
}

function Panel({ panel }: { panel: WorkbenchPanel }) {
  const [opened, setOpened] = useState(!panel.folded);
  return (
    <details
      open={!panel.folded}
      onToggle={(e) => {
        if (e.currentTarget.open) setOpened(true);
      }}
      className="rounded-xl border border-border bg-surface p-3"
      data-panel={panel.id}
    >
      <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-muted">{panel.title}</summary>
      {opened && <div className="mt-2">{panel.content}</div>}
    </details>
  );
}

// Whole class names, so Tailwind sees them.
const GRID = {
  normal: 'xl:grid-cols-[minmax(0,1fr)_28rem]',
  wide: 'xl:grid-cols-[minmax(0,1fr)_30rem]',
} as const;

/**
 * The working area the live inspector and the recording viewer share: the timeline with the
 * detail pane under it, and the panels beside them. It fills the rest of a full-height column;
 * the page must bound that height, or the timeline would be as tall as all its rows.
 */
export function Workbench({ panels, side = 'normal' }: { panels: WorkbenchPanel[]; side?: keyof typeof GRID }) {
  return (
    <div className={`grid min-h-0 flex-1 grid-cols-1 gap-3 ${GRID[side]}`}>
      <div className="flex min-h-[24rem] flex-col gap-3">
        <Timeline />
        <div className="max-h-[45vh] min-h-0 overflow-auto">
          <DetailPane />
        </div>
      </div>
      <aside className="min-h-0 space-y-3 overflow-auto" aria-label="Panels" data-testid="panels">
        {panels.map((p) => (
          <Panel key={p.id} panel={p} />
        ))}
      </aside>
    </div>
  );
}
