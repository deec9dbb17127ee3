import { ERROR } from '../protocol';
import type { TaskRecord } from '../store/types';

const iso = (ms: number) => new Date(ms).toISOString();

/** A task as the wire shows it (tasks/get, a creation result, a listen notification): no store fields. */
export function taskSnapshot(rec: TaskRecord): Record<string, unknown> {
  const s: Record<string, unknown> = {
    taskId: rec.taskId,
    status: rec.status,
    ...(rec.statusMessage !== undefined ? { statusMessage: rec.statusMessage } : {}),
    createdAt: iso(rec.createdAt),
    lastUpdatedAt: iso(rec.lastUpdatedAt),
    ttlMs: rec.ttlMs,
    ...(rec.pollIntervalMs !== undefined ? { pollIntervalMs: rec.pollIntervalMs } : {}),
  };
  if (rec.status === 'input_required') s.inputRequests = rec.inputRequests ?? {};
  // Inlined exactly as the call would have answered it, resultType included.
  if (rec.status === 'completed') s.result = { resultType: 'complete', ...(rec.result ?? { content: [] }) };
  if (rec.status === 'failed') s.error = rec.error ?? { code: ERROR.internalError, message: 'Task failed' };
  return s;
}
