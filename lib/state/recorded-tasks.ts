import type { Frame } from '../client/frames';
import type { TaskSnapshot } from '../client/task-api';
import { TERMINAL_STATUSES } from '../protocol';
import { groupExchanges } from '../recording/exchanges';
import type { InspectorStore } from './inspector-store';

/**
 * Feeds the tasks slice from recorded frames, the way the live follower would have: a task is
 * tracked when its CreateTaskResult arrives, each tasks/get result and notifications/tasks is
 * a snapshot, an acknowledged tasks/update marks its keys answered, a cancel is noted, and a
 * terminal snapshot ends it. Call it before `appendMany(frames)` so the polls land on known tasks.
 */

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const TERMINAL = new Set<string>(TERMINAL_STATUSES);

function snapshotOf(v: unknown): TaskSnapshot | undefined {
  const t = obj(v);
  if (!t || typeof t.taskId !== 'string' || typeof t.status !== 'string') return undefined;
  const { _meta: _m, resultType: _r, ...rest } = t;
  return rest as unknown as TaskSnapshot;
}

/** Replay the task lifecycle of `frames` into the store's tasks slice. */
export function seedRecordedTasks(store: InspectorStore, frames: readonly Frame[]): void {
  const tasks = () => store.getState().tasks;
  const known = new Set<string>();
  const events: { at: number; run: () => void }[] = [];
  for (const x of groupExchanges(frames)) {
    const result = obj(x.response?.result);
    const at = x.responseFrame?.at ?? x.endAt;
    if (x.method === 'tools/call' && result) {
      const created = result.resultType === 'task' ? snapshotOf(result) : snapshotOf(result.task);
      if (created) {
        const form = result.resultType === 'task' ? 'extension' : 'legacy';
        const toolName = typeof x.params?.name === 'string' ? x.params.name : undefined;
        events.push({ at, run: () => (known.add(created.taskId), tasks().track(created, { form, at, ...(toolName ? { toolName } : {}) })) });
      }
    }
    if (x.method === 'tasks/get' && result) {
      const snap = snapshotOf(result);
      if (snap) events.push({ at, run: () => tasks().applySnapshot(snap.taskId, snap, 'poll', at) });
    }
    if (x.method === 'tasks/update' && result && typeof x.params?.taskId === 'string') {
      const taskId = x.params.taskId;
      const keys = Object.keys(obj(x.params.inputResponses) ?? {});
      events.push({ at, run: () => tasks().markAnswered(taskId, keys, at) });
    }
    if (x.method === 'tasks/cancel' && typeof x.params?.taskId === 'string') {
      const taskId = x.params.taskId;
      events.push({ at: x.startAt, run: () => tasks().markCancelRequested(taskId, x.startAt) });
      if (x.response) events.push({ at, run: () => tasks().markCancelAck(taskId, result ? 'acknowledged' : 'refused') });
    }
  }
  for (const f of frames) {
    const body = obj(f.body);
    if (f.direction !== 'in' || body?.method !== 'notifications/tasks') continue;
    const snap = snapshotOf(body.params);
    if (snap) events.push({ at: f.at, run: () => tasks().applySnapshot(snap.taskId, snap, 'notification', f.at) });
  }
  events.sort((a, b) => a.at - b.at);
  for (const e of events) e.run();
  for (const id of known) {
    const r = tasks().byId[id];
    if (r && TERMINAL.has(r.snapshot.status)) tasks().end(id, { kind: 'terminal', at: r.history[r.history.length - 1]?.at ?? r.seenAt });
  }
}
