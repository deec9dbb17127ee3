import { InspectorPage } from '@/components/inspector/InspectorPage';

/** The home page is the inspector, connected to what its URL names (`mcp-loupe --url`, a bookmark) or to the built-in demo mock. */
export default function HomePage() {
  return <InspectorPage />;
}
