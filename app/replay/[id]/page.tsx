import { ReplayInspector } from '@/components/inspector/ReplayInspector';

/**
 * One exported page serves every replay id: the app server answers `/replay/<any id>` with this
 * placeholder, and the inspector reads the real id from the URL in the browser.
 */
export function generateStaticParams(): { id: string }[] {
  return [{ id: '_' }];
}

/** The inspector connected to a recording the running Loupe replays (`/mcp/replay/<id>`). */
export default function ReplayPage() {
  return <ReplayInspector />;
}
