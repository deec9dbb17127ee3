import { z } from 'zod';
import type { ControlAction } from '../engine';
import { reusedKeys } from '../engine/task-input-keys';
import type { TaskAction, TaskControlBody } from '../protocol/loupe-api';
import { InputRequestSpecSchema, RpcErrorSpecSchema } from '../scenario/behavior-schema';
import { ToolResultSpecSchema } from '../scenario/content-schema';
import type { TaskRecord } from '../store/types';

/**
 * The body of `POST /api/scenarios/<id>/tasks/<taskId>/<action>` (the control room, the control
 * API and `mcp-loupe tasks complete|fail|require-input --json BODY`), checked with the same
 * schemas as a scenario's task steps. Unchecked, `{"result": 5}` completed a task whose
 * `tasks/get` then carried a result with no content, which clients were right to refuse.
 */

const FIELDS = {
  result: { schema: ToolResultSpecSchema, shape: 'a tool result, e.g. {"content":[{"type":"text","text":"done"}]}' },
  error: { schema: RpcErrorSpecSchema, shape: 'a JSON-RPC error, e.g. {"code":-32603,"message":"failed"}' },
  inputRequests: {
    schema: z.record(z.string(), InputRequestSpecSchema),
    shape: 'input requests by key, e.g. {"approve":{"method":"elicitation/create","params":{...}}}',
  },
} as const;

/** Which body member each action reads; any other member is refused rather than ignored. */
const READS: Partial<Record<TaskAction, keyof typeof FIELDS>> = { complete: 'result', fail: 'error', 'require-input': 'inputRequests' };

/** The operator action for `action` with `body`, or why the body cannot be used. */
export function controlActionOf(action: TaskAction, body: TaskControlBody): { ok: true; act: ControlAction } | { ok: false; error: string } {
  const reads = READS[action];
  for (const key of Object.keys(FIELDS) as (keyof typeof FIELDS)[]) {
    const value = body[key];
    if (value === undefined) continue;
    if (key !== reads) return { ok: false, error: `"${key}" does not apply to ${action}${reads ? `: ${action} reads "${reads}"` : ''}` };
    const parsed = FIELDS[key].schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = [key, ...(issue?.path ?? [])].join('.');
      return { ok: false, error: `${where}: ${issue?.message ?? 'invalid'} ("${key}" must be ${FIELDS[key].shape})` };
    }
    return { ok: true, act: { kind: action, [key]: parsed.data } as ControlAction };
  }
  return { ok: true, act: { kind: action } as ControlAction };
}

/**
 * Why `act` cannot be applied to the task as it is now, or undefined. An operator's question
 * under a key the task already sent would not be answered: a client never answers a key twice,
 * and tasks.md forbids a server to send one again.
 */
export function controlConflict(task: TaskRecord, act: ControlAction): string | undefined {
  if (act.kind !== 'require-input' || !act.inputRequests) return undefined;
  const reused = reusedKeys(task, act.inputRequests);
  if (!reused.length) return undefined;
  const names = reused.map((k) => `"${k}"`).join(', ');
  return `inputRequests key ${names} was already used by this task; input request keys must be unique over a task's lifetime (a client never answers a key twice): choose another key`;
}
