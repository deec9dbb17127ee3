import Link from 'next/link';
import { ScenarioList } from '@/components/scenario/ScenarioList';

/** The tab title. */
export const metadata = { title: 'Scenarios · Loupe' };

/** The mock scenarios; without the launch cookie, how to get the token instead. */
export default function ScenariosPage() {
  return (
    <main className="mx-auto max-w-4xl space-y-4 px-6 py-8">
      <header className="flex flex-wrap items-center gap-3">
        {/* The launch token lives in a cookie, so a plain link keeps the session. */}
        <Link href="/" data-testid="back-to-inspector" className="text-sm text-muted hover:text-foreground">
          ← Inspector
        </Link>
        <h1 className="text-xl font-semibold tracking-tight">Mock scenarios</h1>
      </header>
      <ScenarioList />
    </main>
  );
}
