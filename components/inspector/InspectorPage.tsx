'use client';

import Link from 'next/link';
import { RecordingMenu } from '@/components/recording/RecordingMenu';
import { ConnectionBar } from './ConnectionBar';
import { InspectorProvider } from './InspectorProvider';
import type { ConnectionConfig } from '@/lib/state/connection-slice';
import { StreamsPanel, TasksPanel, ToolsPanel } from './panels';
import { Workbench, type WorkbenchPanel } from './Workbench';

const PANELS: WorkbenchPanel[] = [
  { id: 'tools', title: 'Tools', content: <ToolsPanel /> },
  { id: 'tasks', title: 'Tasks', content: <TasksPanel /> },
  { id: 'streams', title: 'Streams', content: <StreamsPanel /> },
];

/** The built-in demo mock on this origin, reached directly (same origin needs no proxy). */
const DEMO_CONNECTION: Partial<ConnectionConfig> = { url: '/mcp', mode: 'direct', era: 'auto' };

/** The inspector: connection bar; timeline and detail pane; tools, tasks and streams panels beside them. */
export function InspectorPage({ autoConnect = DEMO_CONNECTION }: { autoConnect?: Partial<ConnectionConfig> }) {
  return (
    <InspectorProvider autoConnect={autoConnect}>
      <main className="flex h-screen flex-col gap-3 p-3" data-testid="inspector">
        <header className="flex items-center gap-4">
          <h1 className="text-lg font-semibold tracking-tight">
            Loupe <span className="align-middle text-xs font-normal text-muted">MCP 2026-07-28 inspector</span>
          </h1>
          <RecordingMenu />
          <nav className="ml-auto flex gap-4 text-sm">
            <Link href="/scenarios/demo" className="text-accent hover:underline">
              Demo mock control room →
            </Link>
            <Link href="/scenarios" className="text-accent hover:underline">
              All mock scenarios
            </Link>
          </nav>
        </header>
        <ConnectionBar />
        <Workbench panels={PANELS} />
      </main>
    </InspectorProvider>
  );
}
