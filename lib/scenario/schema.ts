import { z } from 'zod';
import { FaultSchema, SeedSchema } from './fault-schema';

/**
 * The scenario file format. A scenario is data: server identity, tools, resources, prompts,
 * and per tool a behaviour (direct result, MRTR rounds, task script or a built-in handler),
 * plus faults. Text fields of results may use `{{args.x}}` / `{{inputs.key.content.y}}`
 * placeholders, filled from the call's arguments and gathered input responses.
 */

const Json = z.record(z.string(), z.unknown());

/** A result a tool returns (CallToolResult body without resultType). */
export const ToolResultSpecSchema = z
  .looseObject({
    content: z.array(Json).default([]),
    structuredContent: Json.optional(),
    isError: z.boolean().optional(),
  })
  .describe('A CallToolResult. Text may use {{args.name}} and {{inputs.key.content.field}} placeholders.');
export type ToolResultSpec = z.infer<typeof ToolResultSpecSchema>;

/** A JSON-RPC error to answer with. */
export const RpcErrorSpecSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
export type RpcErrorSpec = z.infer<typeof RpcErrorSpecSchema>;

/** One input request inside an MRTR round or a task step. */
export const InputRequestSpecSchema = z.looseObject({
  method: z.enum(['elicitation/create', 'sampling/createMessage', 'roots/list']),
  params: Json.default({}),
});
export type InputRequestSpec = z.infer<typeof InputRequestSpecSchema>;

/** What an elicitation answer leads to in an MRTR round. */
export const OutcomeSpecSchema = z.union([
  z.object({ result: ToolResultSpecSchema }),
  z.object({ error: RpcErrorSpecSchema }),
  z.object({ continue: z.literal(true) }),
]);

export const MrtrRoundSchema = z.object({
  inputRequests: z.record(z.string(), InputRequestSpecSchema),
  /** What a decline or cancel of any elicitation in this round does; default: continue. */
  onDecline: OutcomeSpecSchema.optional(),
  onCancel: OutcomeSpecSchema.optional(),
  /** Validate accepted form content against requestedSchema; invalid → -32602. Default true. */
  validate: z.boolean().default(true),
});
export type MrtrRound = z.infer<typeof MrtrRoundSchema>;

export const ProgressSpecSchema = z.object({
  steps: z.array(z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() })),
  intervalMs: z.number().int().min(0).default(50),
});

export const LogSpecSchema = z.array(z.object({ level: z.string().default('info'), logger: z.string().optional(), data: z.unknown() }));

/** One step of a task script. The last step must be terminal (result, toolError, error or cancelled). */
export const TaskStepSchema = z
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

export const CancelPolicySchema = z.object({
  policy: z.enum(['honour', 'ignore', 'finish']).default('honour'),
  /** With `ignore`: polls seen after the cancel before it is honoured. */
  ignorePolls: z.number().int().min(0).default(0),
});
export type CancelPolicy = z.infer<typeof CancelPolicySchema>;

export const TaskSpecSchema = z.object({
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
export type ToolBehavior = z.infer<typeof ToolBehaviorSchema>;

export const ToolSpecSchema = z
  .looseObject({
    name: z.string().min(1).max(128),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: Json.default({ type: 'object' }),
    outputSchema: Json.optional(),
    annotations: Json.optional(),
    _meta: Json.optional(),
    /** MCP Apps binding: the ui:// resource rendered for this tool. */
    ui: z.object({ resourceUri: z.string().startsWith('ui://'), visibility: z.array(z.enum(['model', 'app'])).optional() }).optional(),
  })
  .extend(ToolBehaviorSchema.shape);
export type ToolSpec = z.infer<typeof ToolSpecSchema>;

/** MCP Apps metadata of a `ui://` resource, served as its `_meta.ui` (domain lists default to empty). */
export const ResourceUiSpecSchema = z
  .object({
    csp: z
      .object({
        connectDomains: z.array(z.string()).optional(),
        resourceDomains: z.array(z.string()).optional(),
        frameDomains: z.array(z.string()).optional(),
        baseUriDomains: z.array(z.string()).optional(),
      })
      .optional()
      .describe(
        'Origins the view may reach: connectDomains (fetch/WebSocket), resourceDomains (scripts, styles, images, fonts, media), frameDomains, baseUriDomains.',
      ),
    permissions: z
      .object({
        camera: z.object({}).optional(),
        microphone: z.object({}).optional(),
        geolocation: z.object({}).optional(),
        clipboardWrite: z.object({}).optional(),
      })
      .optional()
      .describe('Browser features the view asks for, e.g. { camera: {} }.'),
    domain: z.string().optional(),
    prefersBorder: z.boolean().optional(),
  })
  .describe('MCP Apps: CSP domains and permissions of this ui:// resource.');
export type ResourceUiSpec = z.infer<typeof ResourceUiSpecSchema>;

export const ResourceSpecSchema = z.looseObject({
  uri: z.string().min(1),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
  /** Load the text from a file next to the scenario (CLI and server only). */
  file: z.string().optional(),
  _meta: Json.optional(),
  /** MCP Apps: for a `ui://` resource, its CSP domains and permissions (`_meta.ui`). */
  ui: ResourceUiSpecSchema.optional(),
  mrtr: z.object({ rounds: z.array(MrtrRoundSchema).min(1) }).optional(),
});
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;

export const ResourceTemplateSpecSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  /** Text returned when a matching URI is read; `{{vars.x}}` fills template variables. */
  text: z.string().optional(),
});
export type ResourceTemplateSpec = z.infer<typeof ResourceTemplateSpecSchema>;

export const PromptSpecSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.looseObject({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })).optional(),
  messages: z.array(Json).min(1),
  mrtr: z.object({ rounds: z.array(MrtrRoundSchema).min(1) }).optional(),
});
export type PromptSpec = z.infer<typeof PromptSpecSchema>;

export const SettingsSchema = z.object({
  discoverTtlMs: z.number().int().min(0).default(300_000),
  discoverCacheScope: z.enum(['public', 'private']).default('public'),
  listTtlMs: z.number().int().min(0).default(60_000),
  listCacheScope: z.enum(['public', 'private']).default('public'),
  /** tools/list order: by name (deterministic, the default) or as declared in the file. */
  toolOrder: z.enum(['name', 'declared']).default('name'),
  readTtlMs: z.number().int().min(0).default(60_000),
  taskTtlMs: z.number().int().min(0).nullable().default(900_000),
  pollIntervalMs: z.number().int().min(0).default(1_000),
  requestStateTtlSeconds: z.number().int().min(1).default(300),
  replayStoreMaxEntries: z.number().int().min(1).default(1_000),
  keepAliveMs: z.number().int().min(10).default(15_000),
  maxBodyBytes: z
    .number()
    .int()
    .min(256)
    .default(4 * 1024 * 1024),
  /** Absolute ceiling for any task, in ms. */
  maxTaskRunMs: z.number().int().min(1).default(3_600_000),
  /** Serve `initialize` (2025-11-25) for old clients. */
  legacy: z.boolean().default(true),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const CompletionSpecSchema = z.object({
  ref: z.object({ type: z.enum(['ref/prompt', 'ref/resource']), name: z.string().optional(), uri: z.string().optional() }),
  argument: z.string(),
  values: z.array(z.string()),
});

export const ScenarioSchema = z.object({
  $schema: z.string().optional(),
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lowercase letters, digits and dashes')
    .describe('Scenario id, used in /mcp/<id>: lowercase letters, digits and dashes.'),
  name: z.string().optional(),
  description: z.string().optional(),
  server: z.object({ name: z.string(), version: z.string(), title: z.string().optional(), instructions: z.string().optional() }),
  supportedVersions: z.array(z.string()).min(1).default(['2026-07-28']),
  settings: SettingsSchema.default(SettingsSchema.parse({})),
  tools: z.array(ToolSpecSchema).default([]),
  resources: z.array(ResourceSpecSchema).default([]),
  resourceTemplates: z.array(ResourceTemplateSpecSchema).default([]),
  prompts: z.array(PromptSpecSchema).default([]),
  completions: z.array(CompletionSpecSchema).default([]),
  /** Initial per-scenario state for built-in handlers (e.g. notes, workspace files). */
  state: Json.default({}).describe('Initial per-scenario state for built-in handlers.'),
  /** Seed for fault probabilities, latency distributions and shuffles; default: derived from the id. */
  seed: SeedSchema.optional(),
  faults: z.array(FaultSchema).default([]).describe('Faults injected on matching requests (JSON-RPC errors, HTTP statuses, delays, stream faults).'),
});
/** A validated scenario with defaults applied. */
export type Scenario = z.infer<typeof ScenarioSchema>;
/** What an author writes (defaults optional). */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
