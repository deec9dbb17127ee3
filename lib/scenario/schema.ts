import { z } from 'zod';
import { MrtrRoundSchema, ToolBehaviorSchema } from './behavior-schema';
import { FaultSchema, SeedSchema } from './fault-schema';

/**
 * The scenario file format. A scenario is data: server identity, tools, resources, prompts,
 * and per tool a behaviour (direct result, MRTR rounds, task script or a built-in handler;
 * behavior-schema.ts), plus faults (fault-schema.ts).
 */

const Json = z.record(z.string(), z.unknown());

/** A tool as the scenario declares it: what tools/list shows, plus its behaviour. */
const ToolSpecSchema = z
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
const ResourceUiSpecSchema = z
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

/** A resource and its contents (text, blob, or a file next to the scenario). */
const ResourceSpecSchema = z.looseObject({
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

/** A resource template and the text a matching URI reads as. */
const ResourceTemplateSpecSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  /** Text returned when a matching URI is read; `{{vars.x}}` fills template variables. */
  text: z.string().optional(),
});
export type ResourceTemplateSpec = z.infer<typeof ResourceTemplateSpecSchema>;

const PromptSpecSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.looseObject({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })).optional(),
  messages: z.array(Json).min(1),
  mrtr: z.object({ rounds: z.array(MrtrRoundSchema).min(1) }).optional(),
});

const SettingsSchema = z.object({
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

const CompletionSpecSchema = z.object({
  ref: z.object({ type: z.enum(['ref/prompt', 'ref/resource']), name: z.string().optional(), uri: z.string().optional() }),
  argument: z.string(),
  values: z.array(z.string()),
});

/** A whole scenario file. */
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
