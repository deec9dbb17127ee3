import { ScenarioList } from '@/components/scenario/ScenarioList';

/** The tab title. */
export const metadata = { title: 'Scenarios · Loupe' };

/** The mock scenarios; without the launch cookie, how to get the token instead. */
export default function ScenariosPage() {
  return (
    <main className="mx-auto max-w-4xl space-y-4 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">Mock scenarios</h1>
      <ScenarioList />
    </main>
  );
}
