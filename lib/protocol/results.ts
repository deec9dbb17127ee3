import { z } from 'zod';

/** The `subscriptions/listen` filter and the `resultType` discriminator of results. */

/** `subscriptions/listen` filter. */
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
  taskIds: z.array(z.string()).optional(),
});
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/** Read `resultType`, treating absence as `complete` (older servers). */
export function resultTypeOf(result: Record<string, unknown>): string {
  const t = result.resultType;
  return typeof t === 'string' ? t : 'complete';
}

/**
 * A `server/discover` result (2026-07-28 server/discover, DiscoverResult extends CacheableResult).
 * A dual-era client takes a server as modern only on a result that parses here: a legacy server
 * answering unknown methods with `{}` must not pass. `ttlMs`/`cacheScope` are checked when
 * present; their absence is a caching lint, not a reason to speak the wrong era.
 */
export const DiscoverResultSchema = z.looseObject({
  resultType: z.literal('complete').optional(),
  supportedVersions: z.array(z.string()).min(1),
  capabilities: z.record(z.string(), z.unknown()),
  instructions: z.string().optional(),
  ttlMs: z.number().int().min(0).optional(),
  cacheScope: z.enum(['public', 'private']).optional(),
});
