import {
  CreateTaskResultSchema,
  InputRequiredResultSchema,
  LegacyCreateTaskResultSchema,
  MRTR_METHODS,
  normalizeLegacyTask,
  type InputRequests,
  type JsonRpcErrorObject,
  type Task,
} from '../protocol';

/**
 * The polymorphic result of 2026-07-28: `complete`, `input_required` (MRTR, only on the methods
 * that allow it) and, with the tasks extension, `task` (only on tools/call, only when this
 * request declared the extension). A missing `resultType` means complete (older servers); an
 * unknown one makes the response invalid.
 */

/** What a request ended with, as a value: wire errors and transport failures are not thrown. */
export type RequestOutcome =
  | { type: 'complete'; result: Record<string, unknown> }
  | { type: 'input_required'; inputRequests: InputRequests; requestState?: string; result: Record<string, unknown> }
  | { type: 'task'; task: Task; result: Record<string, unknown>; form: 'extension' | 'legacy' }
  | { type: 'error'; error: JsonRpcErrorObject; httpStatus?: number }
  | { type: 'invalid'; reason: string; result?: unknown; httpStatus?: number }
  | { type: 'failure'; reason: FailureReason; message: string };

/**
 * Why no response arrived: `timeout` (the request's deadline passed), `aborted` (the caller
 * cancelled), `network` (the server could not be reached or the stream failed), `dropped` (the
 * stream ended without a response), `proxy` (Loupe's proxy refused), `unsafe-not-retried`
 * (the connection dropped during a side-effecting request, which was not retried blindly),
 * `local` (the client refused before sending, e.g. a tool dropped for invalid headers), `busy`
 * (the server answered 429/503 until the retries that honoured its Retry-After ran out), `auth` (the server wants credentials:
 * HTTP 401 during the era probe or the handshake), `session-renewed` (2025-11-25: the server had forgotten the session, a new one was
 * started, and the request was not re-sent because it may have side effects), `session-lost` (the same, but the new initialize failed).
 */
type FailureReason =
  | 'timeout'
  | 'aborted'
  | 'network'
  | 'dropped'
  | 'proxy'
  | 'redirect'
  | 'unsafe-not-retried'
  | 'max-rounds'
  | 'local'
  | 'busy'
  | 'auth'
  | 'session-renewed'
  | 'session-lost';

interface ClassifyContext {
  method: string;
  /** Whether this request declared the tasks extension. */
  declaredTasks: boolean;
  era: 'modern' | 'legacy';
}

/** Turn a JSON-RPC `result` into a RequestOutcome. */
export function classifyResult(result: Record<string, unknown>, ctx: ClassifyContext): RequestOutcome {
  if (ctx.era === 'legacy') {
    if (ctx.method === 'tools/call' && result.task && typeof result.task === 'object') {
      const legacy = LegacyCreateTaskResultSchema.safeParse(result);
      if (!legacy.success) return { type: 'invalid', reason: `malformed 2025-11-25 CreateTaskResult: ${legacy.error.issues[0]?.message}`, result };
      return { type: 'task', task: normalizeLegacyTask(legacy.data.task), result, form: 'legacy' };
    }
    return { type: 'complete', result };
  }
  const rt = result.resultType;
  if (rt === undefined || rt === 'complete') return { type: 'complete', result };
  if (rt === 'input_required') {
    if (!(MRTR_METHODS as readonly string[]).includes(ctx.method)) return { type: 'invalid', reason: `input_required is not allowed on ${ctx.method}`, result };
    const parsed = InputRequiredResultSchema.safeParse(result);
    if (!parsed.success) return { type: 'invalid', reason: `malformed input_required result: ${parsed.error.issues.map((i) => i.message).join('; ')}`, result };
    return {
      type: 'input_required',
      inputRequests: parsed.data.inputRequests ?? {},
      ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
      result,
    };
  }
  if (rt === 'task') {
    if (ctx.method !== 'tools/call') return { type: 'invalid', reason: `a task was returned to ${ctx.method}; only tools/call may create tasks`, result };
    if (!ctx.declaredTasks) return { type: 'invalid', reason: 'a task was returned to a request that did not declare the tasks extension', result };
    const parsed = CreateTaskResultSchema.safeParse(result);
    if (!parsed.success)
      return {
        type: 'invalid',
        reason: `malformed CreateTaskResult: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
        result,
      };
    const { resultType: _rt, ...task } = parsed.data;
    return { type: 'task', task: task as Task, result, form: 'extension' };
  }
  return { type: 'invalid', reason: `unknown resultType "${String(rt)}"`, result };
}

/** Methods that only read: safe to re-send after a dropped connection. */
const SAFE_METHODS = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/get',
  'completion/complete',
  'tasks/get',
  'tasks/list',
  'initialize',
]);

/**
 * Whether re-sending a request after the connection dropped mid-flight is safe. A tool call
 * is safe only when the tool says it is read-only or idempotent, or the caller passes an
 * idempotency key; everything else may already have taken effect and is never retried blindly.
 */
export function classifyRetry(method: string, opts: { readOnly?: boolean; idempotent?: boolean; idempotencyKey?: string } = {}): 'safe' | 'unsafe' {
  if (SAFE_METHODS.has(method)) return 'safe';
  if (method === 'tools/call' && (opts.readOnly || opts.idempotent || !!opts.idempotencyKey)) return 'safe';
  return 'unsafe';
}

/** One line describing an outcome, for messages and logs. */
export function describeOutcome(o: RequestOutcome): string {
  switch (o.type) {
    case 'error':
      return `error ${o.error.code}: ${o.error.message}`;
    case 'invalid':
      return `invalid response: ${o.reason}`;
    case 'failure':
      return `${o.reason}: ${o.message}`;
    default:
      return o.type;
  }
}
