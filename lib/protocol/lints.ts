import { checkElicitation } from './lints/elicitation';
import type { Lint } from './lints/model';
import { createReporter } from './lints/rules';

/**
 * Live lints: checks of the 2026-07-28 wire rules on every exchange, each finding with the
 * spec section it enforces. `lintExchange` looks at one exchange (plus what the context says
 * about earlier ones); `lintAll` walks a session in order and adds the rules that need a
 * sequence (MRTR conversations, poll cadence, terminal task states, paged cache scopes).
 */

export { ExchangeSchema, LintContextSchema, LintSchema } from './lints/model';
export type { Exchange, Lint, LintContext } from './lints/model';
export { LINT_RULES, specUrl, type LintId } from './lints/rules';
export { secretHint } from './lints/elicitation';
export { createLintSession, lintAll, type LintSession } from './lints/sequence';
export type { SchemaFailure, SchemaValidator } from './lints/schemas';
export { lintExchange } from './lints/exchange';

/** Lint one elicitation/create input request on its own (for the elicitation panel). */
export function lintElicitation(params: Record<string, unknown>): Lint[] {
  const out: Lint[] = [];
  checkElicitation(params, 'params', createReporter(out));
  return out;
}
