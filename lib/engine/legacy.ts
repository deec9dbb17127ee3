import { CompleteParamsSchema, ERROR, GetPromptParamsSchema, LEGACY_VERSION, LEGACY_VERSIONS, LegacyTaskResultParamsSchema, META } from '../protocol';
import type { TaskRecord } from '../store/types';
import { fail, ok, withParams, type EngineCore, type Outcome, type RequestContext } from './context';
import {
  complete,
  getPrompt,
  listPrompts,
  listResourceTemplates,
  listResources,
  listTools,
  readResourceResult,
  resourceContents,
  resourceNotFound,
  serverCapabilities,
  unknownPrompt,
} from './catalog';
import { NOT_FOUND, type TaskManager } from './tasks';
import { isTerminal } from './task-script';
import { route, runRoute, unchecked, type Route } from './route';
import { callToolRoute, refusedTaskInput } from './tools';
import { initializeSession } from './legacy-session';
import { answerInputRounds, createTaskInputAsker } from './legacy-bridge';

/**
 * The 2025-11-25 era for older clients: the `initialize` handshake and SEP-1686 experimental
 * tasks (`params.task`, `execution.taskSupport`, tasks/get|result|list|cancel). Results drop the
 * 2026-07-28-only fields (resultType, caching hints, serverInfo in `_meta`).
 */

const iso = (ms: number) => new Date(ms).toISOString();

function strip(o: Outcome): Outcome {
  // 2025-11-25 defines no -32021: a capability the client lacks is an invalid request there.
  if ('error' in o && o.error.code === ERROR.missingRequiredClientCapability) return { error: { ...o.error, code: ERROR.invalidRequest } };
  if (!('result' in o)) return o;
  const { resultType: _r, ttlMs: _t, cacheScope: _c, _meta, ...rest } = o.result;
  const meta = { ...((_meta as Record<string, unknown>) ?? {}) };
  delete meta[META.serverInfo];
  return ok(Object.keys(meta).length ? { ...rest, _meta: meta } : rest);
}

/** A task in 2025-11-25 field names. */
function legacyTask(rec: TaskRecord): Record<string, unknown> {
  return {
    taskId: rec.taskId,
    status: rec.status,
    ...(rec.statusMessage !== undefined ? { statusMessage: rec.statusMessage } : {}),
    createdAt: iso(rec.createdAt),
    lastUpdatedAt: iso(rec.lastUpdatedAt),
    ttl: rec.ttlMs,
    ...(rec.pollIntervalMs !== undefined ? { pollInterval: rec.pollIntervalMs } : {}),
  };
}

/** Answer a 2025-11-25 request (the era has no per-request checks). */
export function createLegacyDispatch(core: EngineCore, tasks: TaskManager): (ctx: RequestContext) => Promise<Outcome> {
  const callTool = callToolRoute(core, tasks);
  const prompt = route(
    GetPromptParamsSchema,
    (ctx, p) => getPrompt(core, ctx, p),
    (ctx) => unknownPrompt(core, ctx),
  );
  const askTaskInput = createTaskInputAsker(tasks);

  function initialize(ctx: RequestContext): Outcome {
    if (ctx.session) initializeSession(ctx.session, ctx.params, ctx.principal);
    const asked = ctx.params.protocolVersion;
    const version = typeof asked === 'string' && (LEGACY_VERSIONS as readonly string[]).includes(asked) ? asked : LEGACY_VERSION;
    const caps: Record<string, unknown> = { ...serverCapabilities(core.scenario) };
    delete caps.extensions;
    caps.logging = {};
    if (core.scenario.tools.some((t) => t.task)) caps.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    return ok({
      protocolVersion: version,
      capabilities: caps,
      serverInfo: core.serverInfo(),
      ...(core.scenario.server.instructions ? { instructions: core.scenario.server.instructions } : {}),
    });
  }

  /** A task-augmented call takes its arguments as sent; a direct call goes through the tools/call route. */
  async function toolCall(ctx: RequestContext): Promise<Outcome> {
    const tool = typeof ctx.params.name === 'string' ? core.tool(ctx.params.name) : undefined;
    const taskParam = ctx.params.task;
    if (tool && taskParam !== undefined) {
      if (!tool.task) return fail(ERROR.methodNotFound, `Tool ${tool.name} does not support task-augmented calls`);
      // Only a session knows what the client declared; a sessionless call may still be answered from the control room.
      const refused = ctx.session?.initialized ? refusedTaskInput(tool, ctx.caps) : undefined;
      if (refused) return strip(refused);
      const args = (ctx.params.arguments ?? {}) as Record<string, unknown>;
      const rec = await tasks.create(ctx, tool, args, {});
      const ttl = (taskParam as { ttl?: unknown }).ttl;
      if (typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 0) await core.stores.tasks.update(rec.taskId, (r) => ({ ...r, ttlMs: ttl }));
      return ok({ task: legacyTask((await tasks.read(rec.taskId, ctx.principal)) ?? rec) });
    }
    if (tool?.task?.mode === 'required') return fail(ERROR.methodNotFound, `Tool ${tool.name} requires a task-augmented call (params.task)`);
    return strip(await answerInputRounds(ctx, async (params) => runRoute(callTool, withParams(ctx, params))));
  }

  async function taskResult(ctx: RequestContext, taskId: string): Promise<Outcome> {
    for (;;) {
      const rec = await tasks.view(taskId, ctx.principal);
      if (!rec) return fail(ERROR.invalidParams, NOT_FOUND);
      const related = { [META.relatedTask]: { taskId } };
      if (rec.status === 'completed')
        return ok({ ...(rec.result as Record<string, unknown>), _meta: { ...((rec.result as Record<string, unknown>)?._meta as object), ...related } });
      if (rec.status === 'failed')
        return { error: { ...(rec.error ?? { code: ERROR.internalError, message: 'Task failed' }), data: { ...(rec.error?.data as object), _meta: related } } };
      if (rec.status === 'cancelled') return fail(ERROR.internalError, 'Task was cancelled', { _meta: related });
      if (rec.status === 'input_required') {
        if (!ctx.ask)
          return fail(ERROR.internalError, 'Task is waiting for input, and this request has no channel to ask the client on (initialize a session first)', {
            _meta: related,
          });
        // The answers move the task on; then wait for its next change like any other status.
        const refused = await askTaskInput(ctx, rec);
        if (refused) return strip(refused);
      }
      const changed = await new Promise<boolean>((resolve) => {
        const off = tasks.watch(taskId, () => {
          off();
          resolve(true);
        });
        ctx.signal.addEventListener(
          'abort',
          () => {
            off();
            resolve(false);
          },
          { once: true },
        );
        core.clock.setTimeout(() => {
          off();
          resolve(true);
        }, 250);
      });
      if (!changed) return fail(ERROR.internalError, 'Request cancelled');
    }
  }

  /** A task of this principal, settled to now, looked up by whatever `taskId` holds. */
  const taskOf = async (ctx: RequestContext) => (typeof ctx.params.taskId === 'string' ? tasks.read(ctx.params.taskId, ctx.principal) : undefined);
  const empty = unchecked(() => ok({}));

  const routes: Record<string, Route> = {
    initialize: unchecked(initialize),
    ping: empty,
    'logging/setLevel': unchecked((ctx) => {
      if (ctx.session && typeof ctx.params.level === 'string') ctx.session.logLevel = ctx.params.level;
      return ok({});
    }),
    'resources/subscribe': empty,
    'resources/unsubscribe': empty,
    'tools/list': unchecked((ctx) => strip(listTools(core, ctx))),
    'tools/call': unchecked(toolCall),
    'resources/list': unchecked((ctx) => strip(listResources(core, ctx))),
    'resources/templates/list': unchecked((ctx) => strip(listResourceTemplates(core, ctx))),
    'resources/read': unchecked(({ params }) => {
      const c = typeof params.uri === 'string' ? resourceContents(core, params.uri) : undefined;
      return c ? strip(readResourceResult(core, c)) : resourceNotFound(String(params.uri));
    }),
    'prompts/list': unchecked((ctx) => strip(listPrompts(core, ctx))),
    'prompts/get': unchecked(async (ctx) => strip(await answerInputRounds(ctx, async (params) => runRoute(prompt, withParams(ctx, params))))),
    'completion/complete': route(CompleteParamsSchema, (_ctx, p) => strip(complete(core, p))),
    'tasks/get': unchecked(async (ctx) => {
      const rec = typeof ctx.params.taskId === 'string' ? await tasks.view(ctx.params.taskId, ctx.principal) : undefined;
      return rec ? ok(legacyTask(rec)) : fail(ERROR.invalidParams, NOT_FOUND);
    }),
    'tasks/result': route(LegacyTaskResultParamsSchema, (ctx, p) => taskResult(ctx, p.taskId)),
    'tasks/list': unchecked(async ({ params, principal }) => {
      if (params.cursor !== undefined) return fail(ERROR.invalidParams, 'Invalid params: unknown cursor');
      const stored = await core.stores.tasks.list({ principal, scenarioId: core.scenario.id });
      const list = (await Promise.all(stored.map((r) => tasks.view(r.taskId, principal)))).filter((r): r is TaskRecord => !!r);
      return ok({ tasks: list.map(legacyTask) });
    }),
    'tasks/cancel': unchecked(async (ctx) => {
      const rec = await taskOf(ctx);
      if (!rec) return fail(ERROR.invalidParams, NOT_FOUND);
      if (isTerminal(rec)) return fail(ERROR.invalidParams, `Cannot cancel task: already ${rec.status}`);
      const after = await tasks.control(rec.taskId, { kind: 'cancel' });
      return ok(legacyTask(after ?? rec));
    }),
  };
  const table = new Map(Object.entries(routes));

  return async function legacy(ctx) {
    const r = table.get(ctx.method);
    return r ? runRoute(r, ctx) : fail(ERROR.methodNotFound, `Method not found: ${ctx.method}`);
  };
}
