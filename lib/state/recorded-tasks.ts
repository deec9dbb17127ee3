import type { Frame } from '../client/frames';
import type { ObservedTask } from '../client/task-api';
import { isResponseTo } from '../recording/exchanges';
import type { InspectorStore } from './inspector-store';
import { asRecord } from '../shared/records';
import { isTerminalStatus } from '../shared/task-status';

/**
 * Feeds the tasks slice from recorded frames, the way the live follower would have: a task is
 * tracked when its CreateTaskResult arrives, each tasks/get result and notifications/tasks is
 * a snapshot, an acknowledged tasks/update marks its keys answered, a cancel is noted, and a
 * terminal snapshot ends it. Call it before `appendMany(frames)` so the polls land on known tasks.
 */

function snapshotOf(v: unknown): ObservedTask | undefined {
  const t = asRecord(v);
  if (!t || typeof t.taskId !== 'string' || typeof t.status !== 'string') return undefined;
  const { _meta: _m, resultType: _r, ...rest } = t;
  return rest as unknown as ObservedTask;
}

/** What a task-related exchange contributes: its request and, when it came, the answer. */
interface TaskExchange {
  method: string;
  rpcId: unknown;
  params?: Record<string, unknown>;
  startAt: number;
  result?: Record<string, unknown>;
  answered: boolean;
  at?: number;
}

const TASK_METHODS = new Set(['tools/call', 'tasks/get', 'tasks/update', 'tasks/cancel']);

/**
 * The exchanges of the four task methods, in the order sent, with the response to each: one
 * pass over the frames, skipping everything else (a long session is mostly other traffic).
 */
function taskExchanges(frames: readonly Frame[]): TaskExchange[] {
  const byKey = new Map<string, TaskExchange>();
  for (const f of frames) {
    if (f.method === undefined || !TASK_METHODS.has(f.method) || f.kind === 'bridge') continue;
    const key = `${f.connectionId}\u0000${f.exchangeId}`;
    const x = byKey.get(key);
    if (!x) {
      if (f.direction !== 'out' || (f.kind !== 'http-request' && f.kind !== 'message')) continue;
      const body = asRecord(f.body);
      const rpcId = typeof body?.id === 'string' || typeof body?.id === 'number' ? body.id : f.rpcId;
      const params = asRecord(body?.params);
      byKey.set(key, {
        method: typeof body?.method === 'string' ? body.method : f.method,
        rpcId,
        ...(params ? { params } : {}),
        startAt: f.at,
        answered: false,
      });
      continue;
    }
    if (x.answered || f.direction !== 'in' || (f.kind !== 'message' && f.kind !== 'sse-frame')) continue;
    const m = asRecord(f.body);
    // The response, or a transport-level refusal (400/403/413...), which answers with id null.
    if (m && x.rpcId !== undefined && (isResponseTo(m, x.rpcId) || (f.kind === 'message' && m.id === null && 'error' in m))) {
      x.answered = true;
      x.at = f.at;
      const result = asRecord(m.result);
      if (result) x.result = result;
    }
  }
  return [...byKey.values()];
}

/** Replay the task lifecycle of `frames` into the store's tasks slice (one store update). */
export function seedRecordedTasks(store: InspectorStore, frames: readonly Frame[]): void {
  const tasks = () => store.getState().tasks;
  const known = new Set<string>();
  const events: { at: number; run: () => void }[] = [];
  for (const x of taskExchanges(frames)) {
    const { result } = x;
    const at = x.at ?? x.startAt;
    if (x.method === 'tools/call' && result) {
      const created = result.resultType === 'task' ? snapshotOf(result) : snapshotOf(result.task);
      if (created) {
        const form = result.resultType === 'task' ? 'extension' : 'legacy';
        const toolName = typeof x.params?.name === 'string' ? x.params.name : undefined;
        const run = () => {
          known.add(created.taskId);
          tasks().track(created, { form, at, ...(toolName ? { toolName } : {}) });
        };
        events.push({ at, run });
      }
    }
    if (x.method === 'tasks/get' && result) {
      const snap = snapshotOf(result);
      if (snap) events.push({ at, run: () => tasks().applySnapshot(snap.taskId, snap, 'poll', at) });
    }
    if (x.method === 'tasks/update' && result && typeof x.params?.taskId === 'string') {
      const taskId = x.params.taskId;
      const keys = Object.keys(asRecord(x.params.inputResponses) ?? {});
      events.push({ at, run: () => tasks().markAnswered(taskId, keys, at) });
    }
    if (x.method === 'tasks/cancel' && typeof x.params?.taskId === 'string') {
      const taskId = x.params.taskId;
      events.push({ at: x.startAt, run: () => tasks().markCancelRequested(taskId, x.startAt) });
      if (x.answered) events.push({ at, run: () => tasks().markCancelAck(taskId, result ? 'acknowledged' : 'refused') });
    }
  }
  for (const f of frames) {
    const body = f.direction === 'in' ? asRecord(f.body) : undefined;
    if (body?.method !== 'notifications/tasks') continue;
    const snap = snapshotOf(body.params);
    if (snap) events.push({ at: f.at, run: () => tasks().applySnapshot(snap.taskId, snap, 'notification', f.at) });
  }
  events.sort((a, b) => a.at - b.at);
  tasks().batch(() => {
    for (const e of events) e.run();
  });
  // After the batch: the store holds its result now (a task that finished ends once).
  for (const id of known) {
    const r = tasks().byId[id];
    if (r && isTerminalStatus(r.snapshot.status)) tasks().end(id, { kind: 'terminal', at: r.history[r.history.length - 1]?.at ?? r.seenAt });
  }
}
