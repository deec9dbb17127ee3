'use client';

import { InputRequestsPanel } from '@/components/elicitation/InputRequestsPanel';
import { ErrorView, ResultView } from '@/components/tools/ResultView';
import type { TrackedTask } from '@/lib/state/tasks-types';
import { cancelPending } from '@/lib/state/tracked-task';
import { StateDiagram } from './StateDiagram';
import { TaskActions } from './TaskActions';
import { PollCadence, TtlCountdown } from './TaskTimers';
import { useInspector } from '@/components/inspector/use-inspector';
import { useTaskRunner } from '@/components/tasks/use-task-runner';
import { isTerminalStatus } from '@/lib/shared/task-status';
import { TaskStatusBadge } from '@/components/ui/TaskStatusBadge';

/**
 * One task: its fingerprint (never its id), the live state diagram, status message, TTL and
 * poll cadence, the input requests it waits on (answered in place with tasks/update, one key at
 * a time), the cancel state, and its result or error. `isError` results are completed tasks.
 */

const END_TEXT: Record<string, string> = {
  expired: 'Gave up: createdAt + ttlMs passed, the server may have purged the task.',
  timeout: 'Stopped waiting (the wait bound ran out).',
  error: 'Stopped: the server no longer answers for this task.',
  stopped: 'Not followed any more (the task goes on on the server).',
  aborted: 'Following was interrupted.',
};

function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
}

function TaskOutcome({ record }: { record: TrackedTask }) {
  const s = record.snapshot;
  if (s.status === 'completed' && s.result) return <ResultView result={s.result} testId="task-result" />;
  if (s.status === 'failed' && s.error) return <ErrorView error={s.error} testId="task-result" />;
  return null;
}

/** The card of one tracked task (see above). */
export function TaskCard({ record }: { record: TrackedTask }) {
  const era = useInspector((s) => s.connection.server?.era);
  const runner = useTaskRunner();
  const s = record.snapshot;
  const terminal = isTerminalStatus(s.status);
  const waiting = s.status === 'input_required' && s.inputRequests && Object.keys(s.inputRequests).length > 0;
  const end = record.end && record.end.kind !== 'terminal' ? record.end : undefined;

  return (
    <article data-testid="task-card" data-fp={record.fp} data-status={s.status} className="space-y-3 rounded-lg border border-border bg-surface p-4">
      <header className="flex flex-wrap items-center gap-2">
        <code className="font-mono text-sm font-semibold" title="Task fingerprint: the first 8 hex digits of SHA-256(taskId); the id itself is a bearer token">
          {record.fp}
        </code>
        {record.toolName ? <span className="font-mono text-xs text-muted">{record.toolName}</span> : null}
        <TaskStatusBadge status={s.status} className="text-xs" />
        <span className="text-xs text-muted">{record.form === 'legacy' ? '2025-11-25 tasks' : 'tasks extension'}</span>
        {record.origin === 'listed' ? <span className="text-xs text-muted">(from tasks/list)</span> : null}
      </header>
      <StateDiagram current={s.status} history={record.history} />
      <p data-testid="status-message" className="text-sm">
        {s.statusMessage ?? <span className="text-muted">(no status message)</span>}
      </p>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
        <dt className="text-muted">TTL</dt>
        <dd>
          <TtlCountdown record={record} />
        </dd>
        <dt className="text-muted">Polling</dt>
        <dd>
          <PollCadence record={record} />
        </dd>
        <dt className="text-muted">Created</dt>
        <dd>
          {time(s.createdAt)} · updated {time(s.lastUpdatedAt)}
          {record.notifications ? ` · ${record.notifications} notification${record.notifications === 1 ? '' : 's'}` : ''}
        </dd>
      </dl>
      {cancelPending(record) ? (
        <p data-testid="cancel-pending" role="status" className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs">
          cancel requested — the ack is not final; polling until the task reaches a terminal status
          {record.cancel?.ack === 'refused' ? ` (the server refused: ${record.cancel.detail ?? 'error'})` : ''}
        </p>
      ) : record.cancel && terminal ? (
        <p data-testid="cancel-outcome" className="text-xs text-muted">
          cancel requested; the task ended {s.status}
        </p>
      ) : null}
      <TaskActions record={record} era={era} />
      {waiting && !terminal ? (
        <div className="space-y-1">
          <p className="text-xs text-muted">The task waits for input: answers go out with tasks/update and show on the next poll.</p>
          <InputRequestsPanel mode="each" inputRequests={s.inputRequests as Record<string, unknown>} onSubmit={(r) => void runner.answer(record.taskId, r)} />
        </div>
      ) : null}
      <TaskOutcome record={record} />
      {end ? (
        <p data-testid="task-end" data-kind={end.kind} className="text-xs text-muted">
          {END_TEXT[end.kind] ?? end.kind}
          {end.detail ? ` ${end.detail}` : ''}
        </p>
      ) : null}
      {record.lastError ? (
        <p role="alert" className="text-xs text-danger">
          {record.lastError}
        </p>
      ) : null}
    </article>
  );
}
