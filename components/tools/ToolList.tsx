'use client';

import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Tool } from '@/lib/protocol';
import { NameText } from '@/components/ui/NameText';

/**
 * The tools table. Up to `VIRTUAL_FROM` tools it renders every row; above that (a server with
 * 100,000 tools) only the rows in view, at a fixed height with one line of description, so the
 * list costs what ~30 rows cost however long it is.
 */

/** Lists longer than this are virtualized. */
const VIRTUAL_FROM = 200;
const ROW_HEIGHT = 44;
const VIEW_HEIGHT = 480;

interface ToolListProps {
  tools: readonly Tool[];
  selected?: string;
  onSelect(name: string): void;
  /** Shown when the list is empty. */
  empty: string;
}

function Hints({ tool }: { tool: Tool }) {
  const hints = tool.annotations ?? {};
  return (
    <>
      {hints.readOnlyHint ? <span className="rounded bg-surface-muted px-1.5">read-only</span> : null}
      {hints.destructiveHint ? <span className="rounded bg-danger/15 px-1.5 text-danger">destructive</span> : null}
      {hints.idempotentHint ? <span className="rounded bg-surface-muted px-1.5">idempotent</span> : null}
    </>
  );
}

function ToolRow({ tool, selected, onSelect, compact }: { tool: Tool; selected: boolean; onSelect: () => void; compact?: boolean }) {
  return (
    <tr
      data-tool={tool.name}
      data-selected={selected ? 'true' : undefined}
      className={`border-t border-border align-top ${selected ? 'bg-accent/5' : ''}`}
      style={compact ? { height: ROW_HEIGHT } : undefined}
    >
      <td className="px-3 py-2 whitespace-nowrap">
        <button type="button" data-testid="select-tool" className="font-mono text-accent hover:underline" onClick={onSelect}>
          <NameText text={tool.name} />
        </button>
      </td>
      <td className={`px-3 py-2 ${compact ? 'truncate' : ''}`}>
        {tool.title !== undefined ? <NameText text={tool.title} /> : <span className="text-muted">—</span>}
      </td>
      <td className="px-3 py-2 text-xs text-muted">
        <span className={compact ? 'block truncate' : 'line-clamp-2'} title={tool.description}>
          <bdi>{tool.description ?? '—'}</bdi>
        </span>
        {compact ? null : (
          <span className="mt-1 flex flex-wrap gap-1">
            <Hints tool={tool} />
          </span>
        )}
      </td>
    </tr>
  );
}

const Head = () => (
  <thead className="sticky top-0 z-10 bg-surface-muted text-xs uppercase tracking-wide text-muted">
    <tr>
      <th className="px-3 py-2 font-medium">Name</th>
      <th className="px-3 py-2 font-medium">Title</th>
      <th className="px-3 py-2 font-medium">Description</th>
    </tr>
  </thead>
);

/** The tools as a table; virtualized when long. */
export function ToolList({ tools, selected, onSelect, empty }: ToolListProps) {
  const virtual = tools.length > VIRTUAL_FROM;
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? tools.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtual ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;
  const rows = virtual ? items.flatMap((item) => tools[item.index] ?? []) : tools;

  return (
    <section
      ref={scrollRef}
      className="overflow-auto rounded-lg border border-border"
      style={virtual ? { height: VIEW_HEIGHT } : undefined}
      aria-label="Tools"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus so a keyboard user can scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table data-testid="tools-table" data-virtual={virtual ? 'true' : 'false'} className={`w-full text-left text-sm ${virtual ? 'table-fixed' : ''}`}>
        <Head />
        <tbody>
          {before > 0 ? <tr style={{ height: before }} /> : null}
          {rows.map((t) => (
            <ToolRow key={t.name} tool={t} selected={t.name === selected} onSelect={() => onSelect(t.name)} compact={virtual} />
          ))}
          {after > 0 ? <tr style={{ height: after }} /> : null}
          {tools.length === 0 ? (
            <tr>
              <td colSpan={3} className="px-3 py-4 text-center text-muted">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}
