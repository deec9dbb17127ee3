import { ControlRoom } from '@/components/scenario/ControlRoom';
import { hasLaunchCookie } from '@/lib/adapters/next-session';

export const metadata = { title: 'Control room · Loupe' };

export default async function ScenarioPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ControlRoom scenarioId={id} authenticated={await hasLaunchCookie()} />;
}
