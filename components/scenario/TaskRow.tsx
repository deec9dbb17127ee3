'use client';

import type { TaskAction } from '@/lib/protocol/loupe-api';
import type { LiveTask } from '@/lib/state/control-room-store';
import { fingerprint } from '@/lib/shared/fingerprint';
import { isTerminalStatus } from '@/lib/shared/task-status';
import { clockTime } from '@/components/ui/clock-time';
import { TaskStatusBadge } from '@/components/ui/TaskStatusBadge';

const CONTROLS: { action: TaskAction; label: string; title: string }[] = [
  { action: 'advance', label: 'Advance', title: 'Finish the current step now (a manual or timed step)' },
  { action: 'require-input', label: 'Require input', title: 'Move to input_required with an operator question' },
  { action: 'complete', label: 'Complete', title: 'Complete with a canned result' },
  { action: 'fail', label: 'Fail', title: 'Fail with an internal error' },
  { action: 'expire', label: 'Expire', title: 'Delete the task as if its TTL had run out' },
];

/**
 * Why Advance is off while the task waits for input: the script's input step only moves on when
 * the client answers (`tasks/input_response`); the engine has no operator answer to give for it.
 */
const WAITING_FOR_CLIENT = "Waiting for the client's answer to its input request: the task moves on when the client answers. Complete or Fail end it now.";

/** One live task with its status, status message and the operator's controls. */
export function TaskRow({ task, pending, onAct }: { task: LiveTask; pending?: string; onAct: (action: TaskAction) => void }) {
  const status = task.expired ? 'expired' : task.status;
  const done = task.expired || isTerminalStatus(task.status);
  const waiting = !done && task.status === 'input_required';
  return (
    <li
      data-testid="task-row"
      data-fingerprint={fingerprint(task.taskId)}
      data-status={status}
      className="space-y-2 border-t border-border px-4 py-3 first:border-t-0"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <code className="font-mono text-muted" title="Task id fingerprint">
          {fingerprint(task.taskId)}…
        </code>
        <span className="font-mono font-semibold">{task.toolName}</span>
        <TaskStatusBadge status={status} />
        <span className="ml-auto text-muted">
          {clockTime(task.createdAt)}
          {task.pollIntervalMs !== undefined ? ` · poll ${task.pollIntervalMs} ms` : ''}
        </span>
      </div>
      <p data-testid="task-status-message" className="text-sm">
        {task.statusMessage ?? <span className="text-muted">No status message</span>}
      </p>
      <div className="flex flex-wrap gap-1.5">
        {CONTROLS.map((c) => (
          <button
            key={c.action}
            type="button"
            data-testid={`task-${c.action}`}
            title={waiting && c.action === 'advance' ? WAITING_FOR_CLIENT : c.title}
            disabled={done || pending !== undefined || (waiting && c.action === 'advance')}
            onClick={() => onAct(c.action)}
            className="rounded border border-border px-2 py-0.5 text-xs hover:bg-surface-muted disabled:cursor-not-allowed disabled:opacity-40"
          >
            {pending === c.action ? '…' : c.label}
          </button>
        ))}
      </div>
      {waiting ? (
        <p data-testid="advance-reason" className="text-xs text-muted">
          {WAITING_FOR_CLIENT}
        </p>
      ) : null}
    </li>
  );
}
