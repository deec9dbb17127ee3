'use client';

import Link from 'next/link';
import type { ComponentType } from 'react';
import { DetailPane } from '@/components/detail/DetailPane';
import { Timeline } from '@/components/timeline/Timeline';
import { RecordingMenu } from '@/components/recording/RecordingMenu';
import { ConnectionBar } from './ConnectionBar';
import { InspectorProvider } from './InspectorProvider';
import type { ConnectionConfig } from '@/lib/state/connection-slice';
import { StreamsPanel, TasksPanel, ToolsPanel } from './panels';

const PANELS: [string, string, ComponentType][] = [
  ['tools', 'Tools', ToolsPanel],
  ['tasks', 'Tasks', TasksPanel],
  ['streams', 'Streams', StreamsPanel],
];

/** The built-in demo mock on this origin, reached directly (same origin needs no proxy). */
export const DEMO_CONNECTION: Partial<ConnectionConfig> = { url: '/mcp', mode: 'direct', era: 'auto' };

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
        <div className="grid min-h-0 flex-1 grid-cols-1 gap-3 xl:grid-cols-[minmax(0,1fr)_28rem]">
          <div className="flex min-h-[24rem] flex-col gap-3">
            <Timeline />
            <div className="max-h-[45vh] min-h-0 overflow-auto">
              <DetailPane />
            </div>
          </div>
          <aside className="min-h-0 space-y-3 overflow-auto" aria-label="Panels" data-testid="panels">
            {PANELS.map(([id, title, Panel]) => (
              <details key={id} open className="rounded-xl border border-border bg-surface p-3" data-panel={id}>
                <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-muted">{title}</summary>
                <div className="mt-2">
                  <Panel />
                </div>
              </details>
            ))}
          </aside>
        </div>
      </main>
    </InspectorProvider>
  );
}

export default InspectorPage;
