import { InspectorPage } from '@/components/inspector/InspectorPage';

/** The inspector connected to a recording the running Loupe replays (`/mcp/replay/<id>`). */
export default async function ReplayPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <InspectorPage autoConnect={{ url: `/mcp/replay/${encodeURIComponent(id)}`, mode: 'direct', era: 'auto' }} />;
}
