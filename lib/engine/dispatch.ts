import type { HeaderBag } from './http-types';
import { ERROR, HEADER, LEGACY_VERSIONS, META, MODERN_METHODS, REMOVED_METHODS, TASK_METHODS } from '../protocol';
import type { JsonRpcRequest } from '../protocol';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from './context';
import { checkHeaders, checkMeta } from './checks';
import { complete, discover, listPrompts, listResourceTemplates, listResources, listTools, readResourceResult, resourceContents, resourceNotFound } from './catalog';
import { runMrtr } from './mrtr';
import { fillTemplate } from './template';
import { callTool } from './tools';
import type { TaskManager } from './tasks';
import type { ListenHub } from './listen';

/** Method routing for the modern (2026-07-28) era, after the per-request checks. */

export interface Dispatcher {
  /** Era of a request: legacy when it carries a legacy version header or is a handshake without modern `_meta`. */
  eraOf(req: JsonRpcRequest, headers?: HeaderBag): 'modern' | 'legacy';
  /** Run the modern checks and the method. `base` lacks caps (filled from `_meta`). */
  modern(req: JsonRpcRequest, base: Omit<RequestContext, 'caps' | 'era'>): Promise<Outcome>;
}

const KNOWN = new Set<string>([...MODERN_METHODS, ...TASK_METHODS]);

export function createDispatcher(core: EngineCore, tasks: TaskManager, hub: ListenHub): Dispatcher {
  const s = () => core.scenario;

  function gatedByCapability(method: string): boolean {
    const sc = s();
    if (method.startsWith('tools/')) return sc.tools.length === 0;
    if (method.startsWith('prompts/')) return sc.prompts.length === 0;
    if (method.startsWith('resources/')) return sc.resources.length === 0 && sc.resourceTemplates.length === 0;
    if (method === 'completion/complete') return sc.completions.length === 0 && sc.prompts.length === 0;
    if (method.startsWith('tasks/')) return !sc.tools.some((t) => t.task);
    return false;
  }

  async function getPrompt(ctx: RequestContext): Promise<Outcome> {
    const name = ctx.params.name;
    const prompt = s().prompts.find((p) => p.name === name);
    if (!prompt) return fail(ERROR.invalidParams, `Unknown prompt: ${String(name)}`);
    const args = (ctx.params.arguments ?? {}) as Record<string, unknown>;
    if (typeof args !== 'object' || Array.isArray(args)) return fail(ERROR.invalidParams, 'Invalid params: arguments must be an object');
    for (const a of prompt.arguments ?? []) if (a.required && args[a.name] === undefined) return fail(ERROR.invalidParams, `Invalid params: missing required argument "${a.name}"`);
    let inputs: Record<string, unknown> = {};
    if (prompt.mrtr) {
      const m = await runMrtr(core, ctx, prompt.mrtr.rounds, { args });
      if (!m.done) return 'outcome' in m ? m.outcome : fail(ERROR.invalidRequest, 'The user declined');
      inputs = m.inputs;
    }
    const messages = fillTemplate(prompt.messages, { args, inputs });
    return ok({ resultType: 'complete', ...(prompt.description ? { description: prompt.description } : {}), messages });
  }

  async function readResource(ctx: RequestContext): Promise<Outcome> {
    const uri = ctx.params.uri;
    if (typeof uri !== 'string') return fail(ERROR.invalidParams, 'Invalid params: resources/read needs a uri');
    const spec = s().resources.find((r) => r.uri === uri);
    if (spec?.mrtr) {
      const m = await runMrtr(core, ctx, spec.mrtr.rounds, {});
      if (!m.done) return 'outcome' in m ? m.outcome : fail(ERROR.invalidRequest, 'The user declined');
      const c = resourceContents(core, uri)!;
      return readResourceResult(core, fillTemplate(c, { inputs: m.inputs }));
    }
    const contents = resourceContents(core, uri);
    return contents ? readResourceResult(core, contents) : resourceNotFound(uri);
  }

  async function route(ctx: RequestContext): Promise<Outcome> {
    switch (ctx.method) {
      case 'server/discover':
        return discover(core);
      case 'tools/list':
        return listTools(core, ctx);
      case 'tools/call':
        return callTool(core, ctx, tasks);
      case 'resources/list':
        return listResources(core, ctx);
      case 'resources/templates/list':
        return listResourceTemplates(core, ctx);
      case 'resources/read':
        return readResource(ctx);
      case 'prompts/list':
        return listPrompts(core, ctx);
      case 'prompts/get':
        return getPrompt(ctx);
      case 'completion/complete':
        return complete(core, ctx);
      case 'subscriptions/listen':
        return hub.listen(ctx);
      case 'tasks/get':
        return tasks.get(ctx);
      case 'tasks/update':
        return tasks.update(ctx);
      case 'tasks/cancel':
        return tasks.cancel(ctx);
      default:
        return fail(ERROR.methodNotFound, `Method not found: ${ctx.method}`);
    }
  }

  return {
    eraOf(req, headers) {
      const hv = headers?.get(HEADER.protocolVersion)?.trim();
      if (hv && (LEGACY_VERSIONS as readonly string[]).includes(hv)) return 'legacy';
      const meta = req.params?._meta as Record<string, unknown> | undefined;
      const modernMeta = !!meta && typeof meta === 'object' && META.protocolVersion in meta;
      if (req.method === 'initialize' && !modernMeta && !hv) return 'legacy';
      return 'modern';
    },
    async modern(req, base) {
      const params = (req.params ?? {}) as Record<string, unknown>;
      const headers = base.headers;
      if (headers && headers.get(HEADER.protocolVersion) === null) {
        return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.protocolVersion} header is required`);
      }
      const meta = checkMeta(params, s().supportedVersions, headers ? headers.get(HEADER.protocolVersion) : undefined);
      if ('error' in meta || 'result' in meta) return meta;
      const ctx: RequestContext = { ...base, era: 'modern', caps: meta.caps };
      if (headers) {
        const rawMethod = headers.get(HEADER.method);
        if (rawMethod === null || rawMethod.trim() !== req.method) return checkHeaders(headers, req.method, params, undefined)!;
      }
      const removed = (REMOVED_METHODS as readonly string[]).includes(req.method);
      if (removed || !KNOWN.has(req.method) || gatedByCapability(req.method)) {
        return { ...fail(ERROR.methodNotFound, `Method not found: ${req.method}${removed ? ' (removed in 2026-07-28)' : ''}`), httpStatus: 404 };
      }
      if (headers) {
        const tool = req.method === 'tools/call' && typeof params.name === 'string' ? core.tool(params.name) : undefined;
        const bad = checkHeaders(headers, req.method, params, tool);
        if (bad) return bad;
      }
      return route(ctx);
    },
  };
}

