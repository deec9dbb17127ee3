import { z } from 'zod';
import { isRecord } from '../shared/records';
import { InputResponsesSchema } from './mrtr';
import { SubscriptionFilterSchema } from './results';

/**
 * Params of the requests a server answers, as Loupe's mock reads them. Each check carries the
 * phrase a server answers a bad value with (-32602 `Invalid params: <phrase>`), and the keys
 * are in the order a server checks them: the first issue is the one to report. A field that
 * only names something (a prompt name, a list cursor) is not checked here: whatever it holds,
 * the answer is that no such thing exists, in the handler's own words.
 */

/**
 * Tool and prompt arguments: an object, or absent (null counts as absent). Checked, not copied:
 * handlers and task records get the object exactly as it was sent.
 */
const ArgumentsSchema = z.custom<Record<string, unknown>>(isRecord, { error: 'arguments must be an object' }).nullish();

/** `tools/call`. */
export const CallToolParamsSchema = z.looseObject({
  name: z.string({ error: 'tools/call needs a tool name' }),
  arguments: ArgumentsSchema,
});
export type CallToolParams = z.infer<typeof CallToolParamsSchema>;

/** `prompts/get`; `name` is read whatever it holds (one that matches no prompt is an unknown prompt). */
export const GetPromptParamsSchema = z.looseObject({ name: z.unknown(), arguments: ArgumentsSchema });
export type GetPromptParams = z.infer<typeof GetPromptParamsSchema>;

/** `resources/read`. */
export const ReadResourceParamsSchema = z.looseObject({ uri: z.string({ error: 'resources/read needs a uri' }) });
export type ReadResourceParams = z.infer<typeof ReadResourceParamsSchema>;

const COMPLETE = 'completion/complete needs ref and argument {name, value}';
/** `completion/complete`; `ref.name`/`ref.uri` and `argument.value` stay as sent: a reference that matches nothing completes to no values. */
export const CompleteParamsSchema = z.looseObject({
  ref: z.looseObject({ type: z.string({ error: COMPLETE }) }, { error: COMPLETE }),
  argument: z.looseObject({ name: z.string({ error: COMPLETE }) }, { error: COMPLETE }),
});
export type CompleteParams = z.infer<typeof CompleteParamsSchema>;

/** `subscriptions/listen`; no filter (absent or null) subscribes to nothing. */
export const ListenParamsSchema = z.looseObject({
  notifications: z.union([SubscriptionFilterSchema, z.null()], { error: 'notifications must be a subscription filter' }).optional(),
});
export type ListenParams = z.infer<typeof ListenParamsSchema>;

const TASK_ID = 'taskId must be a non-empty string';
const TaskIdSchema = z.string({ error: TASK_ID }).min(1, { error: TASK_ID });

/** `tasks/get`. */
export const GetTaskParamsSchema = z.looseObject({ taskId: TaskIdSchema });
export type GetTaskParams = z.infer<typeof GetTaskParamsSchema>;
/** `tasks/update`: answers keyed by the task's input requests. */
export const UpdateTaskParamsSchema = z.looseObject({ taskId: TaskIdSchema, inputResponses: InputResponsesSchema });
export type UpdateTaskParams = z.infer<typeof UpdateTaskParamsSchema>;
/** `tasks/cancel`. */
export const CancelTaskParamsSchema = z.looseObject({ taskId: TaskIdSchema });
export type CancelTaskParams = z.infer<typeof CancelTaskParamsSchema>;

/** 2025-11-25 `tasks/result` (the experimental tasks of that revision). */
export const LegacyTaskResultParamsSchema = z.looseObject({ taskId: z.string({ error: 'taskId is required' }) });
