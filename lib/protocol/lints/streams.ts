import { META } from '../constants';
import { LoggingLevelSchema } from '../meta';
import { maskId, show, type Obj, type Report, type View } from './model';
import { checkSnapshot } from './tasks';
import { isStrayLine } from './stdio';
import { asRecord } from '../../shared/records';

/**
 * Frames before the final response: no server requests, request streams carry only progress
 * and logs the request asked for, listen streams start with the acknowledgement, tag every
 * message with the subscription id and deliver only what the filter agreed.
 */

const LEVELS = LoggingLevelSchema.options as readonly string[];
const LIST_CHANGED: Record<string, string> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
};
const REMOVED = new Set(['notifications/elicitation/complete', 'notifications/tasks/status', 'notifications/roots/list_changed', 'notifications/initialized']);
const ACK = 'notifications/subscriptions/acknowledged';

/** Whether every entry of `agreed` was asked for in `asked`. */
function notRequested(agreed: Obj, asked: Obj): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(agreed)) {
    if (Array.isArray(value)) {
      const want = Array.isArray(asked[key]) ? (asked[key] as unknown[]) : [];
      for (const item of value) if (!want.includes(item)) out.push(`${key}: ${show(item)}`);
    } else if (value === true && asked[key] !== true) out.push(key);
  }
  return out;
}

interface ListenState {
  ackSeen: boolean;
  ackReported: boolean;
  filter: Obj;
}

function listenFrame(v: View, s: ListenState, method: string, params: Obj, path: string, report: Report): void {
  const tag = asRecord(params._meta)?.[META.subscriptionId];
  // On stdio several subscriptions share the pipe: a frame tagged for another one is not ours.
  if (!v.http && tag !== undefined && tag !== v.id) return;
  // On stdio the server may end a listen with notifications/cancelled naming it by requestId.
  const teardown = method === 'notifications/cancelled' && params.requestId === v.id;
  if (tag !== v.id && !teardown)
    report(
      'listen-untagged',
      `${method} must carry _meta["${META.subscriptionId}"] = ${show(v.id)} (the listen request id), got ${show(tag)}`,
      `${path}.params._meta`,
    );
  if (method === ACK) {
    if (s.ackSeen) return;
    s.ackSeen = true;
    const agreed = asRecord(params.notifications) ?? {};
    const extra = notRequested(agreed, s.filter);
    if (extra.length)
      report('listen-unrequested-notification', `The acknowledgement agrees to what was not requested: ${extra.join(', ')}`, `${path}.params.notifications`);
    s.filter = agreed;
    return;
  }
  if (!s.ackSeen && !s.ackReported) {
    s.ackReported = true;
    report('listen-ack-not-first', `${method} arrived before ${ACK}; nothing may precede the acknowledgement`, path);
  }
  if (method === 'notifications/progress' || method === 'notifications/message') {
    report('listen-request-scoped-notification', `${method} is request-scoped and never goes on a listen stream (not supported for tasks either)`, path);
    return;
  }
  const f = s.filter;
  let unrequested: string | undefined;
  // The method comes from the server: `constructor` must not find Object's.
  const field = Object.hasOwn(LIST_CHANGED, method) ? LIST_CHANGED[method] : undefined;
  if (field) {
    if (f[field] !== true) unrequested = `${method} without ${field} in the filter`;
  } else if (method === 'notifications/resources/updated') {
    const uris = Array.isArray(f.resourceSubscriptions) ? f.resourceSubscriptions : [];
    if (!uris.includes(params.uri)) unrequested = `resources/updated for ${show(params.uri)}, which is not in resourceSubscriptions`;
  } else if (method === 'notifications/tasks') {
    const ids = Array.isArray(f.taskIds) ? f.taskIds : [];
    if (!ids.includes(params.taskId)) unrequested = `notifications/tasks for task ${maskId(params.taskId)}, which is not in taskIds`;
    const { _meta: _m, resultType: _r, ...snapshot } = params;
    checkSnapshot(snapshot, `${path}.params`, v, report);
  } else if (method !== 'notifications/cancelled') unrequested = `${method} is not a subscribable notification`;
  if (unrequested) report('listen-unrequested-notification', `The server sent ${unrequested}`, path);
}

interface RequestState {
  lastProgress?: number;
}

function requestFrame(v: View, s: RequestState, method: string, params: Obj, path: string, report: Report): void {
  if (method === 'notifications/message') {
    if (!v.modern) return;
    const level = v.meta?.[META.logLevel];
    if (typeof level !== 'string') {
      report('log-without-level', `notifications/message on a request without _meta["${META.logLevel}"]; the server must not log then`, path);
      return;
    }
    const at = LEVELS.indexOf(String(params.level));
    if (at >= 0 && at < LEVELS.indexOf(level))
      report('log-below-level', `Log level "${params.level}" is below the requested "${level}"`, `${path}.params.level`);
    return;
  }
  if (method === 'notifications/progress') {
    const token = v.meta?.progressToken;
    if (token === undefined) {
      report('progress-unrequested', 'notifications/progress on a request that sent no progressToken', path);
      return;
    }
    if (params.progressToken !== token) {
      report('progress-unrequested', `progressToken ${show(params.progressToken)} is not this request's (${show(token)})`, `${path}.params.progressToken`);
      return;
    }
    const p = params.progress;
    if (typeof p === 'number') {
      if (s.lastProgress !== undefined && !(p > s.lastProgress))
        report('progress-not-increasing', `progress went from ${s.lastProgress} to ${p}; it must increase`, `${path}.params.progress`);
      s.lastProgress = p;
    }
    return;
  }
  if (v.modern && method !== 'notifications/cancelled') {
    report(
      'stream-unrelated-notification',
      `${method} on the stream of ${v.method}; a request stream carries only its progress and log messages (changes go to subscriptions/listen)`,
      path,
    );
  }
}

/** All frame rules. */
export function checkFrames(v: View, report: Report): void {
  const listen = v.method === 'subscriptions/listen';
  const ls: ListenState = { ackSeen: false, ackReported: false, filter: asRecord(v.params.notifications) ?? {} };
  const rs: RequestState = {};
  for (const [i, frame] of v.frames.entries()) {
    // Over stdio the other lines are judged as lines (stdio.ts): a stdio pipe has no SSE frames.
    if (!v.http && isStrayLine(frame)) continue;
    const path = `frames[${i}]`;
    const m = asRecord(frame);
    if (m?.jsonrpc !== '2.0') {
      report('stream-frame-invalid', `Frame ${i} is not a JSON-RPC 2.0 message: ${show(frame)}`, path);
      continue;
    }
    if (typeof m.method === 'string' && 'id' in m) {
      if (v.modern)
        report('stream-request-frame', `The server sent a ${m.method} request on the stream; servers never send requests (use input_required)`, path);
      continue;
    }
    if (typeof m.method !== 'string') {
      report('stream-frame-invalid', `Frame ${i} is a response before the final response`, path);
      continue;
    }
    const params = asRecord(m.params) ?? {};
    if (v.modern && REMOVED.has(m.method)) report('removed-notification', `${m.method} was removed in 2026-07-28`, `${path}.method`);
    if (v.modern && m.method === 'notifications/cancelled' && v.http) {
      report(
        'cancelled-notification-misuse',
        'notifications/cancelled from the server only ends a listen on stdio; on HTTP the server sends the final result and closes',
        path,
      );
    }
    if (listen && v.modern) listenFrame(v, ls, m.method, params, path, report);
    else requestFrame(v, rs, m.method, params, path, report);
  }
  if (listen && v.modern && v.result) {
    const tag = asRecord(v.result._meta)?.[META.subscriptionId];
    if (tag !== v.id)
      report('listen-untagged', `The final listen result must carry _meta["${META.subscriptionId}"] = ${show(v.id)}`, 'response.body.result._meta');
  }
}
