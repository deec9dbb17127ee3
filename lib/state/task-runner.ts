import type { StoreApi } from 'zustand/vanilla';
import type { InputResponses, Task } from '../protocol';
import { describeOutcome } from '../client/results';
import type { ListenHandle } from '../client/listen';
import { readSnapshot, type ObservedTask } from '../client/task-api';
import type { TaskFollower } from '../client/task-follower';
import type { RequestOutcome } from '../client/results';
import type { ConnectionSlice } from './connection-slice';
import type { StreamsSlice } from './streams-types';
import type { TasksSlice } from './tasks-types';
import { isTerminalStatus } from '../shared/task-status';

/**
 * What the tasks panel does to tasks, outside React so a task keeps being followed while the
 * panel is hidden: one follower per task (polls `tasks/get` at `pollIntervalMs`, stops at a
 * terminal status, gives up at `createdAt + ttlMs`), answers sent with `tasks/update` (the
 * change shows on the next poll, never by polling early), cancel that keeps following until a
 * terminal status (the ack is not final), an optional `subscriptions/listen` per task whose
 * drops follow lib/client's reconnect plan (a resync refetches the task), and the 2025-11-25
 * extras (tasks/list, tasks/result). Everything lands in the tasks and streams slices.
 */

type RunnerState = TasksSlice & StreamsSlice & ConnectionSlice;

/** Follows the session's tasks for the store, whether or not the tasks panel shows. */
export interface TaskRunner {
  /** A `task` outcome of tools/call: record it and follow it. */
  adopt(task: Task, meta: { form: 'extension' | 'legacy'; toolName?: string }): void;
  follow(taskId: string): void;
  /** Stop following (the task itself goes on on the server). */
  stop(taskId: string): void;
  /** Poll now (the refresh button). */
  refresh(taskId: string): void;
  answer(taskId: string, responses: InputResponses): Promise<RequestOutcome>;
  cancel(taskId: string): Promise<RequestOutcome>;
  setListening(taskId: string, on: boolean): void;
  /** 2025-11-25: list the server's tasks; returns a problem text or undefined. */
  listTasks(): Promise<string | undefined>;
  /** 2025-11-25: fetch a finished task's result with tasks/result. */
  fetchResult(taskId: string): Promise<void>;
  dispose(): void;
}

/**
 * Create a runner over a store whose state has the connection, tasks and streams slices. The
 * inspector store makes its own on first use (`store.taskRunner()`), so a store has one.
 */
export function createTaskRunner(store: StoreApi<RunnerState>, now: () => number = Date.now): TaskRunner {
  const followers = new Map<string, TaskFollower>();
  const listens = new Map<string, ListenHandle>();
  const tasks = () => store.getState().tasks;
  const session = () => store.getState().connection.session;

  function closeListen(taskId: string) {
    const h = listens.get(taskId);
    if (!h) return;
    listens.delete(taskId);
    const sub = h.subscriptionId;
    h.close();
    if (sub !== undefined) store.getState().streams.noteListenClosed(sub);
    tasks().setListening(taskId, false);
  }

  function stopAll() {
    for (const f of followers.values()) f.stop();
    followers.clear();
    for (const id of [...listens.keys()]) closeListen(id);
  }

  // A new connection: the old session's tasks cannot be followed any more. Disconnect (the
  // session goes away) stops every follower and listen at once; the records stay on show.
  let epoch = store.getState().connection.epoch;
  let current = store.getState().connection.session;
  const unsubscribe = store.subscribe((s) => {
    if (s.connection.session !== current) {
      current = s.connection.session;
      const following = [...followers.keys()];
      stopAll();
      for (const id of following) if (s.tasks.byId[id]) s.tasks.end(id, { kind: 'stopped', at: now(), detail: 'disconnected' });
    }
    if (s.connection.epoch === epoch) return;
    epoch = s.connection.epoch;
    stopAll();
    s.tasks.clear();
  });

  function follow(taskId: string) {
    const s = session();
    const record = tasks().byId[taskId];
    if (!s || !record || followers.has(taskId)) return;
    tasks().setFollowing(taskId, true);
    const follower = s.followTask(record.snapshot, {
      onUnanswered: 'wait',
      onUpdate: (t) => tasks().applySnapshot(taskId, t, 'poll', now()),
      onEvent: (e) => {
        if (e.type === 'cancel-requested')
          tasks().markCancelAck(
            taskId,
            e.outcome.type === 'complete' ? 'acknowledged' : 'refused',
            e.outcome.type === 'complete' ? undefined : describeOutcome(e.outcome),
          );
        if (e.type === 'poll-failed') tasks().noteError(taskId, `tasks/get: ${describeOutcome(e.outcome)}`);
      },
    });
    followers.set(taskId, follower);
    void follower.done.then((end) => {
      if (followers.get(taskId) !== follower) return;
      followers.delete(taskId);
      // Under 2025-11-25 the follower fetched the result with tasks/result at the end.
      if (end.task.result || end.task.error) tasks().applySnapshot(taskId, end.task, 'poll', now());
      const detail =
        end.kind === 'error' ? describeOutcome(end.outcome) : end.kind === 'expired' ? 'createdAt + ttlMs passed; the server may have purged it' : undefined;
      tasks().end(taskId, { kind: end.kind, at: now(), ...(detail ? { detail } : {}) });
      if (isTerminalStatus(end.task.status)) closeListen(taskId);
    });
  }

  function listen(taskId: string) {
    const s = session();
    if (!s || listens.has(taskId) || s.era !== 'modern') return;
    const streams = () => store.getState().streams;
    const handle = s.listen(
      { taskIds: [taskId] },
      {
        onNotification: (n) => {
          if (n.method !== 'notifications/tasks' || n.params?.taskId !== taskId) return;
          const read = readSnapshot(n.params as Record<string, unknown>, 'extension');
          if (!('task' in read)) return;
          tasks().applySnapshot(taskId, read.task, 'notification', now());
          // The notification is the full task: a terminal one ends the follower with no further
          // tasks/get (polling past a terminal status is what the report card fails).
          followers.get(taskId)?.observe(read.task);
        },
        onDrop: ({ reason, attempt, plan }) => {
          if (handle.subscriptionId !== undefined) streams().noteListenDrop(handle.subscriptionId, { at: now(), reason, attempt, plan });
        },
        onResync: (plan) => {
          if (handle.subscriptionId !== undefined) streams().noteListenResync(handle.subscriptionId, now());
          // Notifications sent while the stream was down are gone: refetch what the plan names.
          for (const id of plan.refetchTaskIds) followers.get(id)?.refresh();
        },
      },
    );
    listens.set(taskId, handle);
    tasks().setListening(taskId, true);
    void handle.done.then(() => {
      if (listens.get(taskId) === handle) {
        listens.delete(taskId);
        tasks().setListening(taskId, false);
      }
    });
  }

  return {
    adopt(task, meta) {
      tasks().track(task, { ...meta, at: now() });
      follow(task.taskId);
    },
    follow,
    stop(taskId) {
      const f = followers.get(taskId);
      if (!f) return;
      followers.delete(taskId);
      f.stop();
      tasks().end(taskId, { kind: 'stopped', at: now() });
    },
    refresh: (taskId) => followers.get(taskId)?.refresh(),
    async answer(taskId, responses) {
      const s = session();
      if (!s) return { type: 'failure', reason: 'local', message: 'Not connected' };
      const out = await s.updateTask(taskId, responses);
      if (out.type === 'complete') tasks().markAnswered(taskId, Object.keys(responses), now());
      else tasks().noteError(taskId, `tasks/update: ${describeOutcome(out)}`);
      return out;
    },
    async cancel(taskId) {
      const s = session();
      if (!s) return { type: 'failure', reason: 'local', message: 'Not connected' };
      tasks().markCancelRequested(taskId, now());
      // Keep following after the ack: only a terminal status ends a cancelled task.
      if (!followers.has(taskId)) follow(taskId);
      const f = followers.get(taskId);
      const out = f ? await f.cancel() : await s.cancelTask(taskId);
      if (!f) tasks().markCancelAck(taskId, out.type === 'complete' ? 'acknowledged' : 'refused', out.type === 'complete' ? undefined : describeOutcome(out));
      return out;
    },
    setListening(taskId, on) {
      if (on) listen(taskId);
      else closeListen(taskId);
    },
    async listTasks() {
      const s = session();
      if (!s) return 'Not connected';
      const out = await s.listTasks();
      if (out.type !== 'tasks') return describeOutcome(out);
      for (const t of out.tasks) tasks().track(t, { form: 'legacy', origin: 'listed', at: now() });
      return undefined;
    },
    async fetchResult(taskId) {
      const s = session();
      const record = tasks().byId[taskId];
      if (!s || !record) return;
      const out = await s.taskResult(taskId);
      const snap: ObservedTask = { ...record.snapshot };
      if (out.type === 'complete') snap.result = out.result;
      else if (out.type === 'error') snap.error = out.error;
      else return tasks().noteError(taskId, `tasks/result: ${describeOutcome(out)}`);
      tasks().applySnapshot(taskId, snap, 'poll', now());
    },
    dispose() {
      unsubscribe();
      stopAll();
    },
  };
}
