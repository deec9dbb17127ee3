'use client';

import type { ReactNode } from 'react';
import type { SubscriptionFilter } from '@/lib/protocol';
import { fingerprint } from '@/lib/shared/fingerprint';
import { BACKOFF_CAP_MS } from '@/lib/client/reconnect';
import type { ListenDrop, ListenRecord, StreamRecord } from '@/lib/state/streams-types';
import { useNow } from '@/components/ui/use-now';
import { Badge, type Tone } from '@/components/ui/Badge';
import { keyedByContent } from '@/components/ui/content-keys';

/**
 * One `subscriptions/listen` across its re-opens, and for each drop the reconnect plan being
 * executed: wait 250 ms × 2ⁿ (capped at 8 s), open a new listen with the same filters (a new
 * subscription id), refetch the tasks it watched, never send Last-Event-ID, and never re-send
 * a side-effecting request that was in flight.
 */

/** A filter in words; task ids as fingerprints. */
function describeFilter(f: SubscriptionFilter): string {
  const parts: string[] = [];
  if (f.taskIds?.length) parts.push(`tasks ${f.taskIds.map(fingerprint).join(', ')}`);
  if (f.toolsListChanged) parts.push('tools list');
  if (f.promptsListChanged) parts.push('prompts list');
  if (f.resourcesListChanged) parts.push('resources list');
  if (f.resourceSubscriptions?.length) parts.push(`${f.resourceSubscriptions.length} resource${f.resourceSubscriptions.length === 1 ? '' : 's'}`);
  return parts.length ? parts.join(' · ') : '(nothing)';
}

const STATE_TONE: Record<string, Tone> = {
  opening: 'neutral',
  live: 'success',
  reconnecting: 'warning',
  closed: 'neutral',
  ended: 'neutral',
  refused: 'danger',
};

function Step({ done, children, testId }: { done: boolean; children: ReactNode; testId?: string }) {
  return (
    <li data-testid={testId} data-done={done ? 'true' : 'false'} className="flex gap-2">
      <span aria-hidden="true" className={done ? 'text-success' : 'text-muted'}>
        {done ? '✓' : '…'}
      </span>
      <span>{children}</span>
    </li>
  );
}

function DropPlan({ drop, current }: { drop: ListenDrop; current: boolean }) {
  const waiting = current && drop.reopenedAt === undefined;
  const now = useNow(250, waiting);
  const left = Math.max(0, drop.at + drop.plan.delayMs - now);
  const p = drop.plan;
  return (
    <li data-testid="listen-drop" data-attempt={drop.attempt} className="space-y-1 rounded-md border border-border p-2 text-xs">
      <p>
        <span className="font-medium">Dropped</span> at {new Date(drop.at).toLocaleTimeString()}: {drop.reason}
      </p>
      <ol data-testid="reconnect-plan" className="space-y-0.5">
        <Step done={drop.reopenedAt !== undefined} testId="plan-backoff">
          wait {p.delayMs} ms (250 ms × 2<sup>{drop.attempt}</sup>, capped at {BACKOFF_CAP_MS.toLocaleString('en')} ms)
          {waiting ? ` — reconnecting in ${left} ms` : ''}
        </Step>
        <Step done={drop.reopenedAt !== undefined} testId="plan-relisten">
          new subscriptions/listen with the same filters ({describeFilter(p.listen)}), a new subscription id
        </Step>
        <Step done={drop.resyncedAt !== undefined} testId="plan-refetch">
          {p.refetchTaskIds.length ? `refetch ${p.refetchTaskIds.map(fingerprint).join(', ')} with tasks/get once acknowledged` : 'no tasks to refetch'}
          {p.refetchLists.length ? `; re-list ${p.refetchLists.join(', ')}` : ''}
        </Step>
        <Step done testId="plan-no-last-event-id">
          no Last-Event-ID: 2026-07-28 streams are not resumable
        </Step>
        {p.note ? (
          <Step done testId="plan-unsafe">
            {p.note}
          </Step>
        ) : null}
      </ol>
    </li>
  );
}

/** The card of one listen subscription: its state, requests, acknowledgement, and the plans of its last five drops. */
export function ListenCard({ listen, streams }: { listen: ListenRecord; streams: Record<string, StreamRecord> }) {
  const lastId = listen.streamIds.at(-1);
  const last = lastId === undefined ? undefined : streams[lastId];
  const drops = listen.drops.slice(-5);
  return (
    <article data-testid="listen-card" data-state={listen.state} className="space-y-2 rounded-lg border border-border bg-surface p-3 text-sm">
      <header className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs">subscriptions/listen</span>
        <Badge data-testid="listen-state" tone={STATE_TONE[listen.state] ?? 'neutral'} className="text-xs">
          {listen.state}
        </Badge>
        <span className="text-xs text-muted">{describeFilter(listen.filter)}</span>
      </header>
      <p className="text-xs text-muted">
        {listen.subscriptionIds.length} request{listen.subscriptionIds.length === 1 ? '' : 's'} · {listen.drops.length} drop
        {listen.drops.length === 1 ? '' : 's'}
        {last?.ack ? ` · acknowledged ${describeFilter(last.ack.agreed)}` : last ? ' · not acknowledged yet' : ''}
      </p>
      {drops.length ? (
        <ul className="space-y-2">
          {keyedByContent(drops, (d) => `${d.at}:${d.attempt}`).map(({ key, item: d }) => (
            <DropPlan key={key} drop={d} current={d === drops.at(-1) && listen.state === 'reconnecting'} />
          ))}
        </ul>
      ) : null}
    </article>
  );
}
