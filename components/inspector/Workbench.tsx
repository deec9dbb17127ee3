'use client';

import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { DetailPane } from '@/components/detail/DetailPane';
import { Timeline } from '@/components/timeline/Timeline';
import { useMediaQuery } from '@/components/ui/use-media-query';
import { useInspector } from './use-inspector';
import { SplitPane } from './SplitPane';

/** One tab of the workbench's panel. */
export interface WorkbenchPanel {
  id: string;
  title: string;
  content: ReactNode;
  /** Shown beside the title (e.g. how many tasks wait for input). */
  badge?: ReactNode;
}

/**
 * The tabbed panel. A tab's content mounts when first opened and then stays mounted (hidden
 * while another tab is shown), so a call in progress keeps its state, and panels that ask the
 * server for something on mount (resources, prompts) send nothing the user did not ask for.
 */
function Tabs({ panels, tab, onTab }: { panels: WorkbenchPanel[]; tab?: string; onTab?: (id: string) => void }) {
  const stored = useInspector((s) => s.ui.panel);
  const setStored = useInspector((s) => s.ui.setPanel);
  const wanted = tab ?? stored;
  const setPanel = onTab ?? setStored;
  const active = panels.find((p) => p.id === wanted) ?? panels[0];
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  if (active && !opened.has(active.id)) setOpened(new Set([...opened, active.id]));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const at = panels.findIndex((p) => p.id === active?.id);
    const next = panels[(at + (e.key === 'ArrowRight' ? 1 : panels.length - 1)) % panels.length];
    if (!next) return;
    setPanel(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };
  return (
    <section className="flex min-h-0 flex-1 flex-col rounded-xl border border-border bg-surface" aria-label="Panels" data-testid="panels">
      <div role="tablist" aria-label="Panels" className="flex shrink-0 flex-wrap gap-1 border-b border-border px-2 pt-1" onKeyDown={onKeyDown}>
        {panels.map((p) => (
          <button
            key={p.id}
            id={`tab-${p.id}`}
            type="button"
            role="tab"
            aria-selected={p.id === active?.id}
            aria-controls={`tabpanel-${p.id}`}
            tabIndex={p.id === active?.id ? 0 : -1}
            data-tab={p.id}
            onClick={() => setPanel(p.id)}
            className={`-mb-px flex items-center gap-1.5 border-b-2 px-3 py-1.5 text-sm ${p.id === active?.id ? 'border-accent font-semibold text-foreground' : 'border-transparent text-muted hover:text-foreground'}`}
          >
            {p.title}
            {p.badge}
          </button>
        ))}
      </div>
      {panels.map((p) =>
        opened.has(p.id) ? (
          <div
            key={p.id}
            id={`tabpanel-${p.id}`}
            role="tabpanel"
            aria-labelledby={`tab-${p.id}`}
            hidden={p.id !== active?.id}
            data-panel={p.id}
            className="min-h-0 flex-1 overflow-auto p-3"
          >
            {p.content}
          </div>
        ) : null,
      )}
    </section>
  );
}

/**
 * The class of a page that holds the workbench. On a wide window the page is the window's height
 * (the panes scroll inside) but never under 40rem, 48rem under 1024 px where the bars above wrap
 * onto more lines: shorter, the timeline would show two rows, so a short window scrolls the page
 * instead. On a narrow window (under 768 px) the page grows with its content.
 */
export const WORKBENCH_PAGE = 'flex h-screen min-h-[40rem] min-w-0 flex-col gap-2 p-3 max-lg:min-h-[48rem] max-md:h-auto max-md:min-h-screen';

/** Under Tailwind's `md` (768 px) the panes stack: side by side, each would be too narrow to read. */
const NARROW = '(max-width: 767.98px)';

/**
 * The working area the live inspector and the recording viewer share: the timeline and the
 * detail side by side above, the tabbed panel below, each boundary a handle that resizes (sizes
 * remembered). It fills the rest of a full-height column; the page must bound that height
 * (WORKBENCH_PAGE does). On a narrow window the three stack at fixed heights and the page scrolls
 * (the same panes, so a form half filled in survives the window crossing the width).
 * The shown tab lives in the store's ui slice, or with the page (`tab`, `onTab`) when the page
 * swaps stores (the recording viewer rebuilds its store as the user scrubs).
 */
export function Workbench({ panels, tab, onTab }: { panels: WorkbenchPanel[]; tab?: string; onTab?: (id: string) => void }) {
  const narrow = useMediaQuery(NARROW);
  return (
    <SplitPane
      id="workbench"
      direction="column"
      initial={0.48}
      min={0.15}
      max={0.85}
      label="Resize the timeline and the panels"
      className="flex-1"
      stacked={narrow ? { first: '', second: 'h-[36rem]' } : undefined}
      first={
        <SplitPane
          id="timeline-detail"
          direction="row"
          initial={0.62}
          label="Resize the timeline and the detail"
          className="flex-1"
          stacked={narrow ? { first: 'h-[28rem]', second: 'h-[24rem]' } : undefined}
          first={<Timeline />}
          second={<DetailPane />}
        />
      }
      second={<Tabs panels={panels} tab={tab} onTab={onTab} />}
    />
  );
}
