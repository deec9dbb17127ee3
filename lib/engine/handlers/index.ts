import type { ToolSpec } from '../../scenario/schema';
import type { EngineCore, Outcome, RequestContext } from '../context';

/** A built-in tool behaviour a scenario can name with `handler:`. */
export type Handler = (core: EngineCore, ctx: RequestContext, tool: ToolSpec, args: Record<string, unknown>) => Promise<Outcome>;

/** Registry of built-in handlers by name. */
export const HANDLERS: Record<string, Handler> = {};
