import { ControlRoom } from '@/components/scenario/ControlRoom';

/** The tab title. */
export const metadata = { title: 'Control room · Loupe' };

/**
 * One exported page serves every scenario id: the app server answers `/scenarios/<any id>` with
 * this placeholder, and the control room reads the real id from the URL in the browser.
 */
export function generateStaticParams(): { id: string }[] {
  return [{ id: '_' }];
}

/** One scenario's control room; without the launch cookie, how to get the token instead. */
export default function ScenarioPage() {
  return <ControlRoom />;
}
