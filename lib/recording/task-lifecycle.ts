import type { Frame } from '../client/frames';
import { groupExchanges, type RecordedExchange } from './exchanges';
import { asRecord } from '../shared/records';
import { isTerminalStatus } from '../shared/task-status';

/**
 * A task's lifecycle as the client saw it: every snapshot (the CreateTaskResult, tasks/get
 * results, notifications/tasks) in time order, turned into task-script steps: one step per
 * observed status (a change of status, message or pending input), timed by the server's
 * `lastUpdatedAt` stamps (the observation times when there are none), ending with the
 * terminal outcome. A lifecycle the recording did not see end gets a manual step.
 */

interface TaskSnapshotSeen {
  at: number;
  status: string;
  statusMessage?: string;
  lastUpdatedAt?: number;
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  ttlMs?: number | null;
  pollIntervalMs?: number;
}

/** A scenario's error is strict (code, message, data): anything else a server attached stays in the recording. */
function rpcError(e: Record<string, unknown>): NonNullable<TaskSnapshotSeen['error']> {
  return {
    code: typeof e.code === 'number' ? e.code : -32603,
    message: typeof e.message === 'string' ? e.message : 'The task failed',
    ...(e.data !== undefined ? { data: e.data } : {}),
  };
}

function snapshotOf(t: Record<string, unknown> | undefined, at: number): TaskSnapshotSeen | undefined {
  if (!t || typeof t.status !== 'string') return undefined;
  const updated = typeof t.lastUpdatedAt === 'string' ? Date.parse(t.lastUpdatedAt) : NaN;
  const ttl = t.ttlMs ?? t.ttl;
  const poll = t.pollIntervalMs ?? t.pollInterval;
  return {
    at,
    status: t.status,
    ...(typeof t.statusMessage === 'string' ? { statusMessage: t.statusMessage } : {}),
    ...(!Number.isNaN(updated) ? { lastUpdatedAt: updated } : {}),
    ...(asRecord(t.inputRequests) ? { inputRequests: t.inputRequests as TaskSnapshotSeen['inputRequests'] } : {}),
    ...(asRecord(t.result) ? { result: t.result as Record<string, unknown> } : {}),
    ...(asRecord(t.error) ? { error: rpcError(asRecord(t.error)!) } : {}),
    ...(typeof ttl === 'number' || ttl === null ? { ttlMs: ttl as number | null } : {}),
    ...(typeof poll === 'number' ? { pollIntervalMs: poll } : {}),
  };
}

/** Every snapshot of `taskId` in the frames, in time order. */
function taskSnapshots(frames: readonly Frame[], taskId: string): TaskSnapshotSeen[] {
  const out: TaskSnapshotSeen[] = [];
  for (const f of frames) {
    if (f.direction !== 'in' || f.taskId !== taskId) continue;
    const body = asRecord(f.body);
    const result = asRecord(body?.result);
    const fromResult =
      result && f.method !== 'tasks/cancel' && f.method !== 'tasks/update'
        ? result.taskId === taskId
          ? result
          : asRecord(result.task)?.taskId === taskId
            ? asRecord(result.task)
            : undefined
        : undefined;
    const fromNote = body?.method === 'notifications/tasks' || body?.method === 'notifications/tasks/status' ? asRecord(body.params) : undefined;
    const s = snapshotOf(fromResult ?? fromNote, f.at);
    if (s) out.push(s);
  }
  return out.sort((a, b) => a.at - b.at);
}

const sameState = (a: TaskSnapshotSeen, b: TaskSnapshotSeen) =>
  a.status === b.status &&
  a.statusMessage === b.statusMessage &&
  JSON.stringify(Object.keys(a.inputRequests ?? {})) === JSON.stringify(Object.keys(b.inputRequests ?? {}));

/** The CallToolResult as a scenario writes it (the wire's `resultType` is the engine's to add). */
function resultSpec(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _t, ...rest } = result;
  return { content: [], ...rest };
}

/** Whether the client asked to cancel the task, and how many polls still saw it alive afterwards. */
function cancelPolicy(exchanges: RecordedExchange[], taskId: string, seen: TaskSnapshotSeen[]): Record<string, unknown> | undefined {
  const cancel = exchanges.find((x) => x.method === 'tasks/cancel' && x.params?.taskId === taskId);
  if (!cancel) return undefined;
  const after = seen.filter((s) => s.at > cancel.startAt);
  const final = after[after.length - 1]?.status;
  if (final === 'completed' || final === 'failed') return { policy: 'finish' };
  const alive = after.filter((s) => !isTerminalStatus(s.status)).length;
  return alive > 0 ? { policy: 'ignore', ignorePolls: alive } : { policy: 'honour' };
}

/** A task spec (scenario `task:`) inferred from the recorded lifecycle of `taskId`. */
export function inferTaskSpec(frames: readonly Frame[], taskId: string, mode: 'declared' | 'required'): Record<string, unknown> {
  const seen = taskSnapshots(frames, taskId);
  const exchanges = groupExchanges(frames);
  const cancel = cancelPolicy(exchanges, taskId, seen);
  const cancelAt = exchanges.find((x) => x.method === 'tasks/cancel' && x.params?.taskId === taskId)?.startAt;
  const groups: TaskSnapshotSeen[] = [];
  for (const s of seen) {
    const last = groups.at(-1);
    if (!last || !sameState(last, s)) groups.push(s);
  }
  const steps: Record<string, unknown>[] = [];
  for (const [i, g] of groups.entries()) {
    const next = groups[i + 1];
    if (isTerminalStatus(g.status)) {
      const msg = g.statusMessage !== undefined ? { statusMessage: g.statusMessage } : {};
      // A cancel the client asked for is the cancel policy's business, not the script's.
      if (g.status === 'cancelled' && cancelAt !== undefined && g.at >= cancelAt) break;
      if (g.status === 'completed') steps.push({ ...msg, result: resultSpec(g.result ?? {}) });
      else if (g.status === 'failed') steps.push({ ...msg, error: g.error ?? { code: -32603, message: g.statusMessage ?? 'The task failed' } });
      else steps.push({ ...msg, cancelled: true });
      break;
    }
    const step: Record<string, unknown> = { status: g.status === 'input_required' ? 'input_required' : 'working' };
    if (g.statusMessage !== undefined) step.statusMessage = g.statusMessage;
    if (g.status === 'input_required' && g.inputRequests) {
      step.inputRequests = Object.fromEntries(Object.entries(g.inputRequests).map(([k, r]) => [k, { method: r.method, params: r.params ?? {} }]));
    } else if (next) {
      const from = g.lastUpdatedAt ?? g.at;
      const to = next.lastUpdatedAt ?? next.at;
      step.delayMs = Math.max(0, Math.round(to - from));
    } else step.manual = true;
    steps.push(step);
  }
  const last = steps[steps.length - 1];
  if (!last || !('result' in last || 'error' in last || 'cancelled' in last)) {
    if (last && !last.manual && !last.inputRequests) last.manual = true;
    steps.push({
      statusMessage: 'The recording ended before this task did',
      result: { content: [{ type: 'text', text: 'The recording ended before this task finished.' }] },
    });
  }
  const created = seen[0];
  return {
    mode,
    ...(created?.ttlMs !== undefined ? { ttlMs: created.ttlMs } : {}),
    ...(created?.pollIntervalMs !== undefined ? { pollIntervalMs: created.pollIntervalMs } : {}),
    steps,
    ...(cancel ? { cancel } : {}),
  };
}
