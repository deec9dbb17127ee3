import { normalizeLegacyTask, type LegacyTask, type Task } from '../protocol';
import { fingerprint } from '../shared/fingerprint';
import { isTerminalStatus } from '../shared/task-status';
import type { ObservedTask } from '../client/task-api';
import type { SliceGet, SliceSet } from './slice';
import type { StatusChange, TasksSlice, TasksState, TrackedTask } from './tasks-types';

/**
 * The tasks slice of the inspector store: every task this session created (or a 2025-11-25
 * server listed), with its last snapshot, the history of its statuses, its pending input
 * requests, the times it was polled, whether a cancel was requested and how following it
 * ended. Both eras land in one shape (the extension's field names): legacy tasks go through
 * `normalizeLegacyTask`. The real task id is the key, because the panel must send it; views
 * show `fp` only (ids may be bearer tokens).
 *
 * Fed by the tasks panel's follower (snapshots, answers, cancels, the end) and by frames
 * (`ingest`: each tasks/get request sent is a poll, timed by the frame, so the
 * cadence shown is the one on the wire whoever polled).
 */

/** Poll times kept per task; older ones only count in `pollCount`. */
const MAX_POLLS = 120;
/** Tasks kept; the oldest finished ones go first. */
const MAX_TASKS = 500;

/** One shape for both eras: a legacy task (`ttl`, `pollInterval`) gets the extension's names. */
function toObservedTask(task: Task | LegacyTask | ObservedTask): ObservedTask {
  const t = task as Record<string, unknown>;
  if (!('ttlMs' in t) && 'ttl' in t) return normalizeLegacyTask(task as LegacyTask) as ObservedTask;
  const { resultType: _r, ...rest } = t;
  return rest as ObservedTask;
}

function withHistory(record: TrackedTask, snapshot: ObservedTask, at: number): StatusChange[] {
  const last = record.history[record.history.length - 1];
  if (last && last.status === snapshot.status) return record.history;
  return [...record.history, { status: snapshot.status, at, ...(snapshot.statusMessage ? { statusMessage: snapshot.statusMessage } : {}) }];
}

function trimOrder(order: string[], tasks: Record<string, TrackedTask>): { order: string[]; tasks: Record<string, TrackedTask> } {
  if (order.length <= MAX_TASKS) return { order, tasks };
  // Drop the oldest finished task, else the oldest.
  // order names exactly the tracked tasks, and holds more than MAX_TASKS of them here.
  const victim = order.findLast((id) => isTerminalStatus(tasks[id]!.snapshot.status)) ?? order.at(-1)!;
  const { [victim]: _gone, ...rest } = tasks;
  return { order: order.filter((id) => id !== victim), tasks: rest };
}

/** Create the tasks slice (pure: compose it into any store whose state includes `tasks`). */
export function createTasksSlice(set: SliceSet<TasksSlice>, _get?: SliceGet<TasksSlice>): TasksSlice {
  // While a batch is ingested, updates apply to this draft and the store is set once at the end.
  let draft: TasksState | undefined;
  const update = (fn: (t: TasksState) => Partial<TasksState> | undefined) => {
    if (draft) {
      const p = fn(draft);
      if (p) draft = { ...draft, ...p };
      return;
    }
    set((s) => {
      const p = fn(s.tasks);
      return p ? { tasks: { ...s.tasks, ...p } } : {};
    });
  };
  const patch = (taskId: string, fn: (r: TrackedTask) => TrackedTask | undefined) =>
    update((t) => {
      const r = t.byId[taskId];
      const next = r && fn(r);
      return next && next !== r ? { byId: { ...t.byId, [taskId]: next } } : undefined;
    });

  const state: TasksState = {
    byId: {},
    order: [],
    track(task, meta) {
      const snapshot = toObservedTask(task);
      update((t) => {
        const existing = t.byId[snapshot.taskId];
        if (existing) {
          // Already known (a listed task we created, a repeated list): only a newer view moves it.
          if (isTerminalStatus(existing.snapshot.status) && !isTerminalStatus(snapshot.status)) return undefined;
          const updated = {
            ...existing,
            snapshot: { ...existing.snapshot, ...snapshot },
            history: withHistory(existing, snapshot, meta.at),
            toolName: existing.toolName ?? meta.toolName,
          };
          return { byId: { ...t.byId, [snapshot.taskId]: updated } };
        }
        const record: TrackedTask = {
          taskId: snapshot.taskId,
          fp: fingerprint(snapshot.taskId),
          ...(meta.toolName ? { toolName: meta.toolName } : {}),
          form: meta.form,
          origin: meta.origin ?? 'created',
          seenAt: meta.at,
          snapshot,
          history: [{ status: snapshot.status, at: meta.at, ...(snapshot.statusMessage ? { statusMessage: snapshot.statusMessage } : {}) }],
          polls: [],
          pollCount: 0,
          notifications: 0,
          answered: {},
          listening: false,
          following: false,
        };
        const trimmed = trimOrder([snapshot.taskId, ...t.order], { ...t.byId, [snapshot.taskId]: record });
        return { byId: trimmed.tasks, order: trimmed.order };
      });
    },
    applySnapshot(taskId, snapshot, source, at) {
      patch(taskId, (r) => {
        // A terminal status is final: a stale or misbehaving snapshot never moves it back.
        if (isTerminalStatus(r.snapshot.status) && !isTerminalStatus(snapshot.status)) return r;
        const next = toObservedTask(snapshot);
        // Answers belong to the round that asked: once the task leaves input_required, forget them.
        const answered = next.status === 'input_required' ? r.answered : {};
        return {
          ...r,
          snapshot: next,
          history: withHistory(r, next, at),
          answered,
          notifications: r.notifications + (source === 'notification' ? 1 : 0),
          lastError: undefined,
        };
      });
    },
    ingestMany(frames) {
      // Only tasks/get sends matter: skip the store update when the batch has none.
      if (!frames.some((f) => f.method === 'tasks/get' && f.direction === 'out')) return;
      state.batch(() => {
        for (const f of frames) state.ingest(f);
      });
    },
    batch(run) {
      if (draft) return run();
      set((s) => {
        draft = s.tasks;
        try {
          run();
          return draft === s.tasks ? {} : { tasks: draft };
        } finally {
          draft = undefined;
        }
      });
    },
    ingest(frame) {
      if (frame.kind !== 'http-request' && !(frame.kind === 'message' && frame.direction === 'out')) return;
      if (frame.method !== 'tasks/get' || !frame.taskId) return;
      patch(frame.taskId, (r) => ({
        ...r,
        polls: r.polls.length >= MAX_POLLS ? [...r.polls.slice(1), frame.at] : [...r.polls, frame.at],
        pollCount: r.pollCount + 1,
      }));
    },
    markAnswered(taskId, keys, at) {
      patch(taskId, (r) => ({ ...r, answered: { ...r.answered, ...Object.fromEntries(keys.map((k) => [k, at])) } }));
    },
    markCancelRequested(taskId, at) {
      patch(taskId, (r) => ({ ...r, cancel: { requestedAt: at } }));
    },
    markCancelAck(taskId, ack, detail) {
      patch(taskId, (r) => (r.cancel ? { ...r, cancel: { ...r.cancel, ack, ...(detail ? { detail } : {}) } } : r));
    },
    setFollowing(taskId, following) {
      patch(taskId, (r) => (r.following === following ? r : { ...r, following, ...(following ? { end: undefined } : {}) }));
    },
    setListening(taskId, listening) {
      patch(taskId, (r) => (r.listening === listening ? r : { ...r, listening }));
    },
    end(taskId, end) {
      patch(taskId, (r) => ({ ...r, end, following: false }));
    },
    noteError(taskId, text) {
      patch(taskId, (r) => ({ ...r, lastError: text }));
    },
    clear() {
      update(() => ({ byId: {}, order: [] }));
    },
  };
  return { tasks: state };
}
