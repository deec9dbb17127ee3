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
