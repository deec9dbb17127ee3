import { CallToolParamsParser, ERROR, EXT, META, declaresExtension, type CallToolParams, type ClientCapabilities } from '../protocol';
import { isRecord } from '../shared/records';
import type { ToolSpec } from '../scenario/schema';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from './context';
import { canAsk, capabilityFor, runMrtr } from './mrtr';
import { route, type Route } from './route';
import { isTerminal, stepDelay } from './task-script';
import type { TaskManager } from './tasks';
import { fillNumber, fillScenarioTemplate, fillTemplate } from './template';
import { constantComplete } from './constant-results';
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

/**
 * What a tool does before its result: log notifications, progress, a delay, list-changed
 * broadcasts. False when the client left meanwhile. Synchronous unless it has to wait: a tool
 * with nothing to wait for costs no promise.
 */
function runSideShow(core: EngineCore, ctx: RequestContext, tool: ToolSpec, scope: Record<string, unknown>): boolean | Promise<boolean> {
  const meta = (ctx.params._meta ?? {}) as Record<string, unknown>;
  const level = meta[META.logLevel];
  if (tool.log && typeof level === 'string') {
    for (const entry of tool.log) {
      if (levelAtLeast(entry.level, level))
        ctx.notify('notifications/message', { level: entry.level, ...(entry.logger ? { logger: entry.logger } : {}), data: fillTemplate(entry.data, scope) });
    }
  }
  const delay = fillNumber(tool.delayMs, scope, 0);
  if (tool.progress || delay > 0) return waitSideShow(core, ctx, tool, meta.progressToken, delay);
  broadcastChanges(core, tool);
  return true;
}

/** The waiting part of {@link runSideShow}: progress steps, then the delay. */
async function waitSideShow(core: EngineCore, ctx: RequestContext, tool: ToolSpec, token: unknown, delay: number): Promise<boolean> {
  if (tool.progress && (typeof token === 'string' || typeof token === 'number')) {
    for (const step of tool.progress.steps) {
      if (!(await sleepUnlessAborted(core.clock, tool.progress.intervalMs, ctx.signal))) return false;
      ctx.notify('notifications/progress', { progressToken: token, ...step });
    }
  } else if (tool.progress) {
    if (!(await sleepUnlessAborted(core.clock, tool.progress.intervalMs * tool.progress.steps.length, ctx.signal))) return false;
  }
  if (delay > 0 && !(await sleepUnlessAborted(core.clock, delay, ctx.signal))) return false;
  broadcastChanges(core, tool);
  return true;
}

function broadcastChanges(core: EngineCore, tool: ToolSpec): void {
  for (const kind of tool.emit ?? [])
    core.broadcast(kind, `notifications/${kind === 'toolsListChanged' ? 'tools' : kind === 'promptsListChanged' ? 'prompts' : 'resources'}/list_changed`);
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
  return route(CallToolParamsParser, (ctx, p) => callTool(core, ctx, tasks, p), unknownTool);
}

/** tools/call, for a known tool, with its params parsed. Synchronous unless the tool waits (MRTR, a task, a delay). */
function callTool(core: EngineCore, ctx: RequestContext, tasks: TaskManager, params: CallToolParams): Outcome | Promise<Outcome> {
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
  const call: ToolCall = { core, ctx, tasks, tool, args, wantsTask, progressToken: ((ctx.params._meta ?? {}) as Record<string, unknown>).progressToken };
  if (!tool.mrtr) return afterInput(call, {});
  return runMrtr(core, ctx, tool.mrtr.rounds, { args, inputs: {}, progressToken: call.progressToken }).then((m) => {
    if (!m.done) return 'outcome' in m ? m.outcome : ok({ resultType: 'complete', ...fillTemplate(m.result, { args, inputs: m.inputs }) });
    return afterInput(call, m.inputs);
  });
}

/** One tools/call once its arguments and capabilities passed. */
interface ToolCall {
  core: EngineCore;
  ctx: RequestContext;
  tasks: TaskManager;
  tool: ToolSpec;
  args: Record<string, unknown>;
  wantsTask: boolean;
  progressToken: unknown;
}

/** tools/call once any MRTR rounds are answered: a handler, a task, or the side show and the result. */
function afterInput(call: ToolCall, inputs: Record<string, unknown>): Outcome | Promise<Outcome> {
  const { core, ctx, tool, args } = call;
  if (tool.handler) {
    // A scenario file names the handler: `constructor` must not find Object's.
    const handler = Object.hasOwn(HANDLERS, tool.handler) ? HANDLERS[tool.handler] : undefined;
    if (!handler) return fail(ERROR.internalError, `Failed to call ${tool.name}: unknown handler "${tool.handler}"`);
    return handler(core, ctx, tool, args);
  }
  if (tool.task && call.wantsTask) return startTask(call, tool.task, inputs);
  const scope = () => ({ args, inputs, progressToken: call.progressToken });
  const shown = runSideShow(core, ctx, tool, scope());
  if (shown === true) return toolResult(core, ctx, tool, scope);
  if (shown === false) return CANCELLED;
  return shown.then((done) => (done ? toolResult(core, ctx, tool, scope) : CANCELLED));
}

const NO_CONTENT = Object.freeze({ content: Object.freeze([]) });
const CANCELLED = fail(ERROR.internalError, 'Request cancelled');

/** A task-augmented call: the task's handle, or its result when its one step finished it at once. */
async function startTask(call: ToolCall, spec: NonNullable<ToolSpec['task']>, inputs: Record<string, unknown>): Promise<Outcome> {
  const { ctx, tool, args } = call;
  const refused = refusedTaskInput(tool, ctx.caps);
  if (refused) return refused;
  const rec = await call.tasks.create(ctx, tool, args, inputs);
  const snap = call.tasks.snapshot(rec);
  if (isTerminal(rec) && spec.steps.length === 1) return ok({ resultType: 'complete', ...(rec.result as Record<string, unknown>) });
  const { inputRequests: _i, result: _r, error: _e, ...handle } = snap;
  return ok({ resultType: 'task', ...handle });
}

/** The answer of a tool without a handler: its inline task script, its error or its result. */
function toolResult(core: EngineCore, ctx: RequestContext, tool: ToolSpec, scope: () => Record<string, unknown>): Outcome | Promise<Outcome> {
  if (tool.task) return runInline(core, ctx, tool, scope());
  if (tool.error) return fail(tool.error.code, fillTemplate(tool.error.message, scope()), tool.error.data);
  const result = tool.result ? fillScenarioTemplate(tool.result, scope()) : NO_CONTENT;
  // The template itself comes back only when it has no placeholder: deep-frozen, the same every call.
  if (result === tool.result || result === NO_CONTENT) return ok(constantComplete(result));
  return ok({ resultType: 'complete', ...result });
}
