import { RESULT_TYPE } from '../constants';
import type { TaskStatus } from '../tasks';
import { maskId, show, type Obj, type Report, type View } from './model';
import { asRecord } from '../../shared/records';
import { isTerminalStatus } from '../../shared/task-status';

/**
 * The session rules about tasks: poll cadence against `pollIntervalMs`, polls after a terminal
 * status, terminal states that change (in answers and on listen streams), a task lost before its
 * ttlMs, tasks/update keys the task is not waiting for, and cancels that use the wrong means.
 */

/** Polls up to this fraction early are tolerated (timer jitter). */
const POLL_TOLERANCE = 0.9;

/** What a session has seen of one task. */
interface TaskTrack {
  pollIntervalMs?: number;
  lastAt?: number;
  /** A tasks/update or tasks/cancel since the last poll: the next poll may come at once. */
  nudged: boolean;
  terminal?: TaskStatus;
  outstanding?: string[];
  /** When the task may be gone (createdAt + ttlMs); Infinity for unlimited; unknown when not created in this session. */
  keepUntil?: number;
  /** When the last poll's answer (or the creation) was seen; a pushed snapshot after it is newer. */
  snapAt?: number;
  /** A listen for the task was acknowledged (its first one; then `resyncAt`: a re-listen, when). */
  listened?: boolean;
  resyncAt?: number;
  /** notifications/tasks snapshots pushed on a listen stream, newest last (a few). */
  pushed?: { at: number; status: unknown; outstanding: string[] }[];
  /** The tool whose call created the task: its outputSchema applies to the task's result. */
  tool?: string;
}

/** Pushed snapshots remembered per task. */
const PUSHED_KEPT = 8;
/** A poll that races a pushed terminal snapshot by less than this is not held against the client. */
const PUSH_RACE_MS = 100;

/** The newest pushed snapshot the client had before `at` and after its last poll's answer. */
function pushedBefore(t: TaskTrack, at: number | undefined) {
  if (at === undefined || !t.pushed) return undefined;
  const seen = t.pushed.filter((p) => p.at <= at && (t.snapAt === undefined || p.at >= t.snapAt));
  return seen[seen.length - 1];
}

/**
 * A notifications/tasks seen on a listen stream, when it arrived: the client knows that snapshot
 * from then on (the keys it may answer, a terminal status), although the listen's own exchange
 * is linted only when its stream ends.
 */
export function notePushedTask(s: TaskSession, params: Obj, at: number): void {
  if (typeof params.taskId !== 'string' || typeof params.status !== 'string') return;
  const t = s.tasks.get(params.taskId);
  if (!t) return;
  const outstanding = params.status === 'input_required' ? Object.keys(asRecord(params.inputRequests) ?? {}) : [];
  t.pushed = [...(t.pushed ?? []), { at, status: params.status, outstanding }].slice(-PUSHED_KEPT);
}

/** The tasks a session tracks (sequence.ts's session state includes these). */
export interface TaskSession {
  tasks: Map<string, TaskTrack>;
  /** JSON-RPC ids (as JSON) of the tools/call requests that created a task. */
  taskRequests: Map<string, string>;
}

/** Record what a task snapshot shows; a terminal status that changes is reported. */
function observeSnapshot(t: TaskTrack, snap: Obj, path: string, report: Report): void {
  if (t.terminal && snap.status !== t.terminal)
    report('task-terminal-changed', `The task was already ${t.terminal}; it is now ${show(snap.status)} (terminal states are final)`, `${path}.status`);
  if (!t.terminal && isTerminalStatus(snap.status)) t.terminal = snap.status as TaskStatus;
  if (typeof snap.pollIntervalMs === 'number') t.pollIntervalMs = snap.pollIntervalMs;
  t.outstanding = snap.status === 'input_required' ? Object.keys(asRecord(snap.inputRequests) ?? {}) : [];
}

/**
 * A listen acknowledged at `at` for these tasks. A second one is a re-listen (the reconnect
 * plan after a dropped stream): pushed snapshots were lost, so one prompt poll may follow.
 */
export function noteListenAck(s: TaskSession, params: Obj, at: number): void {
  const ids = asRecord(params.notifications)?.taskIds;
  if (!Array.isArray(ids)) return;
  for (const id of ids) {
    const t = typeof id === 'string' ? s.tasks.get(id) : undefined;
    if (!t) continue;
    if (t.listened) t.resyncAt = at;
    t.listened = true;
  }
}

/**
 * One exchange's task findings (a created task, or a tasks/* request on it): poll cadence, polls
 * after a terminal status, a lost task, unknown tasks/update keys, a refused cancel of a finished task.
 */
export function trackTasks(s: TaskSession, v: View, at: number | undefined, report: Report): void {
  const r = v.result;
  if (v.method === 'tools/call' && r?.resultType === RESULT_TYPE.task && typeof r.taskId === 'string') {
    const created = typeof r.createdAt === 'string' ? Date.parse(r.createdAt) : NaN;
    const keepUntil = r.ttlMs === null ? Infinity : typeof r.ttlMs === 'number' && Number.isFinite(created) ? created + r.ttlMs : undefined;
    const t: TaskTrack = { lastAt: at, nudged: false, keepUntil, snapAt: at, ...(typeof v.params.name === 'string' ? { tool: v.params.name } : {}) };
    observeSnapshot(t, r, 'response.body.result', report);
    s.tasks.set(r.taskId, t);
    s.taskRequests.set(JSON.stringify(v.id), r.taskId);
    return;
  }
  const taskId = v.params.taskId;
  if (typeof taskId !== 'string' || !v.method.startsWith('tasks/')) return;
  let t = s.tasks.get(taskId);
  if (!t) {
    t = { nudged: false };
    s.tasks.set(taskId, t);
  }
  const pushed = pushedBefore(t, at);
  if (v.method === 'tasks/get') {
    const pushedTerminal = pushed && isTerminalStatus(pushed.status) && at !== undefined && at - pushed.at >= PUSH_RACE_MS ? pushed.status : undefined;
    if (!t.terminal && pushedTerminal)
      report('task-poll-after-terminal', `A notification already showed ${show(pushedTerminal)}; stop polling it`, 'request.body.params.taskId');
    else if (t.terminal) report('task-poll-after-terminal', `The task already reached ${t.terminal}; stop polling it`, 'request.body.params.taskId');
    else if (
      !t.nudged &&
      !(t.resyncAt !== undefined && t.lastAt !== undefined && t.resyncAt >= t.lastAt) &&
      at !== undefined &&
      t.lastAt !== undefined &&
      t.pollIntervalMs
    ) {
      const gap = at - t.lastAt;
      if (gap < t.pollIntervalMs * POLL_TOLERANCE)
        report('task-poll-too-fast', `Polled ${gap} ms after the previous look; pollIntervalMs is ${t.pollIntervalMs}`, 'request.body.params.taskId');
    }
    const lost = v.error?.code === -32602 && t.keepUntil !== undefined && (t.keepUntil === Infinity || (at !== undefined && at < t.keepUntil));
    if (lost)
      report(
        'task-lost',
        'tasks/get answers -32602 for a task this session created and whose ttlMs has not elapsed; a task must stay retrievable from creation until its ttlMs',
        'response.body.error',
      );
    if (at !== undefined) t.lastAt = at;
    if (at !== undefined) t.snapAt = at;
    t.nudged = false;
    if (r && typeof r.status === 'string') observeSnapshot(t, r, 'response.body.result', report);
    return;
  }
  // What the client was last shown: its last poll, or a newer pushed snapshot.
  const outstanding = pushed ? pushed.outstanding : t.outstanding;
  if (v.method === 'tasks/update' && outstanding) {
    const unknown = Object.keys(asRecord(v.params.inputResponses) ?? {}).filter((k) => !outstanding.includes(k));
    if (unknown.length)
      report(
        'task-update-unknown-key',
        `tasks/update answers ${unknown.map((k) => `"${k}"`).join(', ')}, which the task is not waiting for (outstanding: ${outstanding.join(', ') || 'none'})`,
        'request.body.params.inputResponses',
      );
  }
  if (v.method === 'tasks/cancel' && t.terminal && v.error?.code === -32602) {
    report(
      'task-cancel-terminal-rejected',
      `The task had already reached ${t.terminal}; 2026-07-28 acknowledges a cancel of a finished task like any other ({resultType: "complete"})`,
      'response.body.error',
    );
  }
  t.nudged = true;
}

/** notifications/cancelled must never target the request that created a task (use tasks/cancel). */
export function trackCancelled(s: TaskSession, v: View, report: Report): void {
  if (v.method !== 'notifications/cancelled') return;
  const taskId = s.taskRequests.get(JSON.stringify(v.params.requestId));
  if (taskId)
    report(
      'task-cancel-by-notification',
      `notifications/cancelled names the request that created task ${maskId(taskId)}; tasks are cancelled with tasks/cancel`,
      'request.body.params.requestId',
    );
}

/** Terminal states seen on one listen stream must not change either. */
export function trackListenFrames(v: View, report: Report): void {
  if (v.method !== 'subscriptions/listen') return;
  const seen = new Map<string, TaskTrack>();
  v.frames.forEach((f, i) => {
    const m = asRecord(f);
    const p = asRecord(m?.params);
    if (m?.method !== 'notifications/tasks' || !p || typeof p.taskId !== 'string') return;
    const t = seen.get(p.taskId) ?? { nudged: false };
    seen.set(p.taskId, t);
    observeSnapshot(t, p, `frames[${i}].params`, report);
  });
}
