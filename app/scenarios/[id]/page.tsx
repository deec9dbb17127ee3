import { ControlRoom } from '@/components/scenario/ControlRoom';
import { hasLaunchCookie } from '@/lib/adapters/next-session';

/** The tab title. */
export const metadata = { title: 'Control room · Loupe' };

/** One scenario's control room; without the launch cookie, how to get the token instead. */
export default async function ScenarioPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ControlRoom scenarioId={id} authenticated={await hasLaunchCookie()} />;
}
