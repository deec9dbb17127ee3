import { ERROR, META } from '../protocol';
import { asRecord } from '../shared/records';
import type { TaskRecord } from '../store/types';
import { fail, type Outcome, type RequestContext } from './context';
import { openKeys } from './task-input-keys';
import type { TaskManager } from './tasks';

/**
 * How a 2025-11-25 client answers the input the engine asks for. The engine asks the 2026-07-28
 * way (an `input_required` result, a task in `input_required`); a 2025-11-25 server asks with a
 * real request (`elicitation/create`, `sampling/createMessage`, `roots/list`) on the channel of
 * the request that needs it. These bridges turn one into the other.
 */

/** Rounds a call may take before the bridge gives up (a scenario that asks forever). */
const MAX_ROUNDS = 16;

type InputRequests = Record<string, { method?: unknown; params?: unknown }>;

/** Ask the client every request of a round, in order; the answers by key, or the first error. */
async function askAll(ctx: RequestContext, requests: InputRequests, meta?: Record<string, unknown>): Promise<Record<string, unknown> | Outcome> {
  const ask = ctx.ask;
  if (!ask) return fail(ERROR.internalError, 'This transport cannot carry a request to the client (open a session with initialize first)');
  const answers: Record<string, unknown> = {};
  for (const [key, r] of Object.entries(requests)) {
    const params = { ...(asRecord(r.params) ?? {}), ...(meta ? { _meta: meta } : {}) };
    const answer = await ask(String(r.method), params);
    if ('error' in answer) return { error: answer.error };
    answers[key] = answer.result;
  }
  return answers;
}

const isOutcome = (v: Record<string, unknown> | Outcome): v is Outcome => 'error' in v && typeof v.error === 'object' && v.error !== null;

/**
 * Run a request that may answer `input_required`: ask the client each round's input requests,
 * then run it again with the answers and the requestState, as a 2026-07-28 client would retry.
 */
export async function answerInputRounds(ctx: RequestContext, run: (params: Record<string, unknown>) => Promise<Outcome>): Promise<Outcome> {
  let params = ctx.params;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const o = await run(params);
    if (!('result' in o) || o.result.resultType !== 'input_required') return o;
    const answers = await askAll(ctx, (asRecord(o.result.inputRequests) ?? {}) as InputRequests);
    if (isOutcome(answers)) return answers;
    params = { ...ctx.params, inputResponses: answers, ...(o.result.requestState !== undefined ? { requestState: o.result.requestState } : {}) };
  }
  return fail(ERROR.internalError, `Gave up after ${MAX_ROUNDS} rounds of input requests`);
}

/**
 * While `tasks/result` waits on a task in `input_required`, send its open input requests to the
 * client (each with the related-task `_meta`) and hand the answers to the task, once per task
 * at a time. Returns an error outcome when the client could not be asked or answered with one.
 */
export function createTaskInputAsker(tasks: TaskManager): (ctx: RequestContext, rec: TaskRecord) => Promise<Outcome | undefined> {
  const asking = new Set<string>();
  return async (ctx, rec) => {
    if (asking.has(rec.taskId)) return undefined;
    asking.add(rec.taskId);
    try {
      const open = Object.fromEntries(openKeys(rec).map((k) => [k, (rec.inputRequests as InputRequests)[k]!]));
      const answers = await askAll(ctx, open, { [META.relatedTask]: { taskId: rec.taskId } });
      if (isOutcome(answers)) return answers;
      const updated = await tasks.update(ctx, { taskId: rec.taskId, inputResponses: answers });
      return 'error' in updated ? updated : undefined;
    } finally {
      asking.delete(rec.taskId);
    }
  };
}
