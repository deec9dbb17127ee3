import type { RequestOutcome } from './results';

/**
 * What a view hears about its tool call, as ext-apps expects it: previews of the arguments
 * before the complete input, the CallToolResult, or the reason the call was cancelled; and the
 * JSON-RPC errors a refused bridge request is answered with.
 */

/** A rejected bridge request with a JSON-RPC code (AppBridge answers with `error.code`). */
export function bridgeError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });
}

/** A complete outcome as the CallToolResult a view expects; anything else is an error. */
export function toCallToolResult(outcome: RequestOutcome): Record<string, unknown> {
  if (outcome.type === 'complete') {
    const { resultType: _r, ...result } = outcome.result;
    return { content: [], ...result };
  }
  if (outcome.type === 'error') throw bridgeError(outcome.error.code, outcome.error.message, outcome.error.data);
  if (outcome.type === 'failure') throw bridgeError(-32603, `The call failed: ${outcome.message}`);
  if (outcome.type === 'invalid') throw bridgeError(-32603, `The server answered an invalid result: ${outcome.reason}`);
  throw bridgeError(-32603, `The server answered ${outcome.type}; calls from an app view need a complete result`);
}

/**
 * Previews of the arguments as a model would stream them, before the complete input: key by
 * key, a string value first cut in half. Each preview is closed, valid JSON.
 */
export function partialArguments(args: Record<string, unknown>): Record<string, unknown>[] {
  const keys = Object.keys(args);
  const out: Record<string, unknown>[] = [];
  for (const [i, key] of keys.entries()) {
    const before = Object.fromEntries(keys.slice(0, i).map((k) => [k, args[k]]));
    const value = args[key];
    if (typeof value === 'string' && value.length > 1) out.push({ ...before, [key]: value.slice(0, Math.ceil(value.length / 2)) });
    else if (i > 0) out.push(before);
  }
  return out;
}

/** Why a call that ended without a complete result was cancelled, as the view is told. */
export function cancelReason(outcome: Exclude<RequestOutcome, { type: 'complete' }> | { type: 'abandoned' }): string {
  if (outcome.type === 'error') return `${outcome.error.code} ${outcome.error.message}`;
  if (outcome.type === 'failure') return outcome.message;
  if (outcome.type === 'invalid') return outcome.reason;
  return outcome.type;
}
