import {
  DetailedTaskSchema,
  LegacyTaskSchema,
  TaskSchema,
  normalizeLegacyTask,
  type InputRequests,
  type InputResponses,
  type JsonRpcErrorObject,
  type Task,
} from '../protocol';
import type { Connection, RequestOptions } from './connection-types';
import type { RequestOutcome } from './results';

/**
 * Task methods in both eras, with one normalised shape (the extension's field names):
 * 2026-07-28 `tasks/get|update|cancel` (the tasks extension is declared on each of them), and
 * 2025-11-25 `tasks/get|result|list|cancel`. A snapshot that breaks the per-status rules is
 * still returned (a follower must keep going) with the problems listed.
 */

/** A task as a client sees it: status fields plus whatever the status carries. */
export type ObservedTask = Task & { inputRequests?: InputRequests; result?: Record<string, unknown>; error?: JsonRpcErrorObject };

type TaskRead = { type: 'snapshot'; task: ObservedTask; form: 'extension' | 'legacy'; problems: string[] } | Exclude<RequestOutcome, { type: 'complete' }>;

/** The task operations of a session, in whichever era the connection speaks. */
export interface TaskApi {
  getTask(taskId: string, options?: RequestOptions): Promise<TaskRead>;
  /** 2026-07-28: answer input requests; the ack is empty and the change shows on the next read. */
  updateTask(taskId: string, inputResponses: InputResponses, options?: RequestOptions): Promise<RequestOutcome>;
  /** Request cancellation. 2026-07-28 answers an empty ack that is not final; 2025-11-25 the task. */
  cancelTask(taskId: string, options?: RequestOptions): Promise<RequestOutcome>;
  /** 2025-11-25: block until the task ends and return its result (or its error). */
  taskResult(taskId: string, options?: RequestOptions): Promise<RequestOutcome>;
  /** 2025-11-25: every task the server lists. */
  listTasks(options?: RequestOptions): Promise<{ type: 'tasks'; tasks: ObservedTask[] } | Exclude<RequestOutcome, { type: 'complete' }>>;
}

/** Validate a snapshot object (without its resultType) in either era. */
export function readSnapshot(raw: Record<string, unknown>, form: 'extension' | 'legacy'): { task: ObservedTask; problems: string[] } | { invalid: string } {
  if (form === 'legacy') {
    const l = LegacyTaskSchema.safeParse(raw);
    return l.success
      ? { task: normalizeLegacyTask(l.data) as ObservedTask, problems: [] }
      : { invalid: `not a 2025-11-25 task: ${l.error.issues[0]?.message}` };
  }
  const { resultType: _r, _meta: _m, ...snap } = raw;
  const strict = DetailedTaskSchema.safeParse(snap);
  if (strict.success) return { task: strict.data as ObservedTask, problems: [] };
  const loose = TaskSchema.safeParse(snap);
  if (!loose.success) return { invalid: `not a task snapshot: ${loose.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` };
  return { task: snap as ObservedTask, problems: strict.error.issues.map((i) => i.message) };
}

/** Create the task operations over a connection. */
export function createTaskApi(conn: Connection): TaskApi {
  const legacy = () => conn.era === 'legacy';
  // The era decides the method set, so it must be known before choosing.
  const ready = async (o?: RequestOptions) => {
    if (!conn.era) await conn.connect(o?.signal);
  };
  const opts = (o: RequestOptions = {}): RequestOptions => ({ ...o, declareTasks: true });
  const refuse = (method: string, era: string): RequestOutcome => ({ type: 'failure', reason: 'local', message: `${method} does not exist in ${era}` });

  async function getTask(taskId: string, o?: RequestOptions): Promise<TaskRead> {
    const out = await conn.request('tasks/get', { taskId }, opts(o));
    if (out.type !== 'complete') return out;
    const form = legacy() ? 'legacy' : 'extension';
    const read = readSnapshot(out.result, form);
    if ('invalid' in read) return { type: 'invalid', reason: read.invalid, result: out.result };
    if (read.problems.length) conn.warn(`tasks/get snapshot breaks the spec: ${read.problems.join('; ')}`);
    return { type: 'snapshot', task: read.task, form, problems: read.problems };
  }

  return {
    getTask,
    async updateTask(taskId, inputResponses, o) {
      await ready(o);
      if (legacy()) return refuse('tasks/update', '2025-11-25 (answer the server’s request while tasks/result is open)');
      return conn.request('tasks/update', { taskId, inputResponses }, opts({ retry: 'unsafe', ...o }));
    },
    cancelTask: (taskId, o) => conn.request('tasks/cancel', { taskId }, opts({ retry: 'safe', ...o })),
    async taskResult(taskId, o) {
      await ready(o);
      if (!legacy()) return refuse('tasks/result', '2026-07-28 (the result is inlined in tasks/get)');
      return conn.request('tasks/result', { taskId }, { timeoutMs: 0, ...o });
    },
    async listTasks(o) {
      await ready(o);
      if (!legacy()) return refuse('tasks/list', '2026-07-28') as Exclude<RequestOutcome, { type: 'complete' }>;
      const out = await conn.request('tasks/list', undefined, o);
      if (out.type !== 'complete') return out;
      const list = Array.isArray(out.result.tasks) ? out.result.tasks : [];
      const tasks = list.flatMap((t) => {
        const r = t && typeof t === 'object' ? readSnapshot(t as Record<string, unknown>, 'legacy') : { invalid: 'not an object' };
        return 'invalid' in r ? [] : [r.task];
      });
      return { type: 'tasks', tasks };
    },
  };
}
