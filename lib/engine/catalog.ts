import {
  APP_MIME_TYPE,
  ERROR,
  EXT,
  META,
  declaresExtension,
  type ClientCapabilities,
  type CompleteParams,
  type GetPromptParams,
  type ReadResourceParams,
} from '../protocol';
import type { ResourceSpec, ResourceTemplateSpec } from '../scenario/catalog-schema';
import type { Scenario, ToolSpec } from '../scenario/schema';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from './context';
import { runMrtr } from './mrtr';
import { versionsOf } from './served-versions';
import { fillTemplate } from './template';

/** server/discover, the list methods, resources/read, prompts/get and completion/complete. */

const BEHAVIOR_KEYS = new Set(['result', 'error', 'mrtr', 'task', 'handler', 'options', 'progress', 'log', 'emit', 'requires', 'delayMs', 'ui']);

/** Server capabilities derived from what the scenario contains. */
export function serverCapabilities(s: Scenario): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  const ext: Record<string, unknown> = {};
  if (s.tools.length) caps.tools = { listChanged: true };
  if (s.resources.length || s.resourceTemplates.length) caps.resources = { subscribe: true, listChanged: true };
  if (s.prompts.length) caps.prompts = { listChanged: true };
  if (s.completions.length) caps.completions = {};
  if (s.tools.some((t) => t.log)) caps.logging = {};
  if (s.tools.some((t) => t.task)) ext[EXT.tasks] = {};
  if (s.tools.some((t) => t.ui)) ext[EXT.ui] = { mimeTypes: ['text/html;profile=mcp-app'] };
  if (Object.keys(ext).length) caps.extensions = ext;
  return caps;
}

function withServerInfo(core: EngineCore, result: Record<string, unknown>): Record<string, unknown> {
  const meta = { ...((result._meta as Record<string, unknown>) ?? {}), [META.serverInfo]: core.serverInfo() };
  return { ...result, _meta: meta };
}

/** server/discover: identity, supported versions, capabilities and instructions, cacheable. */
export function discover(core: EngineCore): Outcome {
  const s = core.scenario;
  const result: Record<string, unknown> = {
    resultType: 'complete',
    supportedVersions: versionsOf(s).served,
    capabilities: serverCapabilities(s),
    ttlMs: s.settings.discoverTtlMs,
    cacheScope: s.settings.discoverCacheScope,
  };
  if (s.server.instructions) result.instructions = s.server.instructions;
  return ok(withServerInfo(core, result));
}

/** The wire form of a tool, with the ui binding only for clients that declared the ui extension. */
function toolWire(tool: ToolSpec, caps: ClientCapabilities | undefined, era: 'modern' | 'legacy' = 'modern'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tool)) if (!BEHAVIOR_KEYS.has(k) && v !== undefined) out[k] = v;
  const meta = { ...((tool._meta as Record<string, unknown>) ?? {}) };
  delete meta.ui;
  if (tool.ui && (era === 'legacy' || declaresExtension(caps, EXT.ui))) {
    meta.ui = { resourceUri: tool.ui.resourceUri, ...(tool.ui.visibility ? { visibility: tool.ui.visibility } : {}) };
  }
  if (Object.keys(meta).length) out._meta = meta;
  else delete out._meta;
  if (era === 'legacy' && tool.task) out.execution = { taskSupport: tool.task.mode === 'required' ? 'required' : 'optional' };
  return out;
}

/** Whether a tool is visible to this client in tools/list. */
function listed(tool: ToolSpec, caps: ClientCapabilities | undefined, era: 'modern' | 'legacy'): boolean {
  const vis = tool.ui?.visibility;
  if (!vis || vis.includes('model')) return true;
  return era === 'modern' && declaresExtension(caps, EXT.ui);
}

function cacheable(core: EngineCore, key: string, items: unknown[], ttlMs: number, cursor: unknown): Outcome {
  if (cursor !== undefined && cursor !== null) return fail(ERROR.invalidParams, `Invalid params: unknown cursor ${JSON.stringify(cursor)}`);
  const s = core.scenario.settings;
  return ok(withServerInfo(core, { resultType: 'complete', [key]: items, ttlMs, cacheScope: s.listCacheScope }));
}

/** tools/list in the scenario's order, each tool as this client's era and extensions see it. */
export function listTools(core: EngineCore, ctx: RequestContext): Outcome {
  const byName = core.scenario.settings.toolOrder === 'name';
  const tools = [...core.scenario.tools]
    .filter((t) => listed(t, ctx.caps, ctx.era))
    .sort((a, b) => (!byName ? 0 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((t) => toolWire(t, ctx.caps, ctx.era));
  return cacheable(core, 'tools', tools, core.scenario.settings.listTtlMs, ctx.params.cursor);
}

const isUi = (r: ResourceSpec) => r.uri.startsWith('ui://') || r.ui !== undefined;

/**
 * The `_meta` a resource is served with. A UI resource always carries `_meta.ui.csp` with the
 * four domain lists, empty unless the scenario declares domains: hosts then allow nothing external.
 */
function resourceMeta(r: ResourceSpec): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = { ...(r._meta ?? {}) };
  if (isUi(r)) {
    const fromMeta = (meta.ui && typeof meta.ui === 'object' ? meta.ui : {}) as Record<string, unknown>;
    const csp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [], ...(fromMeta.csp as object), ...r.ui?.csp };
    meta.ui = { ...fromMeta, ...r.ui, csp };
  }
  return Object.keys(meta).length ? meta : undefined;
}

/** The MIME type a resource is served with; a UI resource defaults to the MCP Apps type. */
function resourceMime(r: ResourceSpec): string | undefined {
  return r.mimeType ?? (isUi(r) ? APP_MIME_TYPE : undefined);
}

/** resources/list: the resources without their contents (ui:// ones with their `_meta.ui`). */
export function listResources(core: EngineCore, ctx: RequestContext): Outcome {
  const items = core.scenario.resources.map((spec) => {
    const { text: _t, blob: _b, file: _f, mrtr: _m, ui: _u, _meta: _x, mimeType: _y, ...r } = spec;
    const meta = resourceMeta(spec);
    const mimeType = resourceMime(spec);
    return { ...r, ...(mimeType ? { mimeType } : {}), ...(meta ? { _meta: meta } : {}) };
  });
  return cacheable(core, 'resources', items, core.scenario.settings.listTtlMs, ctx.params.cursor);
}

/** resources/templates/list. */
export function listResourceTemplates(core: EngineCore, ctx: RequestContext): Outcome {
  const items = core.scenario.resourceTemplates.map(({ text: _t, ...r }) => r);
  return cacheable(core, 'resourceTemplates', items, core.scenario.settings.listTtlMs, ctx.params.cursor);
}

/** prompts/list: the prompts without their messages. */
export function listPrompts(core: EngineCore, ctx: RequestContext): Outcome {
  const items = core.scenario.prompts.map(({ messages: _m, mrtr: _r, ...p }) => p);
  return cacheable(core, 'prompts', items, core.scenario.settings.listTtlMs, ctx.params.cursor);
}

/** Match a URI against an RFC 6570 level-1 template; returns the variables or undefined. */
function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_, n: string) => {
    names.push(n.replace(/^[+#]/, ''));
    return '([^/]+)';
  });
  const m = new RegExp(`^${pattern.replace(/\{([^}]+)\}/g, '([^/]+)')}$`).exec(uri);
  if (!m) return undefined;
  const vars: Record<string, string> = {};
  // Every name was pushed with exactly one non-optional capture group, so group i + 1 matched.
  for (const [i, n] of names.entries()) vars[n] = decodeURIComponent(m[i + 1]!);
  return vars;
}

/** The contents of a static or templated resource, or undefined when unknown. */
export function resourceContents(core: EngineCore, uri: string): Record<string, unknown>[] | undefined {
  const r = core.scenario.resources.find((x) => x.uri === uri);
  if (r) {
    const mimeType = resourceMime(r);
    const meta = resourceMeta(r);
    const base: Record<string, unknown> = { uri, ...(mimeType ? { mimeType } : {}) };
    if (meta) base._meta = meta;
    return [r.blob !== undefined ? { ...base, blob: r.blob } : { ...base, text: r.text ?? '' }];
  }
  for (const t of core.scenario.resourceTemplates as ResourceTemplateSpec[]) {
    const vars = matchTemplate(t.uriTemplate, uri);
    if (vars) return [{ uri, ...(t.mimeType ? { mimeType: t.mimeType } : {}), text: fillTemplate(t.text ?? '', { vars }) }];
  }
  return undefined;
}

/** A resources/read result for `contents`, with the scenario's read TTL and cache scope. */
export function readResourceResult(core: EngineCore, contents: Record<string, unknown>[]): Outcome {
  const s = core.scenario.settings;
  return ok(withServerInfo(core, { resultType: 'complete', contents, ttlMs: s.readTtlMs, cacheScope: s.listCacheScope }));
}

/** The -32602 answer for a URI no resource or template serves. */
export function resourceNotFound(uri: string): Outcome {
  return fail(ERROR.invalidParams, `Resource not found: ${uri}`, { uri });
}

/** completion/complete, with its params parsed (CompleteParamsSchema). */
export function complete(core: EngineCore, params: CompleteParams): Outcome {
  const { ref, argument: arg } = params;
  const value = typeof arg.value === 'string' ? arg.value : '';
  const spec = core.scenario.completions.find((c) => c.ref.type === ref.type && (c.ref.name ?? c.ref.uri) === (ref.name ?? ref.uri) && c.argument === arg.name);
  const values = (spec?.values ?? []).filter((v) => v.toLowerCase().startsWith(value.toLowerCase())).slice(0, 100);
  return ok({ resultType: 'complete', completion: { values, total: values.length, hasMore: false } });
}

/** The gate of prompts/get: whatever `name` holds, a name that matches no prompt is answered first. */
export function unknownPrompt(core: EngineCore, { params }: RequestContext): Outcome | undefined {
  return core.scenario.prompts.some((p) => p.name === params.name) ? undefined : fail(ERROR.invalidParams, `Unknown prompt: ${String(params.name)}`);
}

/** prompts/get, for a known prompt, with its params parsed (GetPromptParamsSchema). */
export async function getPrompt(core: EngineCore, ctx: RequestContext, params: GetPromptParams): Promise<Outcome> {
  const prompt = core.scenario.prompts.find((p) => p.name === params.name)!;
  const args = params.arguments ?? {};
  for (const a of prompt.arguments ?? [])
    if (a.required && args[a.name] === undefined) return fail(ERROR.invalidParams, `Invalid params: missing required argument "${a.name}"`);
  let inputs: Record<string, unknown> = {};
  if (prompt.mrtr) {
    const m = await runMrtr(core, ctx, prompt.mrtr.rounds, { args });
    if (!m.done) return 'outcome' in m ? m.outcome : fail(ERROR.invalidRequest, 'The user declined');
    inputs = m.inputs;
  }
  const messages = fillTemplate(prompt.messages, { args, inputs });
  return ok({ resultType: 'complete', ...(prompt.description ? { description: prompt.description } : {}), messages });
}

/** resources/read, with its params parsed (ReadResourceParamsSchema). */
export async function readResource(core: EngineCore, ctx: RequestContext, params: ReadResourceParams): Promise<Outcome> {
  const uri = params.uri;
  const spec = core.scenario.resources.find((r) => r.uri === uri);
  if (spec?.mrtr) {
    const m = await runMrtr(core, ctx, spec.mrtr.rounds, {});
    if (!m.done) return 'outcome' in m ? m.outcome : fail(ERROR.invalidRequest, 'The user declined');
    const c = resourceContents(core, uri)!;
    return readResourceResult(core, fillTemplate(c, { inputs: m.inputs }));
  }
  const contents = resourceContents(core, uri);
  return contents ? readResourceResult(core, contents) : resourceNotFound(uri);
}
