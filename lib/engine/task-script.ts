import { ERROR, type ClientCapabilities } from '../protocol';
import type { TaskSpec, TaskStep } from '../scenario/schema';
import type { TaskRecord } from '../store/types';
import { askable, checkResponse } from './mrtr';
import { fillNumber, fillTemplate } from './template';

/**
 * Pure task-script evaluation: given a stored record, the script and the time, compute the
 * record's state. Every step's start time is the previous step's due time, so a new process
 * that loads a task mid-lifecycle reaches exactly the state the old one would have.
 */

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function isTerminal(rec: Pick<TaskRecord, 'status'>): boolean {
  return TERMINAL.has(rec.status);
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
  if (step.statusMessage && rec.status !== 'failed') rec.statusMessage = statusText(rec, step.statusMessage);
  rec.lastUpdatedAt = now;
}

function enterStep(rec: TaskRecord, spec: TaskSpec, index: number, at: number): void {
  rec.stepIndex = index;
  rec.stepStartedAt = at;
  const step = spec.steps[index];
  rec.status = 'working';
  rec.inputRequests = undefined;
  const message = step.statusMessage ?? step.progress?.[0];
  if (message !== undefined) rec.statusMessage = statusText(rec, message);
  rec.lastUpdatedAt = at;
}

/** Terminal outcome forced by the control API. */
export function forceOutcome(rec: TaskRecord, kind: 'complete' | 'fail' | 'cancel', now: number, body?: Record<string, unknown>): void {
  if (isTerminal(rec)) return;
  if (kind === 'complete') applyTerminal(rec, { result: (body as TaskStep['result']) ?? { content: [{ type: 'text', text: 'Completed from the control room.' }] } } as TaskStep, now);
  else if (kind === 'fail') applyTerminal(rec, { error: (body as TaskStep['error']) ?? { code: ERROR.internalError, message: 'Failed from the control room.' } } as TaskStep, now);
  else applyTerminal(rec, { cancelled: true } as TaskStep, now);
}

/**
 * Bring a task up to date at `now`. With `force`, the current timed or manual step finishes
 * immediately (the seed's advance_worker). Returns the mutated record.
 */
export function settle(rec: TaskRecord, spec: TaskSpec, now: number, maxRunMs: number, force = false): TaskRecord {
  let forced = force;
  for (let guard = 0; guard < spec.steps.length * 4 + 8 && !isTerminal(rec); guard++) {
    const limit = spec.maxRunMs ?? maxRunMs;
    if (now - rec.createdAt >= limit) {
      applyTerminal(rec, { error: { code: ERROR.internalError, message: `Task exceeded its maximum run time of ${limit} ms` } } as TaskStep, Math.min(now, rec.createdAt + limit));
      break;
    }
    if (rec.cancelRequestedAt !== undefined && spec.cancel.policy !== 'finish') {
      if (spec.cancel.policy === 'honour' || rec.pollsSinceCancel > spec.cancel.ignorePolls) {
        applyTerminal(rec, { cancelled: true, statusMessage: 'Cancelled at the client\'s request' } as TaskStep, now);
        break;
      }
    }
    const step = spec.steps[rec.stepIndex];
    if (!step) {
      applyTerminal(rec, { error: { code: ERROR.internalError, message: 'Task script ended without a terminal step' } } as TaskStep, now);
      break;
    }
    if (step.inputRequests) {
      const { out } = askable(step.inputRequests, rec.clientCapabilities as ClientCapabilities, scopeOf(rec));
      const pending = Object.keys(out).filter((k) => rec.inputResponses[k] === undefined);
      if (Object.keys(out).length === 0) {
        applyTerminal(rec, { error: { code: ERROR.missingRequiredClientCapability, message: 'The client that created this task cannot answer its input requests' } } as TaskStep, now);
        break;
      }
      if (pending.length) {
        const waiting = Object.fromEntries(pending.map((k) => [k, out[k]]));
        if (rec.status !== 'input_required' || JSON.stringify(rec.inputRequests) !== JSON.stringify(waiting)) {
          rec.status = 'input_required';
          rec.inputRequests = waiting;
          rec.lastUpdatedAt = now;
        }
        if (step.statusMessage) rec.statusMessage = statusText(rec, step.statusMessage);
        return rec;
      }
      const actions = Object.keys(out).map((k) => (rec.inputResponses[k] as { action?: string } | undefined)?.action);
      if (actions.includes('cancel') && (step.onCancel ?? 'wait') === 'wait') {
        for (const k of Object.keys(out)) if ((rec.inputResponses[k] as { action?: string }).action === 'cancel') delete rec.inputResponses[k];
        continue;
      }
      if (actions.includes('cancel') && step.onCancel === 'cancel') {
        applyTerminal(rec, { cancelled: true } as TaskStep, now);
        break;
      }
      if (actions.includes('decline') && (step.onDecline ?? 'complete') !== 'continue') {
        const how = step.onDecline ?? 'complete';
        const outcome: TaskStep =
          how === 'fail'
            ? ({ error: { code: ERROR.invalidRequest, message: 'The user declined the request' } } as TaskStep)
            : how === 'cancel'
              ? ({ cancelled: true } as TaskStep)
              : ({ result: step.declineResult ?? { content: [{ type: 'text', text: 'The request was declined; nothing was done.' }] } } as TaskStep);
        applyTerminal(rec, outcome, now);
        break;
      }
      enterStep(rec, spec, rec.stepIndex + 1, now);
      continue;
    }
    if (rec.status === 'input_required') {
      // Input requested from the control room on a step that does not ask by itself.
      const open = Object.keys(rec.inputRequests ?? {}).filter((k) => rec.inputResponses[k] === undefined);
      if (open.length) return rec;
      rec.status = 'working';
      rec.inputRequests = undefined;
      rec.lastUpdatedAt = now;
    }
    const delay = stepDelay(rec, step);
    const due = rec.stepStartedAt + delay;
    if (!forced && now < due) {
      if (step.progress && step.progress.length > 1 && Number.isFinite(delay) && delay > 0) {
        const i = Math.min(step.progress.length - 1, Math.floor(((now - rec.stepStartedAt) / delay) * step.progress.length));
        const message = statusText(rec, step.progress[i]);
        if (rec.statusMessage !== message) {
          rec.statusMessage = message;
          rec.lastUpdatedAt = now;
        }
      }
      return rec;
    }
    const at = forced ? now : due;
    forced = false;
    if (isTerminalStep(step)) {
      applyTerminal(rec, step, at);
      break;
    }
    enterStep(rec, spec, rec.stepIndex + 1, at);
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

/** Validate task input responses against the outstanding requests; returns a problem or undefined. */
export function checkTaskResponses(rec: TaskRecord, responses: Record<string, unknown>): string | undefined {
  const pending = (rec.inputRequests ?? {}) as Record<string, { method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list'; params: Record<string, unknown> }>;
  for (const [key, value] of Object.entries(responses)) {
    const req = pending[key];
    if (!req) continue;
    const problem = checkResponse(key, req, value, true);
    if (problem) return problem;
  }
  return undefined;
}
