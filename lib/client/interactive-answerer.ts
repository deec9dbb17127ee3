import { ERROR } from '../protocol';
import { asRecord } from '../shared/records';
import type { ListRootsAnswer } from './input-answers';
import { unanswered, type ServerRequestAnswer, type ServerRequestAnswerer } from './server-requests';

/**
 * The inspector's answers to a 2025-11-25 server's own requests. Elicitation and sampling need a
 * person: they are asked through `ask` (the UI shows the same prompts as MRTR input requests)
 * and the person's answer is the JSON-RPC result. roots/list needs nobody: the configured roots
 * (none, so far) are the answer. Anything else is not a client method: -32601.
 */

/** A server request that waits for the person, as the UI shows it. */
export interface AskedServerRequest {
  method: 'elicitation/create' | 'sampling/createMessage';
  params: Record<string, unknown>;
}

/** 2025-11-25 sampling.mdx § Error Handling: the code a client answers when the user rejects a sampling request. */
const USER_REJECTED = -1;

/**
 * The answer when the person gives up (or the session ends) without answering: an elicitation is
 * cancelled (its result says so, spec elicitation.mdx § Response Actions); a sampling request has
 * no "no" result, so it is refused with the error the spec names.
 */
export function refusal(method: AskedServerRequest['method']): ServerRequestAnswer {
  if (method === 'elicitation/create') return { result: { action: 'cancel' } };
  return { error: { code: USER_REJECTED, message: 'User rejected sampling request' } };
}

/** The person's answer (an ElicitResult or CreateMessageResult from the prompts) as the JSON-RPC result. */
export function answerOf(value: unknown): ServerRequestAnswer {
  const result = asRecord(value);
  return result ? { result } : { error: { code: ERROR.internalError, message: 'the prompt produced no answer' } };
}

/**
 * An answerer that asks `ask` for elicitation and sampling; the ask is refused when `signal` aborts
 * (Disconnect), so the server's pending call ends instead of waiting for its own timeout.
 */
export function createInteractiveAnswerer(
  ask: (request: AskedServerRequest, signal: AbortSignal) => Promise<ServerRequestAnswer>,
  signal: AbortSignal,
  roots: () => ListRootsAnswer['roots'] = () => [],
): ServerRequestAnswerer {
  return async (method, params) => {
    if (method === 'roots/list') return { result: { roots: roots() } };
    if (method !== 'elicitation/create' && method !== 'sampling/createMessage') return unanswered(method);
    const request: AskedServerRequest = { method, params: params ?? {} };
    if (signal.aborted) return refusal(method);
    return ask(request, signal);
  };
}
