'use client';

import Link from 'next/link';
import { InspectorProvider } from '@/components/inspector/InspectorProvider';
import { StreamsPanel, TasksPanel } from '@/components/inspector/panels';
import { Workbench, WORKBENCH_PAGE } from '@/components/inspector/Workbench';
import { MissingToken } from '@/components/scenario/MissingToken';
import { useSession } from '@/components/scenario/use-session';
import { usePathId } from '@/components/ui/use-path-id';
import { LiveTapApp } from './LiveTapApp';
import { TapFaultsPanel } from './TapFaultsPanel';
import { TapRecordControl } from './TapRecordControl';
import { useLiveTap } from './use-live-tap';

/** One live tap: what it relays, whether it still runs, and the inspector over its frames. */
function LiveTap({ id }: { id: string }) {
  const tap = useLiveTap(id);
  const { info } = tap;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p data-testid="tap-info" data-state={tap.state} data-frames={tap.frameCount} className="min-w-0 truncate font-mono text-xs text-muted">
          {tap.state === 'missing'
            ? `No tap ${id} in this Loupe (it may have been started with another data directory).`
            : info
              ? `${info.transport} · ${info.target} · ${tap.frameCount} frames · ${tap.state === 'ended' ? 'ended' : 'live'}`
              : 'Connecting…'}
        </p>
        {info ? <TapRecordControl tapId={id} startedAt={info.startedAt} recording={tap.recording} /> : null}
      </div>
      <InspectorProvider store={tap.store}>
        <Workbench
          panels={[
            { id: 'faults', title: 'Faults', content: <TapFaultsPanel faults={tap.faults} onChange={(next) => void tap.setFaults(next)} error={tap.error} /> },
            { id: 'tasks', title: 'Tasks', content: <TasksPanel /> },
            { id: 'streams', title: 'Streams', content: <StreamsPanel /> },
            { id: 'app', title: 'App view', content: <LiveTapApp recording={tap.recording} frameCount={tap.frameCount} /> },
          ]}
        />
      </InspectorProvider>
    </>
  );
}

/**
 * The live view of a tap (`/tap/<id>`): a real client's traffic with a real server, relayed by
 * `mcp-loupe tap`, on the inspector's timeline as it happens. It observes only: no forms that
 * would send on the tapped connection, except the fault switches the tap applies itself.
 */
export function LiveTapPage() {
  const id = usePathId('/tap/');
  const session = useSession();
  return (
    <main className={WORKBENCH_PAGE} data-testid="live-tap">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="text-lg font-semibold tracking-tight">
          Loupe <span className="align-middle text-xs font-normal text-muted">live tap {id ?? ''}</span>
        </h1>
        <nav className="ml-auto flex gap-4 text-sm">
          <Link href="/" className="text-accent hover:underline">
            Inspector →
          </Link>
        </nav>
      </header>
      {session === 'missing' ? <MissingToken /> : id && session === 'authenticated' ? <LiveTap key={id} id={id} /> : null}
    </main>
  );
}
