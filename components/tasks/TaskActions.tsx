'use client';

import { useState } from 'react';
import { ActionButton } from '@/components/ui/ActionButton';
import type { TrackedTask } from '@/lib/state/tasks-types';
import { cancelPending } from '@/lib/state/tracked-task';
import { useTaskRunner } from '@/components/tasks/use-task-runner';
import { isTerminalStatus } from '@/lib/shared/task-status';

/**
 * What a user can do to a task: listen for its notifications (2026-07-28 `subscriptions/listen`
 * with its id), cancel it (then keep polling: the ack is not final), poll now, stop or resume
 * following, and under 2025-11-25 fetch the result with tasks/result.
 */
export function TaskActions({ record, era }: { record: TrackedTask; era?: 'modern' | 'legacy' }) {
  const runner = useTaskRunner();
  const [busy, setBusy] = useState(false);
  const terminal = isTerminalStatus(record.snapshot.status);
  const legacy = era === 'legacy' || record.form === 'legacy';
  const id = record.taskId;

  const cancel = async () => {
    setBusy(true);
    try {
      await runner.cancel(id);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label
        className={`flex items-center gap-1.5 ${legacy || terminal ? 'opacity-50' : ''}`}
        title={legacy ? '2025-11-25 has no subscriptions/listen' : 'subscriptions/listen with this task id: notifications/tasks wake the panel early'}
      >
        <input
          type="checkbox"
          data-testid="listen-toggle"
          className="size-4 accent-accent"
          disabled={legacy || terminal}
          checked={record.listening}
          onChange={(e) => runner.setListening(id, e.target.checked)}
        />
        Listen
      </label>
      <ActionButton
        action="cancel-task"
        tone="danger"
        data-testid="cancel-task"
        disabled={terminal || busy || cancelPending(record)}
        onClick={() => void cancel()}
      >
        Cancel
      </ActionButton>
      <ActionButton
        action="poll-now"
        disabled={!record.following}
        onClick={() => runner.refresh(id)}
        title="Poll now, once (the cadence then resumes at pollIntervalMs)"
      >
        Poll now
      </ActionButton>
      {record.following ? (
        <ActionButton action="stop-following" onClick={() => runner.stop(id)}>
          Stop following
        </ActionButton>
      ) : !terminal ? (
        <ActionButton action="follow" data-testid="follow-task" onClick={() => runner.follow(id)}>
          Follow
        </ActionButton>
      ) : null}
      {legacy ? (
        <ActionButton
          action="task-result"
          data-testid="legacy-task-result"
          onClick={() => void runner.fetchResult(id)}
          title="2025-11-25 tasks/result: blocks until the task ends, then returns its result"
        >
          tasks/result
        </ActionButton>
      ) : null}
    </div>
  );
}
