'use client';

import Link from 'next/link';
import { ThemeToggle } from '@/components/ui/ThemeToggle';
import type { FeedStatus } from '@/lib/state/control-room-store';
import { ControlRoomProvider } from './ControlRoomProvider';
import { JournalPanel } from './JournalPanel';
import { MissingToken } from './MissingToken';
import { ReportCardPanel } from './ReportCardPanel';
import { ScenarioEditor } from './ScenarioEditor';
import { LiveTasksPanel } from './LiveTasksPanel';
import { useControlRoom } from './use-control-room';
import { useScenarioEvents } from './use-scenario-events';
import { useSession } from './use-session';
import { Badge, type Tone } from '@/components/ui/Badge';
import { usePathId } from '@/components/ui/use-path-id';

const FEED: Record<FeedStatus, { label: string; tone: Tone }> = {
  connecting: { label: 'Connecting…', tone: 'neutral' },
  live: { label: 'Live', tone: 'success' },
  reconnecting: { label: 'Reconnecting…', tone: 'neutral' },
  unauthorized: { label: 'Token rejected', tone: 'danger' },
  gone: { label: 'Not running', tone: 'danger' },
};

function Room({ scenarioId }: { scenarioId: string }) {
  useScenarioEvents();
  const feed = useControlRoom((s) => s.feed);
  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-center gap-3">
        <nav aria-label="Back" className="flex gap-3 text-sm">
          <Link href="/" data-testid="back-to-inspector" className="text-muted hover:text-foreground">
            ← Inspector
          </Link>
          <Link href="/scenarios" className="text-muted hover:text-foreground">
            Scenarios
          </Link>
        </nav>
        <h1 className="text-xl font-semibold tracking-tight">
          Control room <code className="ml-1 font-mono text-base">{scenarioId}</code>
        </h1>
        <code className="font-mono text-xs text-muted">POST /mcp/{scenarioId}</code>
        <Badge data-testid="feed-status" data-state={feed} size="md" tone={FEED[feed].tone} className="ml-auto">
          {FEED[feed].label}
        </Badge>
        <ThemeToggle />
      </header>
      {feed === 'unauthorized' ? <MissingToken /> : null}
      {feed === 'gone' ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
          This scenario is not running: it does not exist, or its file does not validate. Fix the file and save it, or pick another scenario.
        </p>
      ) : null}
      <div className="grid gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ScenarioEditor />
        <div className="flex min-w-0 flex-col gap-4">
          <LiveTasksPanel />
          <ReportCardPanel />
        </div>
      </div>
      <JournalPanel />
    </div>
  );
}

/**
 * The control room of the scenario in the URL (`/scenarios/<id>`): its file, live tasks, report
 * card and journal. Shows the token hint instead when this browser has no launch-token cookie.
 */
export function ControlRoom() {
  const scenarioId = usePathId('/scenarios/');
  const session = useSession();
  let content = <p className="text-sm text-muted">Loading…</p>;
  if (session === 'missing') content = <MissingToken />;
  else if (session === 'authenticated' && scenarioId !== undefined)
    content = (
      <ControlRoomProvider key={scenarioId} scenarioId={scenarioId}>
        <Room scenarioId={scenarioId} />
      </ControlRoomProvider>
    );
  return <main className="mx-auto max-w-[96rem] px-6 py-6">{content}</main>;
}
