import type { InputRequests, InputResponses } from '../protocol';
import { sleep, type Clock } from '../shared/clock';
import { retryDelayMs } from './reconnect';
import type { RequestOutcome } from './results';
import type { CallToolOptions, ToolApi } from './tools';

/**
 * The MRTR loop (SEP-2322) for tools/call: while the server answers `input_required`, ask the
 * caller for the answers and retry. Each retry is a new request (new JSON-RPC id) with the
 * original arguments, the answers keyed as asked, and the `requestState` echoed exactly as
 * received (never parsed, never re-serialized, omitted when the server sent none). The
 * answers and state live in this call's closure only, so a parallel call never sees them.
 */

/** Answers the input requests of one round; `undefined` means "stop, do not retry". */
export type InputAnswerer = (inputRequests: InputRequests, round: { round: number; requestState?: string }) => Promise<InputResponses | undefined>;

/** Options of a tool call that answers input requests over several rounds. */
export interface CallWithInputOptions extends Omit<CallToolOptions, 'inputResponses' | 'requestState' | 'conversationId'> {
  /** Rounds allowed, first call included (default 8). */
  maxRounds?: number;
}

/** What the loop ended with: the last outcome plus the rounds it took. */
export type CallWithInputOutcome = (RequestOutcome | { type: 'abandoned'; inputRequests: InputRequests; requestState?: string }) & {
  rounds: number;
  conversationId: string;
};

let conversations = 0;

/** Call a tool and answer its input requests until it completes, fails or the rounds run out. */
export async function callWithInput(
  tools: ToolApi,
  clock: Clock,
  name: string,
  args: Record<string, unknown>,
  answer: InputAnswerer,
  options: CallWithInputOptions = {},
): Promise<CallWithInputOutcome> {
  const { maxRounds = 8, ...callOptions } = options;
  const conversationId = `mrtr-${++conversations}`;
  let inputResponses: InputResponses | undefined;
  let requestState: string | undefined;
  for (let round = 1; ; round++) {
    const out = await tools.callTool(name, args, {
      ...callOptions,
      conversationId,
      ...(inputResponses !== undefined ? { inputResponses } : {}),
      ...(requestState !== undefined ? { requestState } : {}),
    });
    if (out.type !== 'input_required') return { ...out, rounds: round, conversationId };
    if (round >= maxRounds)
      return { type: 'failure', reason: 'max-rounds', message: `still input_required after ${maxRounds} rounds`, rounds: round, conversationId };
    const asked = out.inputRequests;
    if (Object.keys(asked).length === 0) {
      // requestState alone means "retry later": back off instead of spinning.
      const wait = sleep(clock, retryDelayMs(round - 1), options.signal);
      if (!(await wait.done)) return { type: 'failure', reason: 'aborted', message: 'cancelled by the client', rounds: round, conversationId };
      inputResponses = undefined;
    } else {
      const answers = await answer(asked, { round, ...(out.requestState !== undefined ? { requestState: out.requestState } : {}) });
      if (answers === undefined)
        return {
          type: 'abandoned',
          inputRequests: asked,
          ...(out.requestState !== undefined ? { requestState: out.requestState } : {}),
          rounds: round,
          conversationId,
        };
      inputResponses = answers;
    }
    requestState = out.requestState;
  }
}
