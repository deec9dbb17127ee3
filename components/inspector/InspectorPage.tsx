'use client';

import Link from 'next/link';
import { ServerRequestsDialog } from '@/components/elicitation/ServerRequestsDialog';
import { RecordingMenu } from '@/components/recording/RecordingMenu';
import { TapList } from '@/components/tap/TapList';
import { ConnectionBar } from './ConnectionBar';
import { HeaderTools } from './HeaderTools';
import { InspectorProvider } from './InspectorProvider';
import type { ConnectionConfig } from '@/lib/state/connection-slice';
import { PromptsPanel, ResourcesPanel, ServerOutputBadge, ServerOutputPanel, StreamsPanel, TasksPanel, ToolsPanel } from './panels';
import { TasksBadge } from './TasksBadge';
import { useLinkedConnection } from './use-linked-connection';
import { Workbench, WORKBENCH_PAGE, type WorkbenchPanel } from './Workbench';

const PANELS: WorkbenchPanel[] = [
  { id: 'tools', title: 'Tools', content: <ToolsPanel /> },
  { id: 'resources', title: 'Resources', content: <ResourcesPanel /> },
  { id: 'prompts', title: 'Prompts', content: <PromptsPanel /> },
  { id: 'tasks', title: 'Tasks', content: <TasksPanel />, badge: <TasksBadge /> },
  { id: 'streams', title: 'Streams', content: <StreamsPanel /> },
  { id: 'output', title: 'Server output', content: <ServerOutputPanel />, badge: <ServerOutputBadge /> },
];

/** Connects as the page URL says (the demo when it names nothing); shows a linked stdio command that waits for the user's Connect. */
function LinkedConnection() {
  const held = useLinkedConnection();
  if (!held) return null;
  return (
    <p role="status" data-testid="stdio-held" className="rounded-md border border-border bg-surface-muted px-3 py-2 text-xs text-muted">
      This link asks Loupe to run <code className="font-mono text-foreground">{held}</code> on your computer. Loupe runs a command only when you ask: check it,
      then press Connect.
    </p>
  );
}

/**
 * The inspector: connection bar; the workbench (timeline and detail side by side, the tabbed
 * panel of tools, resources, prompts, tasks, streams and a stdio server's output under them). Without `autoConnect` (the home page) the connection follows the page URL; with it (a
 * replay) it connects there.
 */
export function InspectorPage({ autoConnect }: { autoConnect?: Partial<ConnectionConfig> }) {
  return (
    <InspectorProvider autoConnect={autoConnect}>
      <main className={WORKBENCH_PAGE} data-testid="inspector">
        <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <h1 className="text-lg font-semibold tracking-tight">
            Loupe <span className="align-middle text-xs font-normal text-muted">MCP 2026-07-28 inspector</span>
          </h1>
          <RecordingMenu />
          <HeaderTools />
          <nav className="ml-auto flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <TapList />
            <Link href="/scenarios/demo" className="text-accent hover:underline">
              Demo mock control room →
            </Link>
            <Link href="/scenarios" className="text-accent hover:underline">
              All mock scenarios
            </Link>
          </nav>
        </header>
        <ConnectionBar />
        {autoConnect ? null : <LinkedConnection />}
        <Workbench panels={PANELS} />
        <ServerRequestsDialog />
      </main>
    </InspectorProvider>
  );
}
