import { EXT, META, RESULT_TYPE } from '../constants';
import { declaresExtension } from '../meta';
import { TaskSchema } from '../tasks';
import { checkErrorCode } from './error-codes';
import { show, type Obj, type Report, type View } from './model';
import { checkInputRequests } from './mrtr';
import { asRecord } from '../../shared/records';

/** The tasks extension: gating, CreateTaskResult, snapshots (tasks/get and notifications/tasks), acks. */

const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Legacy names, wrapper and requestState (shared by creation results and snapshots). */
function checkTaskNames(t: Obj, path: string, report: Report): boolean {
  let legacy = false;
  if (asRecord(t.task)) {
    report(
      'task-legacy-fields',
      'The task is nested under "task" (2025-11-25); 2026-07-28 results are flat: {resultType: "task", taskId, status, ...}',
      `${path}.task`,
    );
    legacy = true;
  }
  for (const [old, now] of [
    ['ttl', 'ttlMs'],
    ['pollInterval', 'pollIntervalMs'],
  ] as const) {
    if (old in t) {
      report('task-legacy-fields', `"${old}" is the 2025-11-25 name; 2026-07-28 tasks carry "${now}"`, `${path}.${old}`);
      legacy = true;
    }
  }
  if ('requestState' in t)
    report(
      'task-request-state',
      'Tasks never carry requestState: the MRTR phase ends when the task is created, task input goes through tasks/update',
      `${path}.requestState`,
    );
  return legacy;
}

function checkTaskFields(t: Obj, path: string, report: Report): void {
  const parsed = TaskSchema.safeParse(t);
  if (parsed.success) return;
  for (const issue of parsed.error.issues.slice(0, 3)) {
    const field = issue.path.join('.');
    const why = field === 'ttlMs' && !('ttlMs' in t) ? 'is required (null means unlimited)' : issue.message;
    report('task-fields-invalid', `Task field ${field || '(root)'} ${why}`, field ? `${path}.${field}` : path);
  }
}

/** A full task snapshot: a tasks/get result or notifications/tasks params. */
export function checkSnapshot(t: Obj, path: string, v: View, report: Report): void {
  if (checkTaskNames(t, path, report)) return;
  checkTaskFields(t, path, report);
  const status = t.status;
  const bad = (message: string, field = '') => report('task-snapshot-inconsistent', message, field ? `${path}.${field}` : path);
  const requests = asRecord(t.inputRequests);
  if (status === 'input_required' && (!requests || Object.keys(requests).length === 0))
    bad('An input_required task must list every outstanding request in inputRequests', 'inputRequests');
  if (status !== 'input_required' && t.inputRequests !== undefined) bad(`A ${show(status)} task carries inputRequests`, 'inputRequests');
  if (status === 'completed' && t.result === undefined) bad('A completed task must inline the result of the original request', 'result');
  if (status === 'failed' && t.error === undefined) bad('A failed task must carry the JSON-RPC error', 'error');
  if (status !== 'completed' && t.result !== undefined) bad(`A ${show(status)} task carries a result`, 'result');
  if (status !== 'failed' && t.error !== undefined) bad(`A ${show(status)} task carries an error`, 'error');
  if (status === 'failed' && t.statusMessage === undefined)
    report('task-failed-no-status-message', 'A failed task should explain itself in statusMessage', `${path}.statusMessage`);
  const error = asRecord(t.error);
  if (error) checkErrorCode(error.code, `${path}.error.code`, v.modern, report);
  const inlined = asRecord(asRecord(t.result)?._meta);
  if (inlined && META.relatedTask in inlined) {
    report('task-related-task-meta', `The inlined result carries _meta["${META.relatedTask}"]; the taskId is already at the root`, `${path}.result._meta`);
  }
  if (requests && status === 'input_required') checkInputRequests(requests, `${path}.inputRequests`, v, report);
}

/** A `resultType: "task"` answer. */
function checkCreateTask(v: View, r: Obj, report: Report): void {
  const base = 'response.body.result';
  if (!v.tasksDeclared)
    report(
      'task-not-declared',
      `A task was returned to a request whose clientCapabilities lack extensions["${EXT.tasks}"]; the server must run it synchronously or answer -32021`,
      `${base}.resultType`,
    );
  const server = v.ctx.serverCapabilities;
  if (server && !declaresExtension({ extensions: server.extensions }, EXT.tasks))
    report(
      'task-extension-not-advertised',
      `The server returned a task but server/discover does not advertise extensions["${EXT.tasks}"]`,
      `${base}.resultType`,
    );
  if (checkTaskNames(r, base, report)) return;
  checkTaskFields(r, base, report);
  // Task ids act as bearer tokens; 16 characters is far below 128 random bits in any encoding.
  if (typeof r.taskId === 'string' && r.taskId.length < 16)
    report(
      'task-id-guessable',
      `taskId has only ${r.taskId.length} characters, too few to carry enough entropy; task ids act as bearer tokens`,
      `${base}.taskId`,
    );
}

/** Requests that need the extension declared, and the legacy `task` param. */
export function checkTaskRequest(v: View, report: Report): boolean {
  if (!v.modern || !v.isRequest) return false;
  if (v.method === 'tools/call' && v.params.task !== undefined)
    report(
      'task-legacy-param',
      'params.task is the 2025-11-25 opt-in; under 2026-07-28 it is ignored (declaring the extension is enough)',
      'request.body.params.task',
    );
  const wantsIds = v.method === 'subscriptions/listen' && asRecord(v.params.notifications)?.taskIds !== undefined;
  if ((TASK_METHODS.has(v.method) || wantsIds) && !v.tasksDeclared) {
    const what = wantsIds ? 'subscriptions/listen with taskIds' : v.method;
    report(
      'task-method-undeclared',
      `${what} without extensions["${EXT.tasks}"] in this request's clientCapabilities; the server must answer -32021`,
      `request.body.params._meta["${META.clientCapabilities}"]`,
    );
    return true;
  }
  return false;
}

/** Task-related results of the modern era. */
export function checkTaskResults(v: View, report: Report): void {
  const r = v.result;
  if (!r) return;
  if (!v.modern) {
    if (v.method === 'tasks/result' && !asRecord(asRecord(r._meta)?.[META.relatedTask])) {
      report(
        'legacy-related-task-missing',
        `A 2025-11-25 tasks/result result must carry _meta["${META.relatedTask}"] = {taskId}`,
        'response.body.result._meta',
      );
    }
    return;
  }
  if (r.resultType === RESULT_TYPE.task && v.method === 'tools/call') {
    checkCreateTask(v, r, report);
    return;
  }
  if (!TASK_METHODS.has(v.method)) return;
  if (r.resultType !== undefined && r.resultType !== RESULT_TYPE.complete) {
    report(
      'task-result-type',
      `${v.method} results carry resultType "complete" (the task status is a field), got ${show(r.resultType)}`,
      'response.body.result.resultType',
    );
  }
  if (v.method === 'tasks/get') {
    const { resultType: _t, _meta: _m, ...snapshot } = r;
    checkSnapshot(snapshot, 'response.body.result', v, report);
    return;
  }
  const extra = Object.keys(r).filter((k) => k !== 'resultType' && k !== '_meta');
  if (extra.length)
    report(
      'task-ack-not-empty',
      `${v.method} answers an empty ack {resultType: "complete"}; this one carries ${extra.join(', ')} (the ack is not the task's state)`,
      'response.body.result',
    );
}
