import { HEADER, META, RESULT_TYPE } from '../constants';
import { ERROR } from '../errors';
import { show, type Report, type View } from './model';
import { asRecord } from '../../shared/records';

/**
 * The JSON-RPC envelope, `resultType`, removed methods, session and resumability headers,
 * HTTP status codes and the discover result.
 */

const KNOWN_RESULT_TYPES = new Set<string>(Object.values(RESULT_TYPE));
/** Removed from the core in 2026-07-28 (answered with -32601). */
const REMOVED = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/roots/list_changed',
  'tasks/status',
]);
const REMOVED_TASKS = new Set(['tasks/list', 'tasks/result']);

const isId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/** Shape of the request message. */
export function checkRequestEnvelope(v: View, report: Report): void {
  const req = v.req;
  if (!req) {
    const body = v.ex.request?.body;
    if (v.ex.request)
      report(
        'request-jsonrpc-invalid',
        typeof body === 'string' ? `The request is not JSON: ${show(body)}` : 'The request body is not a JSON object',
        'request.body',
      );
    return;
  }
  if (req.jsonrpc !== '2.0') report('request-jsonrpc-invalid', `jsonrpc must be "2.0", got ${show(req.jsonrpc)}`, 'request.body.jsonrpc');
  if (typeof req.method !== 'string' || !req.method) report('request-jsonrpc-invalid', 'method must be a non-empty string', 'request.body.method');
  if ('id' in req && !isId(req.id)) report('request-jsonrpc-invalid', `Request id must be a string or an integer, never ${show(req.id)}`, 'request.body.id');
  if ('params' in req && !asRecord(req.params)) report('request-jsonrpc-invalid', 'params must be an object', 'request.body.params');
}

/** Shape of the final response and its id. */
export function checkResponseEnvelope(v: View, report: Report): void {
  const body = v.ex.response?.body;
  if (body === undefined || body === null || body === '') return;
  const res = v.res;
  if (!res) {
    report('jsonrpc-invalid', 'The response body is not a JSON-RPC object', 'response.body');
    return;
  }
  if (res.jsonrpc !== '2.0') report('jsonrpc-invalid', `jsonrpc must be "2.0", got ${show(res.jsonrpc)}`, 'response.body.jsonrpc');
  const hasResult = 'result' in res;
  const hasError = 'error' in res;
  if (hasResult === hasError) report('jsonrpc-invalid', 'A response carries exactly one of result and error', 'response.body');
  if (hasResult && !v.result) report('jsonrpc-invalid', 'result must be an object', 'response.body.result');
  if (hasError) {
    const e = v.error;
    if (!e || typeof e.code !== 'number' || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      report('jsonrpc-invalid', 'error must be {code: integer, message: string, data?}', 'response.body.error');
    }
  }
  if (v.isRequest && isId(v.id) && res.id !== v.id)
    report('response-id-mismatch', `Response id ${show(res.id)} does not answer request id ${show(v.id)}`, 'response.body.id');
}

/** `resultType` on every 2026-07-28 result. */
export function checkResultType(v: View, report: Report): void {
  const result = v.result;
  if (!v.modern || !result) return;
  const path = 'response.body.result.resultType';
  if (!('resultType' in result)) {
    report('result-type-missing', `${v.method} result has no resultType; every 2026-07-28 result must carry one ("complete" here)`, path);
    return;
  }
  const t = result.resultType;
  if (typeof t !== 'string' || !KNOWN_RESULT_TYPES.has(t)) {
    report(
      'result-type-unknown',
      `resultType ${show(t)} is neither a core value (complete, input_required) nor one of an advertised extension (task); a client must treat the response as invalid`,
      path,
    );
    return;
  }
  // tasks/* answers are checked (more precisely) with the tasks extension rules.
  if (t === RESULT_TYPE.task && v.method !== 'tools/call' && !v.method.startsWith('tasks/'))
    report('result-type-task-method', `resultType "task" answers ${v.method}; only tools/call may create a task`, path);
}

/** Methods and notifications 2026-07-28 removed. */
export function checkRemovedMethods(v: View, report: Report): void {
  if (!v.modern) return;
  const m = v.method;
  if (REMOVED_TASKS.has(m))
    report(
      'tasks-removed-method',
      `${m} does not exist under 2026-07-28: poll tasks/get (the result is inlined when the task completes)`,
      'request.body.method',
    );
  else if (REMOVED.has(m))
    report('removed-method', `${m} was removed in 2026-07-28 (no handshake, no ping, log level per request, subscriptions/listen)`, 'request.body.method');
  else return;
  if (v.result)
    report(
      'removed-method-served',
      `The server answered the removed method ${m} with a result; it must answer -32601 Method not found`,
      'response.body.result',
    );
}

/** Sessions and resumability are gone from Streamable HTTP. */
export function checkTransportHeaders(v: View, report: Report): void {
  if (!v.modern || !v.http) return;
  if (v.resHeader(HEADER.sessionId) !== undefined)
    report(
      'session-id-minted',
      `The server sent ${HEADER.sessionId}; 2026-07-28 servers never mint or echo a session id`,
      `response.headers.${HEADER.sessionId}`,
    );
  if (v.reqHeader(HEADER.lastEventId) !== undefined) {
    const where =
      v.method === 'subscriptions/listen'
        ? 'a dropped listen stream is replaced by a new subscriptions/listen and a refetch'
        : 'a broken stream is re-issued with a new id';
    report('last-event-id-sent', `${HEADER.lastEventId} sent on ${v.method}; there is no resumability: ${where}`, `request.headers.${HEADER.lastEventId}`);
  }
  if (v.ex.request?.headers && Object.keys(v.ex.request.headers).length) {
    const accept = (v.reqHeader('accept') ?? '').toLowerCase();
    const missing = ['application/json', 'text/event-stream'].filter((t) => !accept.includes(t));
    if (missing.length)
      report(
        'accept-header-missing',
        `Accept must list both application/json and text/event-stream; missing ${missing.join(' and ')}`,
        'request.headers.Accept',
      );
  }
}

/** HTTP status per JSON-RPC answer (normative where the spec fixes it). */
export function checkHttpStatus(v: View, report: Report, metaMissing: boolean): void {
  const status = v.ex.response?.status;
  if (!v.modern || !v.http || status === undefined) return;
  const path = 'response.status';
  if (!v.isRequest) {
    if (typeof v.req?.method !== 'string') return;
    if (status >= 200 && status < 300 && status !== 202)
      report('http-status-mismatch', `An accepted notification answers 202 Accepted with no body, not ${status}`, path);
    return;
  }
  if (v.result && status !== 200) {
    report('http-status-mismatch', `A result travels with HTTP 200, not ${status}`, path);
    return;
  }
  const code = v.error?.code;
  if (typeof code !== 'number') return;
  let want: number | undefined;
  if (code === ERROR.headerMismatch || code === ERROR.missingRequiredClientCapability || code === ERROR.unsupportedProtocolVersion) want = 400;
  else if (code === ERROR.methodNotFound) want = 404;
  else if (code === ERROR.invalidParams && metaMissing) want = 400;
  if (want !== undefined && status !== want) report('http-status-mismatch', `Error ${code} travels with HTTP ${want}, not ${status}`, path);
}

/** `server/discover` result fields (cache hints are checked with the other cacheable results). */
export function checkDiscover(v: View, report: Report): void {
  const r = v.result;
  if (!v.modern || v.method !== 'server/discover' || !r) return;
  const base = 'response.body.result';
  const versions = r.supportedVersions;
  if (!Array.isArray(versions) || versions.length === 0 || versions.some((x) => typeof x !== 'string')) {
    report('discover-invalid', 'supportedVersions must be a non-empty array of version strings', `${base}.supportedVersions`);
  } else {
    const asked = v.meta?.[META.protocolVersion];
    if (typeof asked === 'string' && !versions.includes(asked)) {
      report(
        'discover-invalid',
        `supportedVersions ${show(versions)} does not include ${asked}, yet the server answered a ${asked} request`,
        `${base}.supportedVersions`,
      );
    }
  }
  const caps = asRecord(r.capabilities);
  if (!caps) report('discover-invalid', 'capabilities (ServerCapabilities) is required', `${base}.capabilities`);
  else if ('tasks' in caps)
    report(
      'discover-legacy-tasks-capability',
      'capabilities.tasks is the 2025-11-25 capability; advertise capabilities.extensions["io.modelcontextprotocol/tasks"] instead',
      `${base}.capabilities.tasks`,
    );
  const info = asRecord(asRecord(r._meta)?.[META.serverInfo]);
  if (!info) report('discover-server-info-missing', `_meta["${META.serverInfo}"] should name the server (serverInfo moved out of the body)`, `${base}._meta`);
}
