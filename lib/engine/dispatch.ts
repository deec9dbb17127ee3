import {
  CancelTaskParamsSchema,
  CompleteParamsSchema,
  ERROR,
  GetPromptParamsSchema,
  GetTaskParamsSchema,
  HEADER,
  ListenParamsSchema,
  ReadResourceParamsSchema,
  REMOVED_METHODS,
  UpdateTaskParamsSchema,
  type MODERN_METHODS,
  type TASK_METHODS,
} from '../protocol';
import type { Scenario } from '../scenario/schema';
import { fail, type EngineCore, type Outcome, type RequestContext } from './context';
import { checkHeaders, checkMeta } from './checks';
import { versionsOf } from './served-versions';
import { complete, discover, getPrompt, listPrompts, listResourceTemplates, listResources, listTools, readResource, unknownPrompt } from './catalog';
import { route, runRoute, unchecked, type Route } from './route';
import { callToolRoute } from './tools';
import { needsTasksExtension, type TaskManager } from './tasks';
import type { ListenHub } from './listen';

/**
 * The modern (2026-07-28) era: the per-request checks (version header, `_meta`, `Mcp-Method`,
 * known method, `Mcp-Name` and `Mcp-Param-*`), then the method's route.
 */

/** The methods a 2026-07-28 request may name: the core ones and the tasks extension's. */
type ModernMethod = (typeof MODERN_METHODS)[number] | (typeof TASK_METHODS)[number];

/** Method → params schema → handler, for every method of the era. */
function modernRoutes(core: EngineCore, tasks: TaskManager, hub: ListenHub): Record<ModernMethod, Route> {
  return {
    'server/discover': unchecked(() => discover(core)),
    'tools/list': unchecked((ctx) => listTools(core, ctx)),
    'tools/call': callToolRoute(core, tasks),
    'resources/list': unchecked((ctx) => listResources(core, ctx)),
    'resources/templates/list': unchecked((ctx) => listResourceTemplates(core, ctx)),
    'resources/read': route(ReadResourceParamsSchema, (ctx, p) => readResource(core, ctx, p)),
    'prompts/list': unchecked((ctx) => listPrompts(core, ctx)),
    'prompts/get': route(
      GetPromptParamsSchema,
      (ctx, p) => getPrompt(core, ctx, p),
      (ctx) => unknownPrompt(core, ctx),
    ),
    'completion/complete': route(CompleteParamsSchema, (_ctx, p) => complete(core, p)),
    'subscriptions/listen': route(ListenParamsSchema, (ctx, p) => hub.listen(ctx, p)),
    'tasks/get': route(GetTaskParamsSchema, (ctx, p) => tasks.get(ctx, p), needsTasksExtension),
    'tasks/update': route(UpdateTaskParamsSchema, (ctx, p) => tasks.update(ctx, p), needsTasksExtension),
    'tasks/cancel': route(CancelTaskParamsSchema, (ctx, p) => tasks.cancel(ctx, p), needsTasksExtension),
  };
}

/** Whether the scenario has nothing a method could serve, so it answers as unknown. */
function unavailable(sc: Scenario, method: string): boolean {
  if (method.startsWith('tools/')) return sc.tools.length === 0;
  if (method.startsWith('prompts/')) return sc.prompts.length === 0;
  if (method.startsWith('resources/')) return sc.resources.length === 0 && sc.resourceTemplates.length === 0;
  if (method === 'completion/complete') return sc.completions.length === 0 && sc.prompts.length === 0;
  if (method.startsWith('tasks/')) return !sc.tools.some((t) => t.task);
  return false;
}

function methodNotFound(method: string): Outcome {
  const removed = (REMOVED_METHODS as readonly string[]).includes(method);
  return { ...fail(ERROR.methodNotFound, `Method not found: ${method}${removed ? ' (removed in 2026-07-28)' : ''}`), httpStatus: 404 };
}

/** Answer a modern request. `ctx.caps` is filled here, from `_meta`. */
export function createModernDispatch(core: EngineCore, tasks: TaskManager, hub: ListenHub): (ctx: RequestContext) => Outcome | Promise<Outcome> {
  const routes = new Map<string, Route>(Object.entries(modernRoutes(core, tasks, hub)));

  // Not async: a route that answers synchronously costs no promise here (the pipeline wraps once).
  return function modern(ctx) {
    const { headers, params, method } = ctx;
    if (headers && headers.get(HEADER.protocolVersion) === null) {
      return fail(ERROR.headerMismatch, `Header mismatch: ${HEADER.protocolVersion} header is required`);
    }
    const meta = checkMeta(params, versionsOf(core.scenario), headers ? headers.get(HEADER.protocolVersion) : undefined);
    if ('error' in meta || 'result' in meta) return meta;
    ctx.caps = meta.caps;
    if (headers) {
      const rawMethod = headers.get(HEADER.method);
      if (rawMethod === null || rawMethod.trim() !== method) return checkHeaders(headers, method, params, undefined)!;
    }
    const r = routes.get(method);
    if (!r || unavailable(core.scenario, method)) return methodNotFound(method);
    if (headers) {
      const tool = method === 'tools/call' && typeof params.name === 'string' ? core.tool(params.name) : undefined;
      const bad = checkHeaders(headers, method, params, tool);
      if (bad) return bad;
    }
    return runRoute(r, ctx);
  };
}
