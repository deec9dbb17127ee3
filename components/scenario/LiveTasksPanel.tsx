'use client';

import { TaskRow } from './TaskRow';
import { useTasks } from './use-task-actions';
import { EmptyState } from '@/components/ui/EmptyState';

/** The scenario's live tasks, newest first, with controls to drive each one. */
export function LiveTasksPanel() {
  const { tasks, act, pending, error } = useTasks();
  return (
    <section aria-label="Tasks" className="flex min-h-0 flex-col rounded-xl border border-border bg-surface shadow-sm">
      <header className="border-b border-border px-4 py-2">
        <h2 className="text-sm font-semibold">
          Tasks <span className="font-normal text-muted">({tasks.length})</span>
        </h2>
      </header>
      {error ? (
        <p role="alert" className="px-4 pt-2 text-xs text-danger">
          {error}
        </p>
      ) : null}
      {tasks.length === 0 ? (
        <EmptyState testId="tasks-empty" className="px-4 py-6">
          No tasks yet. A tool call that runs as a task shows up here.
        </EmptyState>
      ) : (
        <ul
          data-testid="tasks"
          className="max-h-[28rem] overflow-y-auto"
          aria-label="Live tasks"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a list that scrolls must take focus so a keyboard user can scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
          tabIndex={0}
        >
          {tasks.map((task) => (
            <TaskRow
              key={task.taskId}
              task={task}
              pending={pending?.startsWith(`${task.taskId}:`) ? pending.slice(task.taskId.length + 1) : undefined}
              onAct={(action) => void act(task.taskId, action)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
