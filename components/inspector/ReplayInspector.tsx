'use client';

import { usePathId } from '@/components/ui/use-path-id';
import { InspectorPage } from './InspectorPage';

/** The inspector connected to the replay named in the URL (`/replay/<id>` → `/mcp/replay/<id>`). */
export function ReplayInspector() {
  const id = usePathId('/replay/');
  if (id === undefined) return <main className="h-screen" data-testid="inspector-loading" />;
  return <InspectorPage key={id} autoConnect={{ url: `/mcp/replay/${encodeURIComponent(id)}`, mode: 'direct', era: 'auto' }} />;
}
