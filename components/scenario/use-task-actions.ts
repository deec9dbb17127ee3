'use client';

import { useState } from 'react';
import type { TaskAction } from '@/lib/protocol/loupe-api';
import { useControlRoom, useControlRoomContext } from './use-control-room';

/** The live tasks and the operator's controls over them (advance, require input, complete, fail, expire). */
export function useTasks() {
  const { store, client, scenarioId } = useControlRoomContext();
  const tasks = useControlRoom((s) => s.tasks);
  const [pending, setPending] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();

  async function act(taskId: string, action: TaskAction): Promise<void> {
    setPending(`${taskId}:${action}`);
    setError(undefined);
    const reply = await client.task(scenarioId, taskId, action);
    setPending(undefined);
    if (!reply.ok) return setError(`Could not ${action} the task: ${reply.error}`);
    // The event stream brings the change too; applying the answer now keeps the row in step.
    if (action === 'expire') store.getState().expireTask(reply.data.task);
    else store.getState().upsertTask(reply.data.task);
  }

  return { tasks, act, pending, error };
}
