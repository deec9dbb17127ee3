import { z } from 'zod';
import { DelaySchema, JsonObjectSchema, LogSpecSchema, MrtrSpecSchema, ProgressSpecSchema, RpcErrorSpecSchema } from './behavior-schema';
import { ToolResultSpecSchema } from './content-schema';
import { AuthSchema } from './auth-schema';
import { CatalogShape } from './catalog-schema';
import { FaultSchema, SeedSchema } from './fault-schema';
import { TaskSpecSchema } from './task-schema';

/**
 * The scenario file format. A scenario is data: server identity, tools, resources, prompts,
 * and per tool a behaviour (direct result, MRTR rounds, task script or a built-in handler;
 * behavior-schema.ts, task-schema.ts), the catalogue (catalog-schema.ts), plus faults
 * (fault-schema.ts). Every object is strict, so a misspelled key is an error with its line,
 * except the parts whose format is open on purpose (JSON Schema bodies, `_meta`, result
 * payloads, request params), each marked where it is declared.
 */

const Json = JsonObjectSchema;

/**
 * A tool's JSON Schema: open on purpose (JSON Schema keywords, not this format), except that its
 * root must be `type: object`. The 2026-07-28 schema requires that of inputSchema, 2025-11-25 of
 * both, and the SDK clients of either era reject the whole tools/list when one tool breaks it.
 */
const objectSchema = (field: string, why: string) =>
  z.looseObject({
    type: z
      .literal('object', {
        error: (issue) =>
          `A tool's ${field} must have type: object at its root (${why}); got ${issue.input === undefined ? 'no type' : `type: ${JSON.stringify(issue.input)}`}`,
      })
      .describe('Always object: the root of the schema is an object.'),
  });

/** How a tool behaves. Exactly one of result, error, mrtr+result, task, handler (rules.ts checks it). */
const ToolBehaviorShape = {
  result: ToolResultSpecSchema.optional().describe('Answer every call with this result (after the mrtr rounds, if any).'),
  error: RpcErrorSpecSchema.optional().describe('Answer every call with this JSON-RPC error.'),
  mrtr: MrtrSpecSchema.optional().describe('Rounds of input requests before the answer (multi round-trip requests); give the final answer in result.'),
  task: TaskSpecSchema.optional(),
  handler: z.string().optional().describe('A built-in behaviour implemented by the engine (e.g. charge, delete_note, workspace_read).'),
  // Open on purpose: each built-in handler reads its own settings.
  options: Json.optional().describe('Settings of the built-in handler; their keys depend on the handler.'),
  progress: ProgressSpecSchema.optional(),
  log: LogSpecSchema.optional(),
  emit: z
    .array(z.enum(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']))
    .optional()
    .describe('List-changed notifications broadcast to open subscriptions/listen streams each time the tool runs.'),
  // Open on purpose: a ClientCapabilities object.
  requires: Json.optional().describe(
    'Client capabilities the call must declare, e.g. { sampling: {} } or { extensions: { <id>: {} } }; without them the call is answered -32021.',
  ),
  delayMs: DelaySchema.optional().describe(
    'Wait before answering, in ms, or a "{{args.x}}" expression (one multiplication allowed: "{{args.seconds}} * 1000"); default: 0.',
  ),
};

/** A tool as the scenario declares it: what tools/list shows, plus its behaviour. */
const ToolSpecSchema = z.strictObject({
  name: z.string().min(1).max(128).describe('Tool name, unique in the scenario; clients call it with tools/call.'),
  title: z.string().optional().describe('Human-readable title.'),
  description: z.string().optional().describe('What the tool does, for the model.'),
  inputSchema: objectSchema('inputSchema', 'tool arguments are always an object, and clients refuse the whole tools/list over one tool without it')
    .default({ type: 'object' })
    .describe(
      'JSON Schema of the arguments, type: object at its root; the engine checks required keys and top-level types (else -32602). Default: { type: object }.',
    ),
  outputSchema: objectSchema('outputSchema', 'structuredContent is an object, and 2025-11-25 clients refuse the whole tools/list over one tool without it')
    .optional()
    .describe('JSON Schema of structuredContent, type: object at its root, listed for clients.'),
  // Open on purpose: tool annotations (readOnlyHint, destructiveHint, ...) are sent as written.
  annotations: Json.optional().describe('Hints for clients (title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint), sent as written.'),
  // Open on purpose: icon objects are the protocol's.
  icons: z.array(Json).optional().describe('Icons shown by clients: { src, mimeType?, sizes?, theme? } objects, sent as written.'),
  _meta: Json.optional().describe('_meta listed with the tool, as written (use ui for the MCP Apps binding).'),
  ui: z
    .strictObject({
      resourceUri: z.string().startsWith('ui://').describe('The ui:// resource rendered for this tool; declare it in resources.'),
      visibility: z
        .array(z.enum(['model', 'app']))
        .optional()
        .describe('Who may call the tool: model, app, or both; [app] hides it from the model and from clients without the ui extension. Default: both.'),
    })
    .optional()
    .describe('MCP Apps: the view rendered for this tool, listed as _meta.ui to clients that declare the ui extension.'),
  ...ToolBehaviorShape,
});
export type ToolSpec = z.infer<typeof ToolSpecSchema>;
/** Every key a tool may have. */
export const TOOL_KEYS: readonly string[] = Object.keys(ToolSpecSchema.shape);

const ttl = (what: string, ms: number) => z.number().int().min(0).default(ms).describe(`How long clients may cache ${what}, in ms; default: ${ms}.`);
const scope = (what: string) =>
  z.enum(['public', 'private']).default('public').describe(`Cache scope of ${what}: public (shared caches may keep it) or private; default: public.`);

const SettingsSchema = z
  .strictObject({
    discoverTtlMs: ttl('server/discover', 300_000),
    discoverCacheScope: scope('server/discover'),
    listTtlMs: ttl('tools/list, resources/list, resources/templates/list and prompts/list', 60_000),
    listCacheScope: scope('the lists and of resources/read'),
    toolOrder: z.enum(['name', 'declared']).default('name').describe('tools/list order: by name (deterministic) or as declared in the file; default: name.'),
    readTtlMs: ttl('resources/read results', 60_000),
    taskTtlMs: z
      .number()
      .int()
      .min(0)
      .nullable()
      .default(900_000)
      .describe('How long a task is kept after it is created, in ms (a task can override it); null keeps tasks forever. Default: 900000.'),
    pollIntervalMs: z
      .number()
      .int()
      .min(0)
      .default(1_000)
      .describe('Poll interval suggested to clients for tasks, in ms (a task can override it); default: 1000.'),
    requestStateTtlSeconds: z
      .number()
      .int()
      .min(1)
      .default(300)
      .describe('How long an MRTR requestState stays valid, in seconds; an older one is answered -32602. Default: 300.'),
    replayStoreMaxEntries: z
      .number()
      .int()
      .min(1)
      .default(1_000)
      .describe(
        'Capacity of the one-time-nonce store of built-in handlers; a full store answers -31023 (an application code, outside the JSON-RPC reserved range). Default: 1000.',
      ),
    keepAliveMs: z.number().int().min(10).default(15_000).describe('Interval of keep-alive comments on open SSE streams, in ms; default: 15000.'),
    maxBodyBytes: z
      .number()
      .int()
      .min(256)
      .default(4 * 1024 * 1024)
      .describe('Largest request body accepted, in bytes; larger ones get HTTP 413. Default: 4194304 (4 MiB).'),
    maxTaskRunMs: z
      .number()
      .int()
      .min(1)
      .default(3_600_000)
      .describe('Absolute ceiling for any task, in ms: it fails when exceeded (a task can lower it with maxRunMs). Default: 3600000.'),
    legacy: z
      .boolean()
      .default(true)
      .describe('Also serve 2025-11-25 clients (initialize handshake, sessions); false answers them -32022 naming the versions served. Default: true.'),
  })
  .describe('Server-wide settings: cache lifetimes, task defaults, limits. Every field has a default.');

/** A whole scenario file. */
export const ScenarioSchema = z.strictObject({
  $schema: z.string().optional().describe('URL or path of this JSON Schema, for editors; Loupe ignores it.'),
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lowercase letters, digits and dashes')
    .describe('Scenario id, used in /mcp/<id>: lowercase letters, digits and dashes, at most 64.'),
  name: z.string().optional().describe('Display name shown in scenario lists.'),
  description: z.string().optional().describe('What the scenario shows or tests, for the scenario list.'),
  server: z
    .strictObject({
      name: z.string().describe('Server name reported in server/discover (and initialize for 2025-11-25 clients).'),
      version: z.string().describe('Server version reported with the name, e.g. 1.0.0.'),
      title: z.string().optional().describe('Human-readable server title.'),
      instructions: z.string().optional().describe('Instructions for the model, returned by server/discover.'),
    })
    .describe('Who the mock server says it is.'),
  supportedVersions: z
    .array(z.string())
    .min(1)
    .default(['2026-07-28'])
    .describe(
      'The 2026-07-28-era protocol versions requests may claim. server/discover and -32022 name these plus 2025-11-25 while settings.legacy serves it (the default); list only 2025-11-25 for a server old clients alone can use. Default: [2026-07-28].',
    ),
  settings: SettingsSchema.default(SettingsSchema.parse({})),
  tools: z.array(ToolSpecSchema).default([]).describe('Tools served by tools/list and tools/call, each with its behaviour.'),
  ...CatalogShape,
  // Open on purpose: each built-in handler keeps its own state shape.
  state: Json.default({}).describe('Initial per-scenario state for built-in handlers (e.g. notes, workspace files); restored on reset.'),
  seed: SeedSchema.optional(),
  faults: z.array(FaultSchema).default([]).describe('Faults injected on matching requests (JSON-RPC errors, HTTP statuses, delays, stream faults).'),
  auth: AuthSchema.optional(),
});
/** A validated scenario with defaults applied. */
export type Scenario = z.infer<typeof ScenarioSchema>;
/** What an author writes (defaults optional). */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
