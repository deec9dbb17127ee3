import type { z } from 'zod';
import { ERROR } from '../protocol';
import { fail, type Outcome, type RequestContext } from './context';

/**
 * One method of a dispatch table: a gate, the params schema (from lib/protocol) and the handler.
 * Params are parsed once, here, so a handler gets them typed and never checks their shape again.
 * The gate holds the answers that come before any params problem: a capability the method
 * needs, or that the thing the request names does not exist.
 */
/** What a route parses its params with: a zod schema, or one with a hand check in front (lib/protocol/fast-params.ts). */
interface ParamsParser<P> {
  safeParse(value: unknown): { success: true; data: P } | { success: false; error: z.ZodError<P> };
}

export interface Route<P = Record<string, unknown>> {
  /** An answer that comes before the params are checked, or undefined to go on. */
  gate?(ctx: RequestContext): Outcome | undefined;
  /** Without a schema the handler gets `ctx.params` as sent. */
  params?: ParamsParser<P>;
  handle(ctx: RequestContext, params: P): Outcome | Promise<Outcome>;
}

/** A route whose handler gets the params `schema` parsed. */
export function route<P extends Record<string, unknown>>(
  schema: ParamsParser<P>,
  handle: (ctx: RequestContext, params: P) => Outcome | Promise<Outcome>,
  gate?: (ctx: RequestContext) => Outcome | undefined,
): Route<P> {
  return { params: schema, handle, ...(gate ? { gate } : {}) };
}

/** A route that reads nothing from its params, or only names to look up. */
export function unchecked(handle: (ctx: RequestContext) => Outcome | Promise<Outcome>): Route {
  return { handle };
}

/**
 * The -32602 answer for params a schema refused: the first issue's message, which the
 * lib/protocol params schemas phrase for the wire. Issues come in the schema's key order, so
 * the first one is the field a handler would have checked first.
 */
function invalidParams<P>(error: z.ZodError<P>): Outcome {
  return fail(ERROR.invalidParams, `Invalid params: ${error.issues[0]?.message ?? 'malformed'}`);
}

/** Gate, parse, handle. */
export function runRoute<P>(r: Route<P>, ctx: RequestContext): Outcome | Promise<Outcome> {
  const gated = r.gate?.(ctx);
  if (gated) return gated;
  if (!r.params) return r.handle(ctx, ctx.params as P);
  const parsed = r.params.safeParse(ctx.params);
  return parsed.success ? r.handle(ctx, parsed.data) : invalidParams(parsed.error);
}
