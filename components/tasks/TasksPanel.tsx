'use client';

import { useState } from 'react';
import { isTerminalStatus } from '@/lib/shared/task-status';
import { ActionButton } from '@/components/ui/ActionButton';
import { TaskCard } from './TaskCard';
import { useInspector } from '@/components/inspector/use-inspector';
import { useTaskRunner } from '@/components/tasks/use-task-runner';

/**
 * The tasks panel: every task this session created (and, under 2025-11-25, those the server
 * lists), newest first, each followed until it ends. Run a tool as a task from the Tools panel.
 */
export function TasksPanel() {
  const order = useInspector((s) => s.tasks.order);
  const byId = useInspector((s) => s.tasks.byId);
  const era = useInspector((s) => s.connection.server?.era);
  const connected = useInspector((s) => s.connection.status === 'connected');
  const runner = useTaskRunner();
  const [listError, setListError] = useState<string>();
  const [listing, setListing] = useState(false);
  const active = order.filter((id) => byId[id] && !isTerminalStatus(byId[id].snapshot.status)).length;

  const list = async () => {
    setListing(true);
    try {
      setListError(await runner.listTasks());
    } finally {
      setListing(false);
    }
  };

  return (
    <section data-testid="tasks-panel" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">
          Tasks{' '}
          <span className="font-normal text-muted" data-testid="tasks-count">
            ({order.length}, {active} active)
          </span>
        </h2>
        {era === 'legacy' ? (
          <ActionButton
            action="tasks-list"
            data-testid="legacy-tasks-list"
            disabled={!connected || listing}
            onClick={() => void list()}
            title="2025-11-25 tasks/list (removed in 2026-07-28)"
          >
            tasks/list
          </ActionButton>
        ) : null}
      </div>
      {listError ? (
        <p role="alert" className="text-xs text-danger">
          tasks/list: {listError}
        </p>
      ) : null}
      {order.length === 0 ? (
        <p className="text-sm text-muted">
          No tasks yet. In the Tools panel, tick “Run as task” and call a tool: the client declares the tasks extension on that call and the server decides
          whether it becomes a task.
        </p>
      ) : (
        order.map((id) => (byId[id] ? <TaskCard key={id} record={byId[id]} /> : null))
      )}
    </section>
  );
}
