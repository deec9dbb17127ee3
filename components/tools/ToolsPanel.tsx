'use client';

import { ListHeading } from '@/components/resources/ListHeading';
import { useDeferredValue, useMemo, useState } from 'react';
import { EXT, type Tool } from '@/lib/protocol';
import { useInspector } from '@/components/inspector/use-inspector';
import { ToolCallForm } from './ToolCallForm';
import { ToolList } from './ToolList';

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

/** Whether a tool's name, title or description holds `q` (lower case). */
function matches(t: Tool, q: string): boolean {
  return t.name.toLowerCase().includes(q) || !!t.title?.toLowerCase().includes(q) || !!t.description?.toLowerCase().includes(q);
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
  const [query, setQuery] = useState('');
  // Filtering 100,000 tools takes a few ms: the field stays responsive while the list catches up.
  const deferred = useDeferredValue(query.trim().toLowerCase());
  const shown = useMemo(() => (deferred ? tools.filter((t) => matches(t, deferred)) : tools), [tools, deferred]);
  const tool = useMemo(() => tools.find((t) => t.name === selected), [tools, selected]);
  const dropped = warnings.filter((w) => w.startsWith('Dropped tool'));

  return (
    <section data-testid="tools-panel" className="@container">
      <div className="grid gap-4 @4xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="min-w-0 space-y-4">
          <ListHeading name="tools" title="Tools" count={tools.length} onRefresh={() => void refreshTools()} disabled={status !== 'connected'} />
          {tools.length > 10 ? (
            <input
              type="search"
              data-testid="tools-search"
              aria-label="Search tools"
              placeholder={`Search ${tools.length.toLocaleString('en-US')} tools by name, title or description`}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className="w-full rounded-md border border-border bg-surface px-2 py-1 text-sm"
            />
          ) : null}
          {deferred ? (
            <p data-testid="tools-matches" className="text-xs text-muted">
              {shown.length.toLocaleString('en-US')} of {tools.length.toLocaleString('en-US')} match
            </p>
          ) : null}
          <ToolList
            tools={shown}
            selected={selected}
            onSelect={setSelected}
            empty={deferred ? 'No tool matches.' : status === 'connected' ? 'The server lists no tools.' : 'Connect to a server to list its tools.'}
          />
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
