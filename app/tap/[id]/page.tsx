import { LiveTapPage } from '@/components/tap/LiveTapPage';

/** The tab title. */
export const metadata = { title: 'Live tap · Loupe' };

/**
 * One exported page serves every tap id: the app server answers `/tap/<any id>` with this
 * placeholder, and the page reads the real id from the URL in the browser.
 */
export function generateStaticParams(): { id: string }[] {
  return [{ id: '_' }];
}

/** A tapped session (`mcp-loupe tap`), live. */
export default function TapPage() {
  return <LiveTapPage />;
}
