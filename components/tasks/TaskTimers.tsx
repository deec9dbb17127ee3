'use client';

import type { TrackedTask } from '@/lib/state/tasks-types';
import { expiresAt, pollIntervals } from '@/lib/state/tracked-task';
import { useNow } from '@/components/ui/use-now';
import { isTerminalStatus } from '@/lib/shared/task-status';

/**
 * The two clocks of a task: its TTL countdown (the server may purge it at createdAt + ttlMs;
 * a client gives up then) and the poll cadence actually observed on the wire against the
 * server's pollIntervalMs (a client must not poll faster).
 */

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h ? `${h}h ${String(m).padStart(2, '0')}m ${String(sec).padStart(2, '0')}s` : `${m}m ${String(sec).padStart(2, '0')}s`;
}

/** TTL left, counting down once a second. */
export function TtlCountdown({ record }: { record: TrackedTask }) {
  const end = expiresAt(record.snapshot);
  const live = end !== undefined && !isTerminalStatus(record.snapshot.status);
  const now = useNow(1000, live);
  if (end === undefined) {
    return (
      <span data-testid="ttl-countdown" data-state="none" className="text-muted">
        no TTL (ttlMs null: kept until the server decides)
      </span>
    );
  }
  const left = end - now;
  const state = left <= 0 ? 'expired' : left < 60_000 ? 'soon' : 'ok';
  return (
    <span
      data-testid="ttl-countdown"
      data-state={state}
      title={`createdAt + ttlMs = ${new Date(end).toISOString()}`}
      className={state === 'ok' ? '' : 'text-danger'}
    >
      {state === 'expired' ? 'TTL passed — the server may purge it' : `${duration(left)} left`}
      <span className="text-muted"> of {duration(record.snapshot.ttlMs ?? 0)}</span>
    </span>
  );
}

/** Observed poll intervals against the suggested minimum. */
export function PollCadence({ record }: { record: TrackedTask }) {
  const suggested = record.snapshot.pollIntervalMs;
  const gaps = pollIntervals(record, 5);
  const last = gaps[gaps.length - 1];
  const fastest = gaps.length ? Math.min(...gaps) : undefined;
  const tooFast = suggested !== undefined && fastest !== undefined && fastest < suggested;
  return (
    <span data-testid="poll-cadence" data-polls={record.pollCount} data-too-fast={tooFast ? 'true' : 'false'} className={tooFast ? 'text-danger' : ''}>
      {record.pollCount} poll{record.pollCount === 1 ? '' : 's'}
      {last !== undefined ? ` · last interval ${(last / 1000).toFixed(2)} s` : ''}
      <span className="text-muted"> · pollIntervalMs {suggested !== undefined ? `${suggested} ms` : 'not given (1 s assumed)'}</span>
      {tooFast ? ` · polled faster than suggested (${fastest} ms)` : ''}
      {record.following ? <span className="ml-1 inline-block size-1.5 animate-pulse rounded-full bg-accent align-middle" title="following" /> : null}
    </span>
  );
}
