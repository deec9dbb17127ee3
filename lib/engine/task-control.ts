import type { TaskSpec } from '../scenario/task-schema';
import type { TaskRecord } from '../store/types';
import { askFor, freshKey } from './task-input-keys';
import { forceOutcome, isTerminal, settle } from './task-script';

/**
 * What the control room (UI, control API, `mcp-loupe tasks`) can do to a running task: finish
 * the current step now, force a terminal outcome, or make it wait for operator input. Expiry
 * removes the record, so the task manager handles it before a record is loaded.
 */

/** An operator action on a task. */
export type ControlAction =
  | { kind: 'advance' }
  | { kind: 'complete'; result?: Record<string, unknown> }
  | { kind: 'fail'; error?: Record<string, unknown> }
  | { kind: 'cancel' }
  | { kind: 'expire' }
  | { kind: 'require-input'; inputRequests?: Record<string, unknown> };

/** The form shown when the operator asks for input without saying what (a fresh object per task). */
const operatorInput = (key: string) => ({
  [key]: {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: 'Input requested from the control room',
      requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
    },
  },
});

/** Apply an action (other than expire) to a task record at `now`; returns the mutated record. */
export function applyControl(r: TaskRecord, spec: TaskSpec, action: ControlAction, now: number, maxRunMs: number): TaskRecord {
  if (action.kind === 'advance') return settle(r, spec, now, maxRunMs, true);
  if (action.kind === 'complete') forceOutcome(r, 'complete', now, action.result);
  else if (action.kind === 'fail') forceOutcome(r, 'fail', now, action.error);
  else if (action.kind === 'cancel') forceOutcome(r, 'cancel', now);
  else if (action.kind === 'require-input' && !isTerminal(r)) {
    r.status = 'input_required';
    // A fresh key each time: the client answered (and will not answer again) any key sent before.
    askFor(r, action.inputRequests ?? operatorInput(freshKey(r, 'operator_input')));
    r.lastUpdatedAt = now;
  }
  return r;
}
