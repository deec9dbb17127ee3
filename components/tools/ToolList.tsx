'use client';

import type { Tool } from '@/lib/protocol';
import { NameText } from '@/components/ui/NameText';
import { useVirtualRows, VIRTUAL_VIEW_HEIGHT } from '@/components/ui/use-virtual-rows';

/**
 * The tools table, virtualized when long (use-virtual-rows.ts): a virtualized row has a fixed
 * height with one line of description.
 */

const ROW_HEIGHT = 44;

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
  const { virtual, scrollRef, rows, before, after } = useVirtualRows(tools, tools.length, ROW_HEIGHT);

  return (
    <section
      ref={scrollRef}
      className="overflow-auto rounded-lg border border-border"
      style={virtual ? { height: VIRTUAL_VIEW_HEIGHT } : undefined}
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
