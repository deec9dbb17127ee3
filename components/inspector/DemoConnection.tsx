'use client';

import type { Tool } from '@/lib/protocol';
import { useDemoConnection, type DemoServer } from './use-demo-connection';

/** Capability names as badges; extensions by their id, shortened after the vendor prefix. */
function capabilityBadges(capabilities: Record<string, unknown>): { label: string; title: string }[] {
  const badges: { label: string; title: string }[] = [];
  for (const key of Object.keys(capabilities)) {
    if (key === 'extensions' || key === 'experimental') continue;
    badges.push({ label: key, title: `capabilities.${key}` });
  }
  const ext = capabilities.extensions;
  if (ext && typeof ext === 'object') {
    for (const id of Object.keys(ext)) badges.push({ label: `ext: ${id.split('/').pop() ?? id}`, title: id });
  }
  return badges;
}

function Badge({ label, title }: { label: string; title: string }) {
  return (
    <span title={title} className="rounded-full border border-border bg-surface-muted px-2 py-0.5 font-mono text-xs">
      {label}
    </span>
  );
}

function ServerSummary({ server, elapsedMs }: { server: DemoServer; elapsedMs: number }) {
  const badges = capabilityBadges(server.capabilities);
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
      <dt className="text-muted">Server</dt>
      <dd data-testid="server-info" className="font-mono">
        {server.name} <span className="text-muted">v{server.version}</span>
        {server.title ? <span className="ml-2 font-sans text-muted">({server.title})</span> : null}
      </dd>
      <dt className="text-muted">Versions</dt>
      <dd data-testid="supported-versions" className="flex flex-wrap gap-1.5">
        {server.supportedVersions.map((v) => (
          <Badge key={v} label={v} title="supportedVersions" />
        ))}
      </dd>
      <dt className="text-muted">Capabilities</dt>
      <dd data-testid="capabilities" className="flex flex-wrap gap-1.5">
        {badges.length ? badges.map((b) => <Badge key={b.title} {...b} />) : <span className="text-muted">none</span>}
      </dd>
      <dt className="text-muted">Round trip</dt>
      <dd className="font-mono text-muted">{elapsedMs} ms for discover + tools/list</dd>
    </dl>
  );
}

function ToolsTable({ tools }: { tools: Tool[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table data-testid="tools-table" className="w-full text-left text-sm">
        <thead className="bg-surface-muted text-xs uppercase tracking-wide text-muted">
          <tr>
            <th className="px-3 py-2 font-medium">Name</th>
            <th className="px-3 py-2 font-medium">Title</th>
            <th className="px-3 py-2 font-medium">Description</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool.name} data-tool={tool.name} className="border-t border-border align-top">
              <td className="px-3 py-2 font-mono whitespace-nowrap">{tool.name}</td>
              <td className="px-3 py-2">{tool.title ?? <span className="text-muted">—</span>}</td>
              <td className="px-3 py-2 text-muted">{tool.description ?? '—'}</td>
            </tr>
          ))}
          {tools.length === 0 ? (
            <tr>
              <td colSpan={3} className="px-3 py-4 text-center text-muted">
                The server lists no tools.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

const STATUS_STYLE = {
  connecting: 'bg-surface-muted text-muted',
  connected: 'bg-success/15 text-success',
  error: 'bg-danger/15 text-danger',
} as const;

/** The built-in demo mock, connected on mount: server identity, versions, capabilities and tools. */
export function DemoConnection({ endpoint = '/mcp' }: { endpoint?: string }) {
  const state = useDemoConnection(endpoint);
  return (
    <section className="space-y-5 rounded-xl border border-border bg-surface p-5 shadow-sm">
      <div className="flex items-center justify-between gap-4">
        <h2 className="text-base font-semibold">
          Demo mock <code className="ml-1 font-mono text-sm text-muted">POST {endpoint}</code>
        </h2>
        <span data-testid="connection-status" data-state={state.status} className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS_STYLE[state.status]}`}>
          {state.status === 'connecting' ? 'Connecting…' : state.status === 'connected' ? 'Connected' : 'Failed'}
        </span>
      </div>
      {state.status === 'error' ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 font-mono text-sm text-danger">
          {state.message}
        </p>
      ) : null}
      {state.status === 'connected' ? (
        <>
          <ServerSummary server={state.server} elapsedMs={state.elapsedMs} />
          <div className="space-y-2">
            <h3 className="text-sm font-semibold">
              Tools <span className="font-normal text-muted">({state.tools.length})</span>
            </h3>
            <ToolsTable tools={state.tools} />
          </div>
        </>
      ) : null}
    </section>
  );
}

export default DemoConnection;
