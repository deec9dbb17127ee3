import { z } from 'zod';
import type { RequestOptions } from './connection-types';
import type { RequestOutcome } from './results';

/**
 * One page of a paginated list (resources/list, resources/templates/list, prompts/list): the
 * items that parse, how many did not, the `nextCursor` to ask for the next page with, and the
 * caching hints 2026-07-28 puts at the top level of the result (`ttlMs`, `cacheScope`), shown as
 * sent so an old server's missing hints stay visible as missing.
 */

/** What a list page needs of a session: its tracked `request`, so the page lands on the timeline. */
export type Requester = (method: string, params?: Record<string, unknown>, options?: RequestOptions) => Promise<RequestOutcome>;

/** The caching hints of a result, when it carries them. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: string;
}

export interface ListPage<T> {
  outcome: RequestOutcome;
  items: T[];
  /** Entries that did not parse (missing name, uri...): counted, not shown. */
  skipped: number;
  nextCursor?: string;
  cache: CacheHints;
}

/** The caching hints of a result, as sent (a non-integer ttlMs or unknown scope is dropped). */
export function cacheHintsOf(result: Record<string, unknown>): CacheHints {
  const ttl = z.number().int().safeParse(result.ttlMs);
  const scope = z.string().safeParse(result.cacheScope);
  return { ...(ttl.success ? { ttlMs: ttl.data } : {}), ...(scope.success ? { cacheScope: scope.data } : {}) };
}

/** Ask for one page of `method`, whose result holds its items under `key`. */
export async function listPage<T>(
  request: Requester,
  method: string,
  key: string,
  schema: z.ZodType<T>,
  cursor?: string,
  options?: RequestOptions,
): Promise<ListPage<T>> {
  const outcome = await request(method, cursor ? { cursor } : undefined, options);
  if (outcome.type !== 'complete') return { outcome, items: [], skipped: 0, cache: {} };
  const raw = outcome.result[key];
  if (!Array.isArray(raw))
    return { outcome: { type: 'invalid', reason: `${method} result has no ${key} array`, result: outcome.result }, items: [], skipped: 0, cache: {} };
  const items: T[] = [];
  for (const entry of raw) {
    const parsed = schema.safeParse(entry);
    if (parsed.success) items.push(parsed.data);
  }
  const next = outcome.result.nextCursor;
  return {
    outcome,
    items,
    skipped: raw.length - items.length,
    ...(typeof next === 'string' && next ? { nextCursor: next } : {}),
    cache: cacheHintsOf(outcome.result),
  };
}
