import type { LegacyTask, Task, TaskStatus } from '../protocol';
import type { Frame } from '../client/frames';
import type { ObservedTask } from '../client/task-api';

/** The tasks slice's shape and the record it keeps per task (see tasks-slice.ts). */

/** Where a snapshot came from. */
type SnapshotSource = 'created' | 'poll' | 'notification' | 'cancel' | 'list';

/** One entry of a task's status history. */
export interface StatusChange {
  status: TaskStatus;
  at: number;
  statusMessage?: string;
}

/** How following a task ended (the follower's `FollowEnd` kinds, plus a stop by the user). */
interface TaskEnd {
  kind: 'terminal' | 'expired' | 'timeout' | 'aborted' | 'needs-input' | 'error' | 'stopped';
  at: number;
  detail?: string;
}

/** A task the inspector tracks: its last snapshot plus what this session saw and did. */
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

/** The part of a store's state the tasks slice owns. */
export interface TasksSlice {
  tasks: TasksState;
}
