'use client';

import { useState } from 'react';
import { EXT, type Tool } from '@/lib/protocol';
import { useInspector } from '@/components/inspector/use-inspector';
import { ToolCallForm } from './ToolCallForm';

/**
 * The tools panel: the server's tools (from tools/list; tools with invalid header annotations
 * were dropped by the client and show as warnings), and the selected tool's call form.
 */

/** Whether the server says it can run tools as tasks (the extension, or 2025-11-25 `tasks`). */
function supportsTasks(capabilities: Record<string, unknown> | undefined): boolean {
  if (!capabilities) return false;
  const ext = capabilities.extensions;
  return !!(ext && typeof ext === 'object' && EXT.tasks in ext) || !!capabilities.tasks;
}

function ToolRow({ tool, selected, onSelect }: { tool: Tool; selected: boolean; onSelect: () => void }) {
  const hints = tool.annotations ?? {};
  return (
    <tr data-tool={tool.name} data-selected={selected ? 'true' : undefined} className={`border-t border-border align-top ${selected ? 'bg-accent/5' : ''}`}>
      <td className="px-3 py-2 whitespace-nowrap">
        <button type="button" data-testid="select-tool" className="font-mono text-accent hover:underline" onClick={onSelect}>
          {tool.name}
        </button>
      </td>
      <td className="px-3 py-2">{tool.title ?? <span className="text-muted">—</span>}</td>
      <td className="px-3 py-2 text-xs text-muted">
        <span className="line-clamp-2" title={tool.description}>
          {tool.description ?? '—'}
        </span>
        <span className="mt-1 flex flex-wrap gap-1">
          {hints.readOnlyHint ? <span className="rounded bg-surface-muted px-1.5">read-only</span> : null}
          {hints.destructiveHint ? <span className="rounded bg-danger/15 px-1.5 text-danger">destructive</span> : null}
          {hints.idempotentHint ? <span className="rounded bg-surface-muted px-1.5">idempotent</span> : null}
        </span>
      </td>
    </tr>
  );
}

/** List the tools and call one. */
export function ToolsPanel() {
  const tools = useInspector((s) => s.connection.tools);
  const status = useInspector((s) => s.connection.status);
  const epoch = useInspector((s) => s.connection.epoch);
  const capabilities = useInspector((s) => s.connection.server?.capabilities);
  const warnings = useInspector((s) => s.connection.warnings);
  const refreshTools = useInspector((s) => s.connection.refreshTools);
  const [selected, setSelected] = useState<string>();
  const tool = tools.find((t) => t.name === selected);
  const dropped = warnings.filter((w) => w.startsWith('Dropped tool'));

  return (
    <section data-testid="tools-panel" className="@container">
      <div className="grid gap-4 @4xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="min-w-0 space-y-4">
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-sm font-semibold">
              Tools <span className="font-normal text-muted">({tools.length})</span>
            </h2>
            <button
              type="button"
              className="text-xs text-accent hover:underline disabled:opacity-50"
              disabled={status !== 'connected'}
              onClick={() => void refreshTools()}
            >
              Refresh tools/list
            </button>
          </div>
          <section
            className="overflow-x-auto rounded-lg border border-border"
            aria-label="Tools"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take focus so a keyboard user can scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
            tabIndex={0}
          >
            <table data-testid="tools-table" className="w-full text-left text-sm">
              <thead className="bg-surface-muted text-xs uppercase tracking-wide text-muted">
                <tr>
                  <th className="px-3 py-2 font-medium">Name</th>
                  <th className="px-3 py-2 font-medium">Title</th>
                  <th className="px-3 py-2 font-medium">Description</th>
                </tr>
              </thead>
              <tbody>
                {tools.map((t) => (
                  <ToolRow key={t.name} tool={t} selected={t.name === selected} onSelect={() => setSelected(t.name)} />
                ))}
                {tools.length === 0 ? (
                  <tr>
                    <td colSpan={3} className="px-3 py-4 text-center text-muted">
                      {status === 'connected' ? 'The server lists no tools.' : 'Connect to a server to list its tools.'}
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </section>
          {dropped.length ? (
            <ul className="space-y-1 text-xs text-danger" data-testid="dropped-tools">
              {dropped.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="min-w-0">
          {tool ? (
            <ToolCallForm key={`${epoch}:${tool.name}`} tool={tool} taskCapable={supportsTasks(capabilities)} />
          ) : tools.length ? (
            <p className="text-xs text-muted">Choose a tool to call it.</p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
