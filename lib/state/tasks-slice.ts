import { normalizeLegacyTask, type InputRequests, type LegacyTask, type Task, type TaskStatus } from '../protocol';
import { fingerprint } from '../shared/fingerprint';
import { isTerminalStatus } from '../shared/task-status';
import type { Frame } from '../client/frames';
import type { ObservedTask } from '../client/task-api';
import type { SliceGet, SliceSet } from './slice';

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

/** Where a snapshot came from. */
export type SnapshotSource = 'created' | 'poll' | 'notification' | 'cancel' | 'list';

export interface StatusChange {
  status: TaskStatus;
  at: number;
  statusMessage?: string;
}

/** How following a task ended (the follower's `FollowEnd` kinds, plus a stop by the user). */
export interface TaskEnd {
  kind: 'terminal' | 'expired' | 'timeout' | 'aborted' | 'needs-input' | 'error' | 'stopped';
  at: number;
  detail?: string;
}

export interface TrackedTask {
  /** The real id: sent on requests, never rendered. */
  taskId: string;
  /** 8-character fingerprint shown in lists and logs. */
  fp: string;
  toolName?: string;
  form: 'extension' | 'legacy';
  /** Created by this session, or only seen in a 2025-11-25 tasks/list. */
  origin: 'created' | 'listed';
  /** When this session first saw it (client clock). */
  seenAt: number;
  snapshot: ObservedTask;
  /** Status changes in order, the first one included. */
  history: StatusChange[];
  /** Send times of tasks/get for this task (the last MAX_POLLS). */
  polls: number[];
  pollCount: number;
  notifications: number;
  /** Input request keys answered with tasks/update and acknowledged, with the time. */
  answered: Record<string, number>;
  cancel?: { requestedAt: number; ack?: 'acknowledged' | 'refused'; detail?: string };
  listening: boolean;
  /** Whether a follower is polling it now. */
  following: boolean;
  end?: TaskEnd;
  /** The last failed request about it (a poll, an update, a cancel), cleared by the next snapshot. */
  lastError?: string;
}

/** The slice's state and actions, under `state.tasks`. */
export interface TasksState {
  byId: Record<string, TrackedTask>;
  /** Task ids, newest first. */
  order: string[];
  /** A task this session created (a `task` outcome of tools/call) or a legacy tasks/list row. */
  track(task: Task | LegacyTask | ObservedTask, meta: { form: 'extension' | 'legacy'; toolName?: string; origin?: 'created' | 'listed'; at: number }): void;
  /** A newer snapshot (a poll, a notification, a legacy cancel answer). */
  applySnapshot(taskId: string, snapshot: ObservedTask, source: SnapshotSource, at: number): void;
  /** A frame of the connection: counts tasks/get sends as polls. */
  ingest(frame: Frame): void;
  /** Many frames in one store update. */
  ingestMany(frames: readonly Frame[]): void;
  /** Run many updates (`track`, `applySnapshot`...) as one store update. */
  batch(run: () => void): void;
  /** tasks/update acknowledged for these keys. */
  markAnswered(taskId: string, keys: string[], at: number): void;
  markCancelRequested(taskId: string, at: number): void;
  markCancelAck(taskId: string, ack: 'acknowledged' | 'refused', detail?: string): void;
  setFollowing(taskId: string, following: boolean): void;
  setListening(taskId: string, listening: boolean): void;
  end(taskId: string, end: TaskEnd): void;
  noteError(taskId: string, text: string): void;
  /** Forget every task (a new connection). */
  clear(): void;
}

export interface TasksSlice {
  tasks: TasksState;
}

/** Poll times kept per task; older ones only count in `pollCount`. */
export const MAX_POLLS = 120;
/** Tasks kept; the oldest finished ones go first. */
export const MAX_TASKS = 500;

/** One shape for both eras: a legacy task (`ttl`, `pollInterval`) gets the extension's names. */
export function toObservedTask(task: Task | LegacyTask | ObservedTask): ObservedTask {
  const t = task as Record<string, unknown>;
  if (!('ttlMs' in t) && 'ttl' in t) return normalizeLegacyTask(task as LegacyTask) as ObservedTask;
  const { resultType: _r, ...rest } = t;
  return rest as ObservedTask;
}

/** Input requests the task waits on that were not answered yet. */
export function pendingInputRequests(record: TrackedTask): InputRequests {
  if (record.snapshot.status !== 'input_required' || !record.snapshot.inputRequests) return {};
  return Object.fromEntries(Object.entries(record.snapshot.inputRequests).filter(([k]) => !(k in record.answered)));
}

/** Every status the task has been in, in order of first visit. */
export function visitedStatuses(record: TrackedTask): TaskStatus[] {
  return [...new Set(record.history.map((h) => h.status))];
}

/** A cancel was requested and the task has not reached a terminal status yet. */
export function cancelPending(record: TrackedTask): boolean {
  return !!record.cancel && !isTerminalStatus(record.snapshot.status);
}

/** Intervals between the last polls (ms), most recent last. */
export function pollIntervals(record: TrackedTask, last = 10): number[] {
  const p = record.polls.slice(-last - 1);
  return p.slice(1).map((t, i) => t - p[i]);
}

/** When the server may purge the task (`createdAt + ttlMs`), or undefined for no TTL. */
export function expiresAt(snapshot: ObservedTask): number | undefined {
  if (snapshot.ttlMs === null || snapshot.ttlMs === undefined) return undefined;
  const created = Date.parse(snapshot.createdAt);
  return Number.isFinite(created) ? created + snapshot.ttlMs : undefined;
}

function withHistory(record: TrackedTask, snapshot: ObservedTask, at: number): StatusChange[] {
  const last = record.history[record.history.length - 1];
  if (last && last.status === snapshot.status) return record.history;
  return [...record.history, { status: snapshot.status, at, ...(snapshot.statusMessage ? { statusMessage: snapshot.statusMessage } : {}) }];
}

function trimOrder(order: string[], tasks: Record<string, TrackedTask>): { order: string[]; tasks: Record<string, TrackedTask> } {
  if (order.length <= MAX_TASKS) return { order, tasks };
  // Drop the oldest finished task, else the oldest.
  const victim = [...order].reverse().find((id) => isTerminalStatus(tasks[id].snapshot.status)) ?? order[order.length - 1];
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
          const updated = { ...existing, snapshot: { ...existing.snapshot, ...snapshot }, history: withHistory(existing, snapshot, meta.at), toolName: existing.toolName ?? meta.toolName };
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
        return { ...r, snapshot: next, history: withHistory(r, next, at), answered, notifications: r.notifications + (source === 'notification' ? 1 : 0), lastError: undefined };
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
      patch(frame.taskId, (r) => ({ ...r, polls: r.polls.length >= MAX_POLLS ? [...r.polls.slice(1), frame.at] : [...r.polls, frame.at], pollCount: r.pollCount + 1 }));
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
