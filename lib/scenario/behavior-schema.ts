import { z } from 'zod';

/**
 * What a tool (and, for MRTR, a prompt or resource) does when called: a direct result or
 * JSON-RPC error, rounds of input requests, a task script, or a built-in handler, plus progress,
 * log and list-changed side effects. Text fields of results may use `{{args.x}}` /
 * `{{inputs.key.content.y}}` placeholders, filled from the call's arguments and gathered input
 * responses. The rest of the file format is in schema.ts.
 */

const Json = z.record(z.string(), z.unknown());

/** A result a tool returns (CallToolResult body without resultType). */
const ToolResultSpecSchema = z
  .looseObject({
    content: z.array(Json).default([]),
    structuredContent: Json.optional(),
    isError: z.boolean().optional(),
  })
  .describe('A CallToolResult. Text may use {{args.name}} and {{inputs.key.content.field}} placeholders.');
export type ToolResultSpec = z.infer<typeof ToolResultSpecSchema>;

/** A JSON-RPC error to answer with. */
const RpcErrorSpecSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });

/** One input request inside an MRTR round or a task step. */
const InputRequestSpecSchema = z.looseObject({
  method: z.enum(['elicitation/create', 'sampling/createMessage', 'roots/list']),
  params: Json.default({}),
});
export type InputRequestSpec = z.infer<typeof InputRequestSpecSchema>;

/** What an elicitation answer leads to in an MRTR round. */
const OutcomeSpecSchema = z.union([
  z.object({ result: ToolResultSpecSchema }),
  z.object({ error: RpcErrorSpecSchema }),
  z.object({ continue: z.literal(true) }),
]);

/** One round of input requests before the result. */
export const MrtrRoundSchema = z.object({
  inputRequests: z.record(z.string(), InputRequestSpecSchema),
  /** What a decline or cancel of any elicitation in this round does; default: continue. */
  onDecline: OutcomeSpecSchema.optional(),
  onCancel: OutcomeSpecSchema.optional(),
  /** Validate accepted form content against requestedSchema; invalid → -32602. Default true. */
  validate: z.boolean().default(true),
});
export type MrtrRound = z.infer<typeof MrtrRoundSchema>;

const ProgressSpecSchema = z.object({
  steps: z.array(z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() })),
  intervalMs: z.number().int().min(0).default(50),
});

const LogSpecSchema = z.array(z.object({ level: z.string().default('info'), logger: z.string().optional(), data: z.unknown() }));

/** One step of a task script. The last step must be terminal (result, toolError, error or cancelled). */
const TaskStepSchema = z
  .object({
    status: z.enum(['working', 'input_required']).optional(),
    statusMessage: z.string().optional(),
    /** How long the step takes before moving on (ms, or a `{{args.x}}` expression); ignored when manual. */
    delayMs: z
      .union([z.number().int().min(0), z.string()])
      .optional()
      .describe('Step duration in ms, or a {{args.x}} expression; ignored when manual.'),
    /** Wait for an explicit advance (control API, CLI, UI). */
    manual: z.boolean().optional().describe('Wait for an explicit advance from the UI, control API or CLI.'),
    /** Ask the client; the task waits in input_required until every key is answered. */
    inputRequests: z
      .record(z.string(), InputRequestSpecSchema)
      .optional()
      .describe('Input requests by key; the task waits in input_required until each is answered.'),
    onDecline: z.enum(['continue', 'complete', 'fail', 'cancel']).optional(),
    declineResult: ToolResultSpecSchema.optional(),
    /** What an elicitation `cancel` does: wait (keep asking) or continue. */
    onCancel: z.enum(['wait', 'continue', 'cancel']).optional().describe('What an elicitation cancel does: wait (keep asking), continue, or cancel the task.'),
    /** Status messages shown one after another while the step runs. */
    progress: z.array(z.string()).optional(),
    result: ToolResultSpecSchema.optional(),
    toolError: ToolResultSpecSchema.optional(),
    error: RpcErrorSpecSchema.optional(),
    cancelled: z.literal(true).optional(),
  })
  .describe('A task step: a status with a delay or manual advance, input requests, progress messages, or a terminal outcome.');
export type TaskStep = z.infer<typeof TaskStepSchema>;

const CancelPolicySchema = z.object({
  policy: z.enum(['honour', 'ignore', 'finish']).default('honour'),
  /** With `ignore`: polls seen after the cancel before it is honoured. */
  ignorePolls: z.number().int().min(0).default(0),
});

/** How a tool runs as a task: when it becomes one, TTL and poll interval, the script, and the cancel policy. */
const TaskSpecSchema = z.object({
  /** declared: task when the client declares the extension, else run inline; required: -32021 without it. */
  mode: z
    .enum(['declared', 'required'])
    .default('declared')
    .describe('declared: a task when the client declares the tasks extension, else inline; required: -32021 without it.'),
  ttlMs: z.number().int().min(0).nullable().optional(),
  pollIntervalMs: z.number().int().min(0).optional(),
  statusMessage: z.string().optional(),
  steps: z.array(TaskStepSchema).min(1).describe('The task script; the last step must be terminal (result, toolError, error or cancelled).'),
  cancel: CancelPolicySchema.default({ policy: 'honour', ignorePolls: 0 }),
  /** Absolute maximum run time; the task fails when it is exceeded even if progress keeps arriving. */
  maxRunMs: z.number().int().min(1).optional(),
});
export type TaskSpec = z.infer<typeof TaskSpecSchema>;

/** How a tool behaves. Exactly one of result, error, mrtr+result, task, handler. */
export const ToolBehaviorSchema = z.object({
  result: ToolResultSpecSchema.optional(),
  error: RpcErrorSpecSchema.optional().describe('Answer every call with this JSON-RPC error.'),
  mrtr: z
    .object({ rounds: z.array(MrtrRoundSchema).min(1) })
    .optional()
    .describe('Rounds of input requests before the result (multi-round tool results).'),
  task: TaskSpecSchema.optional().describe('Run the call as a task following a scripted lifecycle.'),
  /** A built-in behaviour implemented by the engine (e.g. charge, delete_note, workspace_read). */
  handler: z.string().optional().describe('A built-in behaviour implemented by the engine (e.g. charge, delete_note, workspace_read).'),
  /** Handler settings. */
  options: Json.optional(),
  progress: ProgressSpecSchema.optional(),
  log: LogSpecSchema.optional(),
  /** List-changed notifications to broadcast to listen streams when the tool runs. */
  emit: z.array(z.enum(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'])).optional(),
  /** Capabilities the request must declare (else -32021). */
  requires: Json.optional(),
  /** Wait before answering (ms, or a `{{args.x}}` expression). */
  delayMs: z.union([z.number().int().min(0), z.string()]).optional(),
});
