import { ERROR, type ClientCapabilities } from '../protocol';
import { isTerminalStatus } from '../shared/task-status';
import type { TaskSpec, TaskStep } from '../scenario/task-schema';
import type { TaskRecord } from '../store/types';
import { askable } from './mrtr';
import { askFor, freshKey, openKeys, wasAnswered } from './task-input-keys';
import { fillNumber, fillTemplate } from './template';

/**
 * Pure task-script evaluation: given a stored record, the script and the time, compute the
 * record's state. Every step's start time is the previous step's due time, so a new process
 * that loads a task mid-lifecycle reaches exactly the state the old one would have.
 */

/** Whether a task has ended (its status never changes again). */
export function isTerminal(rec: Pick<TaskRecord, 'status'>): boolean {
  return isTerminalStatus(rec.status);
}

function scopeOf(rec: TaskRecord): Record<string, unknown> {
  const mrtrInputs = (rec.data?.inputs as Record<string, unknown>) ?? {};
  return { args: rec.args, inputs: { ...mrtrInputs, ...rec.inputResponses }, taskId: rec.taskId };
}

/** A scripted status message with its `{{args.x}}` / `{{inputs.key...}}` placeholders filled. */
export function statusText(rec: TaskRecord, text: string): string {
  return fillTemplate(text, scopeOf(rec));
}

function isTerminalStep(step: TaskStep): boolean {
  return !!(step.result || step.toolError || step.error || step.cancelled);
}

/** Duration of a timed step in ms (Infinity for manual or input steps). */
export function stepDelay(rec: TaskRecord, step: TaskStep): number {
  if (step.manual || step.inputRequests) return Infinity;
  return fillNumber(step.delayMs, scopeOf(rec), 0);
}

function applyTerminal(rec: TaskRecord, step: TaskStep, now: number): void {
  const scope = scopeOf(rec);
  rec.inputRequests = undefined;
  delete rec.inputKeys;
  if (step.result || step.toolError) {
    const body = fillTemplate((step.result ?? step.toolError)!, scope);
    rec.status = 'completed';
    rec.result = step.toolError ? { ...body, isError: true } : body;
  } else if (step.error) {
    rec.status = 'failed';
    rec.error = fillTemplate(step.error, scope);
    rec.statusMessage = step.statusMessage !== undefined ? statusText(rec, step.statusMessage) : rec.error.message;
  } else {
    rec.status = 'cancelled';
  }
  // A terminal task shows its own message or none: the last working step's text would be stale.
  if (rec.status !== 'failed') {
    if (step.statusMessage) rec.statusMessage = statusText(rec, step.statusMessage);
    else delete rec.statusMessage;
  }
  rec.lastUpdatedAt = now;
}

function enterStep(rec: TaskRecord, spec: TaskSpec, index: number, at: number): void {
  rec.stepIndex = index;
  rec.stepStartedAt = at;
  const step = spec.steps[index];
  rec.status = 'working';
  rec.inputRequests = undefined;
  // A new step asks its questions afresh, even one an earlier step asked under the same name.
  delete rec.inputKeys;
  // A script whose last step is not terminal (validation forbids it) runs off the end here; settle() reports it.
  const message = step?.statusMessage ?? step?.progress?.[0];
  if (message !== undefined) rec.statusMessage = statusText(rec, message);
  rec.lastUpdatedAt = at;
}

/** Terminal outcome forced by the control API. */
export function forceOutcome(rec: TaskRecord, kind: 'complete' | 'fail' | 'cancel', now: number, body?: Record<string, unknown>): void {
  if (isTerminal(rec)) return;
  if (kind === 'complete')
    applyTerminal(rec, { result: (body as TaskStep['result']) ?? { content: [{ type: 'text', text: 'Completed from the control room.' }] } } as TaskStep, now);
  else if (kind === 'fail')
    applyTerminal(rec, { error: (body as TaskStep['error']) ?? { code: ERROR.internalError, message: 'Failed from the control room.' } } as TaskStep, now);
  else applyTerminal(rec, { cancelled: true } as TaskStep, now);
}

/** What a step of settling decided: nothing changes until time passes or someone acts, or look again. */
type Next = 'wait' | 'again';

/** End the task when it ran past its limit or a cancel it honours was requested; says whether it ended. */
function endIfStopped(rec: TaskRecord, spec: TaskSpec, now: number, maxRunMs: number): boolean {
  const limit = spec.maxRunMs ?? maxRunMs;
  if (now - rec.createdAt >= limit) {
    applyTerminal(
      rec,
      { error: { code: ERROR.internalError, message: `Task exceeded its maximum run time of ${limit} ms` } } as TaskStep,
      Math.min(now, rec.createdAt + limit),
    );
    return true;
  }
  const policy = spec.cancel.policy;
  if (rec.cancelRequestedAt !== undefined && policy !== 'finish' && (policy === 'honour' || rec.pollsSinceCancel > spec.cancel.ignorePolls)) {
    applyTerminal(rec, { cancelled: true, statusMessage: "Cancelled at the client's request" } as TaskStep, now);
    return true;
  }
  return false;
}

/** The terminal step a declined input request leads to under `onDecline`. */
function declineOutcome(step: TaskStep): TaskStep {
  const how = step.onDecline ?? 'complete';
  if (how === 'fail') return { error: { code: ERROR.invalidRequest, message: 'The user declined the request' } } as TaskStep;
  if (how === 'cancel') return { cancelled: true } as TaskStep;
  return { result: step.declineResult ?? { content: [{ type: 'text', text: 'The request was declined; nothing was done.' }] } } as TaskStep;
}

/** A step that asks for input: wait for the answers, then act on cancel/decline or move on. */
function settleInputStep(rec: TaskRecord, spec: TaskSpec, step: TaskStep, now: number): Next {
  const { out } = askable(step.inputRequests!, rec.clientCapabilities as ClientCapabilities, scopeOf(rec));
  const keys = Object.keys(out);
  if (keys.length === 0) {
    applyTerminal(
      rec,
      { error: { code: ERROR.missingRequiredClientCapability, message: 'The client that created this task cannot answer its input requests' } } as TaskStep,
      now,
    );
    return 'again';
  }
  // This step's questions go out under keys of their own (task-input-keys.ts); answered ones are done.
  const sent: Record<string, string> = { ...rec.inputKeys };
  const pending = keys.filter((k) => !(Object.hasOwn(sent, k) && wasAnswered(rec, sent[k]!)));
  if (pending.length) {
    for (const k of pending) if (!Object.hasOwn(sent, k)) sent[k] = freshKey(rec, k, new Set([...keys.filter((o) => o !== k), ...Object.values(sent)]));
    rec.inputKeys = sent;
    const waiting = Object.fromEntries(pending.map((k) => [sent[k], out[k]]));
    if (rec.status !== 'input_required' || JSON.stringify(rec.inputRequests) !== JSON.stringify(waiting)) {
      rec.status = 'input_required';
      askFor(rec, waiting);
      rec.lastUpdatedAt = now;
    }
    if (step.statusMessage) rec.statusMessage = statusText(rec, step.statusMessage);
    return 'wait';
  }
  const actionOf = (k: string) => (rec.inputResponses[k] as { action?: string } | undefined)?.action;
  const actions = keys.map(actionOf);
  if (actions.includes('cancel') && (step.onCancel ?? 'wait') === 'wait') {
    // Ask again, under a fresh key (its old one was answered): a cancelled answer counts as no answer.
    for (const k of keys)
      if (actionOf(k) === 'cancel') {
        delete rec.inputResponses[k];
        delete sent[k];
      }
    rec.inputKeys = sent;
  } else if (actions.includes('cancel') && step.onCancel === 'cancel') applyTerminal(rec, { cancelled: true } as TaskStep, now);
  else if (actions.includes('decline') && (step.onDecline ?? 'complete') !== 'continue') applyTerminal(rec, declineOutcome(step), now);
  else enterStep(rec, spec, rec.stepIndex + 1, now);
  return 'again';
}

/** Input the control room asked for on a step that does not ask by itself: wait until it is answered. */
function waitsForOperatorInput(rec: TaskRecord, now: number): boolean {
  if (rec.status !== 'input_required') return false;
  if (openKeys(rec).length) return true;
  rec.status = 'working';
  rec.inputRequests = undefined;
  rec.lastUpdatedAt = now;
  return false;
}

/** Before a timed step is due, its status message follows its progress messages. */
function showProgress(rec: TaskRecord, step: TaskStep, delay: number, now: number): void {
  if (!step.progress || step.progress.length < 2 || !Number.isFinite(delay) || delay <= 0) return;
  const i = Math.min(step.progress.length - 1, Math.floor(((now - rec.stepStartedAt) / delay) * step.progress.length));
  const progress = step.progress[i];
  if (progress === undefined) return;
  const message = statusText(rec, progress);
  if (rec.statusMessage !== message) {
    rec.statusMessage = message;
    rec.lastUpdatedAt = now;
  }
}

/** A timed (or manual) step: finish it when due, or when `forced`, into the next step or the end. */
function settleTimedStep(rec: TaskRecord, spec: TaskSpec, step: TaskStep, now: number, forced: boolean): Next {
  if (waitsForOperatorInput(rec, now)) return 'wait';
  const delay = stepDelay(rec, step);
  const due = rec.stepStartedAt + delay;
  if (!forced && now < due) {
    showProgress(rec, step, delay, now);
    return 'wait';
  }
  const at = forced ? now : due;
  if (isTerminalStep(step)) applyTerminal(rec, step, at);
  else enterStep(rec, spec, rec.stepIndex + 1, at);
  return 'again';
}

/**
 * Bring a task up to date at `now`. With `force`, the current timed or manual step finishes
 * immediately (what the control room's advance does). Returns the mutated record.
 */
export function settle(rec: TaskRecord, spec: TaskSpec, now: number, maxRunMs: number, force = false): TaskRecord {
  let forced = force;
  for (let guard = 0; guard < spec.steps.length * 4 + 8 && !isTerminal(rec); guard++) {
    if (endIfStopped(rec, spec, now, maxRunMs)) break;
    const step = spec.steps[rec.stepIndex];
    if (!step) {
      applyTerminal(rec, { error: { code: ERROR.internalError, message: 'Task script ended without a terminal step' } } as TaskStep, now);
      break;
    }
    if (step.inputRequests) {
      if (settleInputStep(rec, spec, step, now) === 'wait') return rec;
      continue;
    }
    if (settleTimedStep(rec, spec, step, now, forced) === 'wait') return rec;
    // Forcing finishes one step, not the whole script.
    forced = false;
  }
  return rec;
}

/** When the task next changes on its own (for timers), or undefined. */
export function nextDue(rec: TaskRecord, spec: TaskSpec, maxRunMs: number, now: number): number | undefined {
  if (isTerminal(rec)) return undefined;
  const step = spec.steps[rec.stepIndex];
  const limit = rec.createdAt + (spec.maxRunMs ?? maxRunMs);
  if (!step) return limit;
  const delay = stepDelay(rec, step);
  let due = Number.isFinite(delay) ? rec.stepStartedAt + delay : Infinity;
  if (step.progress && step.progress.length > 1 && Number.isFinite(delay) && delay > 0) {
    const slice = delay / step.progress.length;
    const n = Math.floor((now - rec.stepStartedAt) / slice) + 1;
    due = Math.min(due, rec.stepStartedAt + n * slice);
  }
  return Math.min(due, limit);
}
