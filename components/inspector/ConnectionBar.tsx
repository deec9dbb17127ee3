'use client';

import { useState, type FormEvent } from 'react';
import type { ConnectionConfig, ConnectionMode } from '@/lib/state/connection-slice';
import { AuthPanel } from '@/components/auth/AuthPanel';
import { ConnectionNotes } from './ConnectionNotes';
import { HeadersEditor } from './HeadersEditor';
import { RecentConnections } from './RecentConnections';
import { useConnectionForm } from './use-connection-form';
import { useInspector } from './use-inspector';
import { Badge, type Tone } from '@/components/ui/Badge';
import { keyedByContent } from '@/components/ui/content-keys';

const field = 'rounded-md border border-border bg-surface px-2 py-1.5 text-sm';
const STATUS = {
  idle: ['Disconnected', 'neutral'],
  connecting: ['Connecting…', 'neutral'],
  connected: ['Connected', 'success'],
  error: ['Failed', 'danger'],
} as const satisfies Record<string, readonly [string, Tone]>;

function ServerLine() {
  const server = useInspector((s) => s.connection.server);
  const tools = useInspector((s) => s.connection.tools.length);
  if (!server) return null;
  return (
    <span data-testid="server-info" className="truncate font-mono text-xs text-muted">
      {server.info?.name ?? '(unnamed)'} v{server.info?.version ?? '?'} · {server.era === 'legacy' ? 'legacy' : 'modern'} {server.protocolVersion} · {tools}{' '}
      tools
    </span>
  );
}

/** Where the inspector connects: URL, auto/direct/through Loupe's proxy, era, bearer token and headers; recent ones. */
export function ConnectionBar() {
  const f = useConnectionForm();
  const busy = useInspector((s) => s.connection.busy?.text);
  const warnings = useInspector((s) => s.connection.warnings);
  const [showHeaders, setShowHeaders] = useState(false);
  const exited = useInspector((s) => s.connection.problem?.exited === true);
  const [label, tone] = f.status === 'error' && exited ? (['Exited', 'danger'] as const) : STATUS[f.status];
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    f.submit();
  };
  const headerCount = f.draft.headers.filter((h) => h.enabled && h.name).length + (f.draft.bearer ? 1 : 0);
  return (
    <section className="space-y-2 rounded-xl border border-border bg-surface p-3" aria-label="Connection" data-testid="connection-bar">
      <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2">
        <input
          value={f.draft.url}
          onChange={(e) => f.patch({ url: e.target.value })}
          aria-label={f.draft.mode === 'stdio' ? 'Command line' : 'Server URL'}
          placeholder={f.draft.mode === 'stdio' ? 'npx -y my-mcp-server --flag "quoted arg"' : 'https://server.example/mcp'}
          data-testid="url-input"
          className={`${field} min-w-64 flex-1 font-mono`}
          disabled={f.connected}
        />
        <RecentConnections onPick={f.replace} disabled={f.connected} />
        <select
          aria-label="Connection mode"
          data-testid="mode-select"
          value={f.draft.mode}
          onChange={(e) => f.patch({ mode: e.target.value as ConnectionMode })}
          className={field}
          disabled={f.connected}
        >
          <option value="auto">Auto (direct if CORS allows)</option>
          <option value="direct">Direct (CORS)</option>
          <option value="proxy">Via Loupe proxy</option>
          <option value="stdio">stdio (via proxy)</option>
        </select>
        <select
          aria-label="Protocol era"
          data-testid="era-select"
          value={f.draft.era}
          onChange={(e) => f.patch({ era: e.target.value as ConnectionConfig['era'] })}
          className={field}
          disabled={f.connected}
        >
          <option value="auto">Era: auto-detect</option>
          <option value="modern">2026-07-28</option>
          <option value="legacy">2025-11-25 (legacy)</option>
        </select>
        <label
          className="flex items-center gap-1.5 text-xs"
          title="Declare the MCP Apps extension (io.modelcontextprotocol/ui): servers bind app views to tools; without it they answer with text"
        >
          <input
            type="checkbox"
            data-testid="declare-apps"
            className="size-3.5 accent-accent"
            checked={f.draft.apps !== false}
            onChange={(e) => f.patch({ apps: e.target.checked })}
            disabled={f.connected}
          />
          Apps
        </label>
        <button
          type="button"
          onClick={() => setShowHeaders((v) => !v)}
          aria-expanded={showHeaders}
          data-testid="headers-toggle"
          className="rounded-md border border-border px-2 py-1.5 text-sm hover:bg-surface-muted"
        >
          Headers{headerCount ? ` (${headerCount})` : ''}
        </button>
        <button
          type="submit"
          data-testid="connect-button"
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${f.connected ? 'border border-border hover:bg-surface-muted' : 'bg-accent text-on-accent hover:opacity-90'}`}
        >
          {f.connected ? 'Disconnect' : 'Connect'}
        </button>
        <Badge data-testid="connection-status" data-state={f.status} data-exited={exited || undefined} size="md" tone={tone}>
          {label}
        </Badge>
        <ServerLine />
      </form>
      {showHeaders ? (
        <HeadersEditor
          bearer={f.draft.bearer}
          headers={f.draft.headers}
          onBearer={(bearer) => f.patch({ bearer })}
          onChange={f.setHeader}
          onAdd={f.addHeader}
          onRemove={f.removeHeader}
        />
      ) : null}
      {busy ? (
        <p role="status" data-testid="connection-busy" className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 font-mono text-xs text-warning">
          {busy}
        </p>
      ) : null}
      <ConnectionNotes failed={f.status === 'error'} />
      <AuthPanel />
      {warnings.length ? (
        <details className="text-xs text-muted">
          <summary>{warnings.length} client warning(s)</summary>
          <ul className="mt-1 list-disc pl-5">
            {keyedByContent(warnings, (w) => w).map(({ key, item }) => (
              <li key={key}>{item}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
