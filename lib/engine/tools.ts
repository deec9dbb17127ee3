import { CallToolParamsSchema, ERROR, EXT, META, declaresExtension, type CallToolParams, type ClientCapabilities } from '../protocol';
import { isRecord } from '../shared/records';
import type { ToolSpec } from '../scenario/schema';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from './context';
import { canAsk, capabilityFor, runMrtr } from './mrtr';
import { route, type Route } from './route';
import { isTerminal, stepDelay } from './task-script';
import type { TaskManager } from './tasks';
import { fillNumber, fillTemplate } from './template';
import { levelAtLeast, sleepUnlessAborted } from './util';
import { HANDLERS } from './handlers';

/** tools/call: argument checks, capability gates, MRTR, handlers, tasks and direct results. */

function typeMatches(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    default:
      return true;
  }
}

/** Shallow check of arguments against the tool's inputSchema (required keys and top-level types). */
function checkArguments(tool: ToolSpec, args: Record<string, unknown>): string | undefined {
  const schema = tool.inputSchema as { required?: unknown; properties?: Record<string, { type?: unknown }> };
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const key of required) if (args[key] === undefined) return `missing required argument "${key}"`;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (args[key] === undefined || !prop || typeof prop !== 'object') continue;
    const types = Array.isArray(prop.type) ? prop.type : [prop.type];
    if (prop.type !== undefined && !types.some((t) => typeMatches(args[key], t))) return `argument "${key}" must be of type ${types.join(' or ')}`;
  }
  return undefined;
}

function missingCapability(caps: Record<string, unknown>, required: Record<string, unknown>): boolean {
  return Object.entries(required).some(([k, v]) => {
    if (k === 'extensions') return Object.keys(v as object).some((id) => !declaresExtension(caps, id));
    return caps[k] === undefined;
  });
}

async function runSideShow(core: EngineCore, ctx: RequestContext, tool: ToolSpec, scope: Record<string, unknown>): Promise<boolean> {
  const meta = (ctx.params._meta ?? {}) as Record<string, unknown>;
  const level = meta[META.logLevel];
  if (tool.log && typeof level === 'string') {
    for (const entry of tool.log) {
      if (levelAtLeast(entry.level, level))
        ctx.notify('notifications/message', { level: entry.level, ...(entry.logger ? { logger: entry.logger } : {}), data: fillTemplate(entry.data, scope) });
    }
  }
  const token = meta.progressToken;
  if (tool.progress && (typeof token === 'string' || typeof token === 'number')) {
    for (const step of tool.progress.steps) {
      if (!(await sleepUnlessAborted(core.clock, tool.progress.intervalMs, ctx.signal))) return false;
      ctx.notify('notifications/progress', { progressToken: token, ...step });
    }
  } else if (tool.progress) {
    if (!(await sleepUnlessAborted(core.clock, tool.progress.intervalMs * tool.progress.steps.length, ctx.signal))) return false;
  }
  const delay = fillNumber(tool.delayMs, scope, 0);
  if (delay > 0 && !(await sleepUnlessAborted(core.clock, delay, ctx.signal))) return false;
  for (const kind of tool.emit ?? [])
    core.broadcast(kind, `notifications/${kind === 'toolsListChanged' ? 'tools' : kind === 'promptsListChanged' ? 'prompts' : 'resources'}/list_changed`);
  return true;
}

/** Run a task script inline for a client that did not declare the extension. */
async function runInline(core: EngineCore, ctx: RequestContext, tool: ToolSpec, scope: Record<string, unknown>): Promise<Outcome> {
  const spec = tool.task!;
  const stub = { args: scope.args, data: { inputs: scope.inputs }, inputResponses: {}, taskId: '' } as never;
  for (const step of spec.steps) {
    if (step.inputRequests) {
      return fail(ERROR.missingRequiredClientCapability, `Missing required client capability: ${tool.name} needs the ${EXT.tasks} extension to ask for input`, {
        requiredCapabilities: { extensions: { [EXT.tasks]: {} } },
      });
    }
    const delay = step.manual ? 0 : stepDelay(stub, step);
    if (Number.isFinite(delay) && delay > 0 && !(await sleepUnlessAborted(core.clock, delay, ctx.signal)))
      return fail(ERROR.internalError, 'Request cancelled');
    if (step.result || step.toolError) {
      const body = fillTemplate((step.result ?? step.toolError)!, scope);
      return ok({ resultType: 'complete', ...body, ...(step.toolError ? { isError: true } : {}) });
    }
    if (step.error) return fail(step.error.code, step.error.message, step.error.data);
    if (step.cancelled) return fail(ERROR.internalError, 'The task was cancelled by the server');
  }
  return fail(ERROR.internalError, 'Task script ended without a terminal step');
}

/**
 * A task whose script asks for input the client cannot receive would fail at that step; refuse
 * the call up front instead, naming the capability (-32021 with requiredCapabilities).
 */
export function refusedTaskInput(tool: ToolSpec, caps: ClientCapabilities): Outcome | undefined {
  for (const step of tool.task?.steps ?? []) {
    const requests = Object.values(step.inputRequests ?? {});
    if (requests.length === 0 || requests.some((r) => canAsk(r, caps))) continue;
    return fail(ERROR.missingRequiredClientCapability, `Missing required client capability: ${tool.name} asks for input this client did not declare`, {
      requiredCapabilities: Object.assign({}, ...requests.map(capabilityFor)),
    });
  }
  return undefined;
}

/** The tools/call route (both eras): a tool name that names no tool is answered before the params are checked. */
export function callToolRoute(core: EngineCore, tasks: TaskManager): Route<CallToolParams> {
  const unknownTool = ({ params }: RequestContext) =>
    typeof params.name === 'string' && !core.tool(params.name) ? fail(ERROR.invalidParams, `Unknown tool: ${params.name}`) : undefined;
  return route(CallToolParamsSchema, (ctx, p) => callTool(core, ctx, tasks, p), unknownTool);
}

/** tools/call, for a known tool, with its params parsed. */
async function callTool(core: EngineCore, ctx: RequestContext, tasks: TaskManager, params: CallToolParams): Promise<Outcome> {
  const name = params.name;
  const tool = core.tool(name)!;
  const args = params.arguments ?? {};
  const problem = checkArguments(tool, args);
  if (problem) return fail(ERROR.invalidParams, `Invalid params for ${name}: ${problem}`);
  if (tool.requires && missingCapability(ctx.caps as Record<string, unknown>, tool.requires)) {
    return fail(ERROR.missingRequiredClientCapability, `Missing required client capability for ${name}`, { requiredCapabilities: tool.requires });
  }
  const wantsTask = ctx.era === 'modern' ? declaresExtension(ctx.caps, EXT.tasks) : false;
  if (tool.task?.mode === 'required' && ctx.era === 'modern' && !wantsTask) {
    return fail(ERROR.missingRequiredClientCapability, `Missing required client capability: ${name} runs only as a task; declare the ${EXT.tasks} extension`, {
      requiredCapabilities: { extensions: { [EXT.tasks]: {} } },
    });
  }
  let inputs: Record<string, unknown> = {};
  const progressToken = ((ctx.params._meta ?? {}) as Record<string, unknown>).progressToken;
  const scope = () => ({ args, inputs, progressToken });
  if (tool.mrtr) {
    const m = await runMrtr(core, ctx, tool.mrtr.rounds, scope());
    if (!m.done) return 'outcome' in m ? m.outcome : ok({ resultType: 'complete', ...fillTemplate(m.result, { args, inputs: m.inputs }) });
    inputs = m.inputs;
  }
  if (tool.handler) {
    // A scenario file names the handler: `constructor` must not find Object's.
    const handler = Object.hasOwn(HANDLERS, tool.handler) ? HANDLERS[tool.handler] : undefined;
    if (!handler) return fail(ERROR.internalError, `Failed to call ${name}: unknown handler "${tool.handler}"`);
    return handler(core, ctx, tool, args);
  }
  if (tool.task && wantsTask) {
    const refused = refusedTaskInput(tool, ctx.caps);
    if (refused) return refused;
    const rec = await tasks.create(ctx, tool, args, inputs);
    const snap = tasks.snapshot(rec);
    if (isTerminal(rec) && tool.task.steps.length === 1) return ok({ resultType: 'complete', ...(rec.result as Record<string, unknown>) });
    const { inputRequests: _i, result: _r, error: _e, ...handle } = snap;
    return ok({ resultType: 'task', ...handle });
  }
  if (!(await runSideShow(core, ctx, tool, scope()))) return fail(ERROR.internalError, 'Request cancelled');
  if (tool.task) return runInline(core, ctx, tool, scope());
  if (tool.error) return fail(tool.error.code, fillTemplate(tool.error.message, scope()), tool.error.data);
  const result = fillTemplate(tool.result ?? { content: [] }, scope());
  return ok({ resultType: 'complete', ...result });
}
