import type { Frame } from '../client/frames';
import type { ObservedTask } from '../client/task-api';
import { isResponseTo } from '../recording/exchanges';
import type { InspectorStore } from './inspector-store';
import type { TasksState } from './tasks-types';
import { asRecord } from '../shared/records';
import { isTerminalStatus } from '../shared/task-status';

/**
 * Feeds the tasks slice from recorded frames, the way the live follower would have: a task is
 * tracked when its CreateTaskResult arrives, each tasks/get result and notifications/tasks is
 * a snapshot, an acknowledged tasks/update marks its keys answered, a cancel is noted, and a
 * terminal snapshot ends it. Call it before `appendMany(frames)` so the polls land on known tasks.
 */

/** A task snapshot in a result or notification (without the envelope's `_meta`/`resultType`). */
function snapshotOf(v: unknown): ObservedTask | undefined {
  const t = asRecord(v);
  if (!t || typeof t.taskId !== 'string' || typeof t.status !== 'string') return undefined;
  const { _meta: _m, resultType: _r, ...rest } = t;
  return rest as unknown as ObservedTask;
}

/** What a task-related exchange contributes: its request and, when it came, the answer. */
export interface TaskExchange {
  method: string;
  rpcId: unknown;
  params?: Record<string, unknown>;
  startAt: number;
  /** The frame order of the request and of the answer: what came first when two share a millisecond. */
  startSeq: number;
  result?: Record<string, unknown>;
  answered: boolean;
  at?: number;
  seq?: number;
}

const TASK_METHODS = new Set(['tools/call', 'tasks/get', 'tasks/update', 'tasks/cancel']);

/** The key of a frame's exchange, when it belongs to one of the four task methods. */
export function taskExchangeKey(f: Frame): string | undefined {
  if (f.method === undefined || !TASK_METHODS.has(f.method) || f.kind === 'bridge') return undefined;
  return `${f.connectionId}\u0000${f.exchangeId}`;
}

/** A task exchange opened by its request frame, or undefined for any other frame. */
export function openTaskExchange(f: Frame): TaskExchange | undefined {
  if (f.direction !== 'out' || (f.kind !== 'http-request' && f.kind !== 'message')) return undefined;
  const body = asRecord(f.body);
  const rpcId = typeof body?.id === 'string' || typeof body?.id === 'number' ? body.id : f.rpcId;
  const params = asRecord(body?.params);
  return {
    method: typeof body?.method === 'string' ? body.method : f.method!,
    rpcId,
    ...(params ? { params } : {}),
    startAt: f.at,
    startSeq: f.seq,
    answered: false,
  };
}

/** Note the answer of an open exchange when `f` is it; returns whether it was. */
export function noteTaskAnswer(x: TaskExchange, f: Frame): boolean {
  if (x.answered || f.direction !== 'in' || (f.kind !== 'message' && f.kind !== 'sse-frame')) return false;
  const m = asRecord(f.body);
  // The response, or a transport-level refusal (400/403/413...), which answers with id null.
  if (!m || x.rpcId === undefined || !(isResponseTo(m, x.rpcId) || (f.kind === 'message' && m.id === null && 'error' in m))) return false;
  x.answered = true;
  x.at = f.at;
  x.seq = f.seq;
  const result = asRecord(m.result);
  if (result) x.result = result;
  return true;
}

/**
 * The exchanges of the four task methods, in the order sent, with the response to each: one
 * pass over the frames, skipping everything else (a long session is mostly other traffic).
 */
function taskExchanges(frames: readonly Frame[]): TaskExchange[] {
  const byKey = new Map<string, TaskExchange>();
  for (const f of frames) {
    const key = taskExchangeKey(f);
    if (key === undefined) continue;
    const x = byKey.get(key);
    if (!x) {
      const opened = openTaskExchange(f);
      if (opened) byKey.set(key, opened);
    } else noteTaskAnswer(x, f);
  }
  return [...byKey.values()];
}

/** A store update an exchange implies, when it happened, and whether its request or its answer implies it. */
interface TaskEvent {
  at: number;
  seq: number;
  on: 'request' | 'answer';
  run: () => void;
}

/** The updates an exchange implies (a task created, a poll's snapshot, keys answered, a cancel); `known` collects created tasks. */
export function taskEvents(x: TaskExchange, tasks: () => TasksState, known: Set<string>): TaskEvent[] {
  const events: TaskEvent[] = [];
  const { result } = x;
  const at = x.at ?? x.startAt;
  const seq = x.seq ?? x.startSeq;
  if (x.method === 'tools/call' && result) {
    const created = result.resultType === 'task' ? snapshotOf(result) : snapshotOf(result.task);
    if (created) {
      const form = result.resultType === 'task' ? 'extension' : 'legacy';
      const toolName = typeof x.params?.name === 'string' ? x.params.name : undefined;
      const run = () => {
        known.add(created.taskId);
        tasks().track(created, { form, at, ...(toolName ? { toolName } : {}) });
      };
      events.push({ at, seq, on: 'answer', run });
    }
  }
  if (x.method === 'tasks/get' && result) {
    const snap = snapshotOf(result);
    if (snap) events.push({ at, seq, on: 'answer', run: () => tasks().applySnapshot(snap.taskId, snap, 'poll', at) });
  }
  if (x.method === 'tasks/update' && result && typeof x.params?.taskId === 'string') {
    const taskId = x.params.taskId;
    const keys = Object.keys(asRecord(x.params.inputResponses) ?? {});
    events.push({ at, seq, on: 'answer', run: () => tasks().markAnswered(taskId, keys, at) });
  }
  if (x.method === 'tasks/cancel' && typeof x.params?.taskId === 'string') {
    const taskId = x.params.taskId;
    events.push({ at: x.startAt, seq: x.startSeq, on: 'request', run: () => tasks().markCancelRequested(taskId, x.startAt) });
    if (x.answered) events.push({ at, seq, on: 'answer', run: () => tasks().markCancelAck(taskId, result ? 'acknowledged' : 'refused') });
  }
  return events;
}

/** A pushed task snapshot (`notifications/tasks` from the server), as a store update. */
export function notifiedSnapshot(f: Frame, tasks: () => TasksState): TaskEvent | undefined {
  const body = f.direction === 'in' ? asRecord(f.body) : undefined;
  if (body?.method !== 'notifications/tasks') return undefined;
  const snap = snapshotOf(body.params);
  return snap ? { at: f.at, seq: f.seq, on: 'answer', run: () => tasks().applySnapshot(snap.taskId, snap, 'notification', f.at) } : undefined;
}

/** End the known tasks that reached a terminal status (once: an ended task stays ended). */
export function endTerminal(tasks: () => TasksState, ids: Iterable<string>): void {
  for (const id of ids) {
    const r = tasks().byId[id];
    if (r && !r.end && isTerminalStatus(r.snapshot.status)) tasks().end(id, { kind: 'terminal', at: r.history[r.history.length - 1]?.at ?? r.seenAt });
  }
}

/** Replay the task lifecycle of `frames` into the store's tasks slice (one store update). */
export function seedRecordedTasks(store: InspectorStore, frames: readonly Frame[]): void {
  const tasks = () => store.getState().tasks;
  const known = new Set<string>();
  const events = taskExchanges(frames).flatMap((x) => taskEvents(x, tasks, known));
  for (const f of frames) {
    const e = notifiedSnapshot(f, tasks);
    if (e) events.push(e);
  }
  // By time, then by arrival: an answer and a notification can share a millisecond.
  events.sort((a, b) => a.at - b.at || a.seq - b.seq);
  tasks().batch(() => {
    for (const e of events) e.run();
  });
  // After the batch: the store holds its result now (a task that finished ends once).
  endTerminal(tasks, known);
}
