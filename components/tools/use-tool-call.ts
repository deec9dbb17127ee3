'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { InputRequests, InputResponses } from '@/lib/protocol';
import { fingerprint } from '@/lib/shared/fingerprint';
import type { InputAnswerer, CallWithInputOutcome } from '@/lib/client/mrtr';
import { useInspectorStore } from '@/components/inspector/use-inspector';
import { useTaskRunner } from '@/components/tasks/use-task-runner';

/**
 * One tool call with the MRTR loop answered by the user: each `input_required` round shows its
 * input requests until the user answers them all (then the call is retried with a new id, the
 * answers and the exact requestState, by lib/client), gives up (the call is abandoned) or the
 * bound on rounds is reached. A call made as a task hands the task to the task runner.
 */

/** The latest notifications/progress of the call (the call asks for progress: it sends a progressToken). */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Rounds allowed per call, first call included. */
export const MAX_ROUNDS = 8;

type ToolCallState =
  | { phase: 'idle' }
  | { phase: 'calling'; round: number; asTask: boolean; progress?: CallProgress }
  | { phase: 'input'; round: number; asTask: boolean; inputRequests: InputRequests }
  | { phase: 'done'; asTask: boolean; outcome: CallWithInputOutcome; taskFp?: string };

/** The call state of `toolName` and the actions on it: call, submit a round's answers, abandon, reset. */
export function useToolCall(toolName: string) {
  const store = useInspectorStore();
  const runner = useTaskRunner();
  const [state, setState] = useState<ToolCallState>({ phase: 'idle' });
  const pending = useRef<((r: InputResponses | undefined) => void) | undefined>(undefined);
  const abort = useRef<AbortController | undefined>(undefined);

  // Stable (it only touches refs), so the cleanup below always reaches the current round.
  const settle = useCallback((r: InputResponses | undefined) => {
    const resolve = pending.current;
    pending.current = undefined;
    resolve?.(r);
  }, []);

  // Leaving the panel (or picking another tool) abandons the conversation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: toolName is the trigger, not an input: picking another tool must run this cleanup
  useEffect(
    () => () => {
      settle(undefined);
      abort.current?.abort(new Error('the tool panel was closed'));
    },
    [toolName, settle],
  );

  async function call(args: Record<string, unknown>, asTask: boolean) {
    const session = store.getState().connection.session;
    if (!session)
      return setState({ phase: 'done', asTask, outcome: { type: 'failure', reason: 'local', message: 'Not connected', rounds: 0, conversationId: '' } });
    settle(undefined);
    abort.current?.abort();
    const ac = new AbortController();
    abort.current = ac;
    setState({ phase: 'calling', round: 1, asTask });
    const answer: InputAnswerer = (inputRequests, { round }) =>
      new Promise((resolve) => {
        pending.current = resolve;
        if (!ac.signal.aborted) setState({ phase: 'input', round, asTask, inputRequests });
      });
    // Progress shows while the server works on a round; an answer or the outcome replaces it.
    const onProgress = (progress: CallProgress) => {
      if (abort.current === ac) setState((s) => (s.phase === 'calling' ? { ...s, progress } : s));
    };
    const outcome = await session.callWithInput(toolName, args, answer, { task: asTask, maxRounds: MAX_ROUNDS, signal: ac.signal, onProgress });
    if (ac.signal.aborted && abort.current !== ac) return;
    let taskFp: string | undefined;
    if (outcome.type === 'task') {
      taskFp = fingerprint(outcome.task.taskId);
      runner.adopt(outcome.task, { form: outcome.form, toolName });
    }
    setState({ phase: 'done', asTask, outcome, ...(taskFp ? { taskFp } : {}) });
  }

  return {
    state,
    call,
    /** Answers of the current round: the retry goes out at once. */
    submit(responses: InputResponses) {
      setState((s) => (s.phase === 'input' ? { phase: 'calling', round: s.round + 1, asTask: s.asTask } : s));
      settle(responses);
    },
    /** Stop the conversation without retrying. */
    abandon: () => settle(undefined),
    /** Stop waiting for the server: the request is cancelled (notifications/cancelled) and the outcome says so. */
    cancel() {
      abort.current?.abort(new Error('cancelled by the user'));
    },
    reset() {
      settle(undefined);
      abort.current?.abort();
      setState({ phase: 'idle' });
    },
  };
}
