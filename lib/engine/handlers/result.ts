import { ok, type Outcome } from '../context';

/** Small builders for the CallToolResult bodies the built-in handlers return. */

/** A completed tool result with one text block and optional structured content. */
export function toolResult(text: string, structuredContent?: Record<string, unknown>): Outcome {
  return ok({ resultType: 'complete', content: [{ type: 'text', text }], ...(structuredContent ? { structuredContent } : {}) });
}

/**
 * A tool-level error (`isError: true`): the call ran and refused, and the model can read why.
 * Protocol problems (malformed arguments, bad requestState) are JSON-RPC errors instead.
 */
export function toolError(text: string, structuredContent?: Record<string, unknown>): Outcome {
  return ok({ resultType: 'complete', content: [{ type: 'text', text }], ...(structuredContent ? { structuredContent } : {}), isError: true });
}
