import { z } from 'zod';
import { DelaySchema, InputRequestSpecSchema, RpcErrorSpecSchema } from './behavior-schema';
import { ToolResultSpecSchema } from './content-schema';

/**
 * Task scripts: how a tool runs as a task. A script is a list of steps, each taking a while
 * (delayMs), waiting for the control room (manual) or for answers (inputRequests), the last one
 * ending the task. Strict objects, so a misspelled step key is an error rather than a no-op.
 */

const outcomes = ['result', 'toolError', 'error', 'cancelled'].join(', ');

/** One step of a task script. The last step must be terminal (result, toolError, error or cancelled). */
const TaskStepSchema = z
  .strictObject({
    status: z
      .enum(['working', 'input_required'])
      .optional()
      .describe('The status this step shows, for the reader: the engine derives it (input_required while inputRequests wait for answers, else working).'),
    statusMessage: z
      .string()
      .optional()
      .describe('Status message of the task while this step runs (or its final message, on a terminal step); may use {{args.x}} placeholders.'),
    delayMs: DelaySchema.optional().describe(
      'How long the step takes, in ms, or a "{{args.x}}" expression; default: 0. Ignored when manual or when the step asks for input.',
    ),
    manual: z.boolean().optional().describe('Wait for an explicit advance from the control room, the control API or `mcp-loupe tasks advance`.'),
    inputRequests: z
      .record(z.string(), InputRequestSpecSchema)
      .optional()
      .describe(
        'Input requests by key; the task waits in input_required until each is answered with tasks/update. A key the task already sent (asked again after a cancel, or by an earlier step) goes out as key_2, key_3, …; {{inputs.key…}} reaches the latest answer.',
      ),
    onDecline: z
      .enum(['continue', 'complete', 'fail', 'cancel'])
      .optional()
      .describe('What a declined elicitation does: continue to the next step, complete (with declineResult), fail, or cancel the task; default: complete.'),
    declineResult: ToolResultSpecSchema.optional().describe('The result the task completes with when onDecline is complete; default: a short text result.'),
    onCancel: z
      .enum(['wait', 'continue', 'cancel'])
      .optional()
      .describe('What an elicitation answered with cancel does: wait (ask again, under a fresh key), continue, or cancel the task; default: wait.'),
    progress: z
      .array(z.string())
      .optional()
      .describe('Status messages shown one after another, spread evenly over the step delay, in place of statusMessage; may use placeholders.'),
    result: ToolResultSpecSchema.optional().describe('Terminal: the task completes with this result.'),
    toolError: ToolResultSpecSchema.optional().describe('Terminal: the task completes with this result marked isError: true.'),
    error: RpcErrorSpecSchema.optional().describe('Terminal: the task fails with this JSON-RPC error.'),
    cancelled: z.literal(true).optional().describe('Terminal: the task ends cancelled.'),
  })
  .describe(`A task step: a status with a delay or manual advance, input requests, progress messages, or a terminal outcome (${outcomes}).`);
export type TaskStep = z.infer<typeof TaskStepSchema>;

const CancelPolicySchema = z
  .strictObject({
    policy: z
      .enum(['honour', 'ignore', 'finish'])
      .default('honour')
      .describe(
        'honour: cancelled at once; ignore: keep working for ignorePolls polls, then cancelled; finish: acknowledge but run to the end. Default: honour.',
      ),
    ignorePolls: z.number().int().min(0).default(0).describe('With ignore: how many tasks/get polls after the cancel still see the task alive; default: 0.'),
  })
  .describe('What tasks/cancel does to this task. The cancel is always acknowledged; the policy decides what the task does next.');

/** How a tool runs as a task: when it becomes one, TTL and poll interval, the script, and the cancel policy. */
export const TaskSpecSchema = z
  .strictObject({
    mode: z
      .enum(['declared', 'required'])
      .default('declared')
      .describe('declared: a task when the client declares the tasks extension, else run inline; required: -32021 without it. Default: declared.'),
    ttlMs: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe('How long the task is kept after it is created, in ms; null keeps it forever; default: settings.taskTtlMs.'),
    pollIntervalMs: z.number().int().min(0).optional().describe('Poll interval suggested to the client, in ms; default: settings.pollIntervalMs.'),
    statusMessage: z.string().optional().describe('Status message when the task is created; default: the first step statusMessage.'),
    steps: z.array(TaskStepSchema).min(1).describe(`The task script, in order; the last step must be terminal (${outcomes}).`),
    cancel: CancelPolicySchema.default({ policy: 'honour', ignorePolls: 0 }),
    maxRunMs: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Absolute maximum run time, in ms: the task fails when it is exceeded even if it keeps working; default: settings.maxTaskRunMs.'),
  })
  .describe('Run the call as a task following a scripted lifecycle.');
export type TaskSpec = z.infer<typeof TaskSpecSchema>;
