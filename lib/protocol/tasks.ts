import { z } from 'zod';
import { TASK_STATUSES } from '../shared/task-status';
import { JsonRpcErrorObjectSchema } from './errors';
import { InputRequestsSchema } from './mrtr';

/** The tasks extension (io.modelcontextprotocol/tasks) of 2026-07-28, and the legacy 2025-11-25 shapes. */

/** A task's status. */
const TaskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** The fields every task snapshot carries. */
export const TaskSchema = z.looseObject({
  taskId: z.string().min(1),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.iso.datetime({ offset: true }),
  lastUpdatedAt: z.iso.datetime({ offset: true }),
  ttlMs: z.number().int().min(0).nullable(),
  pollIntervalMs: z.number().int().min(0).optional(),
});
export type Task = z.infer<typeof TaskSchema>;

/** A full task snapshot: `tasks/get` results and `notifications/tasks` params. */
export const DetailedTaskSchema = TaskSchema.extend({
  inputRequests: InputRequestsSchema.optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: JsonRpcErrorObjectSchema.optional(),
}).superRefine((t, ctx) => {
  const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
  if (t.status === 'input_required' && (!t.inputRequests || Object.keys(t.inputRequests).length === 0)) fail('input_required task must list inputRequests');
  if (t.status === 'completed' && !t.result) fail('completed task must carry result');
  if (t.status === 'failed' && !t.error) fail('failed task must carry error');
  if (t.status !== 'completed' && t.result !== undefined) fail(`${t.status} task must not carry result`);
  if (t.status !== 'failed' && t.error !== undefined) fail(`${t.status} task must not carry error`);
  if ('requestState' in t) fail('task snapshots never carry requestState');
  if ('ttl' in t || 'pollInterval' in t) fail('legacy field names ttl/pollInterval must not appear');
});

/** The answer to a tools/call that became a task (`resultType: "task"`). */
export const CreateTaskResultSchema = TaskSchema.extend({ resultType: z.literal('task') }).refine((r) => !('requestState' in r), {
  message: 'CreateTaskResult must not carry requestState',
});

/** Legacy 2025-11-25 experimental tasks. */
export const LegacyTaskSchema = z.looseObject({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.number().nullable(),
  pollInterval: z.number().optional(),
});
export type LegacyTask = z.infer<typeof LegacyTaskSchema>;
/** A 2025-11-25 tools/call answer that created a task. */
export const LegacyCreateTaskResultSchema = z.looseObject({ task: LegacyTaskSchema });
/** A 2025-11-25 tool's `execution` (whether it may run as a task). */
export const LegacyToolExecutionSchema = z.looseObject({ taskSupport: z.enum(['forbidden', 'optional', 'required']).optional() });

/** Map a legacy task to the extension's field names (for one normalised view in clients). */
export function normalizeLegacyTask(t: LegacyTask): Task {
  const { ttl, pollInterval, ...rest } = t;
  return { ...rest, ttlMs: ttl, ...(pollInterval !== undefined ? { pollIntervalMs: pollInterval } : {}) } as Task;
}
