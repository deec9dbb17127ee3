import { InspectorPage } from '@/components/inspector/InspectorPage';

/** The home page is the inspector, already connected to the built-in demo mock. */
export default function HomePage() {
  return <InspectorPage />;
}
