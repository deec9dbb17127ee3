import { LegacyToolExecutionSchema, type HeaderBinding, type InputResponses, type Tool } from '../protocol';
import type { Connection, RequestOptions } from './connection-types';
import { filterTools, type DroppedTool } from './request-builder';
import { inSlices, yieldToEventLoop } from './yield-slices';
import { classifyRetry, type RequestOutcome } from './results';

/**
 * Discovery, tool listing and tool calls. The tool list is cached because a call needs the
 * tool's `x-mcp-header` bindings to send its `Mcp-Param-*` headers; tools whose annotations
 * are invalid are dropped from the list (with a warning) and refused locally.
 */

export interface CallToolOptions extends Omit<RequestOptions, 'declareTasks' | 'bindings'> {
  /** Call as a task: declare the tasks extension (2026-07-28) or send `params.task` (2025-11-25). */
  task?: boolean;
  /** 2025-11-25 only: how long the server should keep the task. */
  ttlMs?: number;
  /** MRTR retry fields, exactly as the previous round returned them. */
  inputResponses?: InputResponses;
  requestState?: string;
}

interface ToolList {
  outcome: RequestOutcome;
  tools: Tool[];
  dropped: DroppedTool[];
}

/** The tool operations of a session: discover, list (with the header bindings) and call. */
export interface ToolApi {
  discover(options?: RequestOptions): Promise<RequestOutcome>;
  /** All pages of tools/list; invalid tools dropped. */
  listTools(options?: RequestOptions): Promise<ToolList>;
  /** A tool from the last list, if kept. */
  tool(name: string): Tool | undefined;
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<RequestOutcome>;
}

/** Pages followed before giving up on a server whose cursors never end (100,000 tools at 100 per page fit). */
const MAX_PAGES = 1000;

/** Dropped tools named one by one in the warnings; the rest are counted. */
const MAX_DROP_WARNINGS = 20;

/** filterTools over a long list in slices that yield to the event loop (100,000 tools stay off one long task). */
async function filterInSlices(all: readonly unknown[]): Promise<{ tools: Tool[]; dropped: DroppedTool[]; bindings: Map<string, HeaderBinding[]> }> {
  const out = { tools: [] as Tool[], dropped: [] as DroppedTool[], bindings: new Map<string, HeaderBinding[]>() };
  await inSlices(all, (chunk) => {
    const f = filterTools(chunk);
    for (const t of f.tools) out.tools.push(t);
    for (const d of f.dropped) out.dropped.push(d);
    for (const [k, v] of f.bindings) out.bindings.set(k, v);
  });
  return out;
}

/** Create the tool operations over a connection. */
export function createToolApi(conn: Connection): ToolApi {
  let cache: { tools: Tool[]; dropped: DroppedTool[]; bindings: Map<string, HeaderBinding[]> } | undefined;

  async function listTools(options: RequestOptions = {}): Promise<ToolList> {
    const all: unknown[] = [];
    let cursor: string | undefined;
    let last: RequestOutcome = { type: 'complete', result: {} };
    for (let page = 0; page < MAX_PAGES; page++) {
      last = await conn.request('tools/list', cursor ? { cursor } : undefined, options);
      if (last.type !== 'complete') return { outcome: last, tools: [], dropped: [] };
      const r = last.result as { tools?: unknown; nextCursor?: unknown };
      if (!Array.isArray(r.tools)) return { outcome: { type: 'invalid', reason: 'tools/list result has no tools array', result: r }, tools: [], dropped: [] };
      // One at a time: a spread of a 100,000-item page would overflow the argument limit.
      for (const t of r.tools) all.push(t);
      cursor = typeof r.nextCursor === 'string' && r.nextCursor ? r.nextCursor : undefined;
      if (!cursor) break;
      await yieldToEventLoop();
    }
    if (conn.era === 'legacy') {
      // Header bindings are a 2026-07-28 rule; older servers' tools are kept as they are.
      const f = await filterInSlices(all);
      const kept = all.filter((t) => t && typeof t === 'object' && typeof (t as Tool).name === 'string') as Tool[];
      cache = { tools: kept, dropped: [], bindings: new Map(kept.map((t) => [t.name, f.bindings.get(t.name) ?? []])) };
    } else {
      const f = await filterInSlices(all);
      // Each warning is a store update: a list of thousands of broken tools gets a few and a count.
      for (const d of f.dropped.slice(0, MAX_DROP_WARNINGS)) conn.warn(`Dropped tool "${d.name}" from tools/list: ${d.reason}`);
      if (f.dropped.length > MAX_DROP_WARNINGS) conn.warn(`Dropped tool … and ${f.dropped.length - MAX_DROP_WARNINGS} more from tools/list`);
      cache = f;
    }
    return { outcome: last, tools: cache.tools, dropped: cache.dropped };
  }

  async function callTool(name: string, args: Record<string, unknown> = {}, options: CallToolOptions = {}): Promise<RequestOutcome> {
    const { task, ttlMs, inputResponses, requestState, ...rest } = options;
    if (!conn.era) {
      const c = await conn.connect(options.signal);
      if (!conn.era) return c.type === 'failure' ? c : { type: 'failure', reason: 'local', message: 'Failed to connect before calling the tool' };
    }
    if (!cache) {
      const listed = await listTools({ signal: options.signal });
      if (listed.outcome.type !== 'complete') conn.warn(`tools/list failed before calling ${name}; calling it without header bindings`);
    }
    const dropped = cache?.dropped.find((d) => d.name === name);
    if (dropped) return { type: 'failure', reason: 'local', message: `Tool "${name}" was dropped from tools/list and is not called: ${dropped.reason}` };
    const tool = cache?.tools.find((t) => t.name === name);
    const params: Record<string, unknown> = { name, arguments: args };
    if (inputResponses !== undefined) params.inputResponses = inputResponses;
    if (requestState !== undefined) params.requestState = requestState;
    if (task && conn.era === 'legacy') {
      const exec = LegacyToolExecutionSchema.safeParse((tool as Record<string, unknown> | undefined)?.execution ?? {});
      const support = exec.success ? exec.data.taskSupport : undefined;
      if (support !== 'optional' && support !== 'required') {
        return {
          type: 'failure',
          reason: 'local',
          message: `Tool "${name}" does not support task-augmented calls (execution.taskSupport is ${support ?? 'absent'})`,
        };
      }
      params.task = ttlMs !== undefined ? { ttl: ttlMs } : {};
    }
    const hints = tool?.annotations ?? {};
    const retry =
      rest.retry ??
      classifyRetry('tools/call', {
        readOnly: hints.readOnlyHint === true,
        idempotent: hints.idempotentHint === true,
        idempotencyKey: typeof args.idempotencyKey === 'string' ? args.idempotencyKey : undefined,
      });
    return conn.request('tools/call', params, { ...rest, retry, declareTasks: !!task, bindings: cache?.bindings.get(name) ?? [] });
  }

  return {
    discover: (options) => conn.request('server/discover', undefined, options),
    listTools,
    tool: (name) => cache?.tools.find((t) => t.name === name),
    callTool,
  };
}
