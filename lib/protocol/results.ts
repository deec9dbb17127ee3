import { z } from 'zod';
import { META } from './constants';
import { ImplementationSchema, ServerCapabilitiesSchema } from './meta';
import { ToolSchema, ResourceSchema, ResourceTemplateSchema, PromptSchema, ResourceContentsSchema } from './content';

/** `resultType` discriminator and the cacheable / discover / list result shapes. */

export const ResultTypeSchema = z.string();
export const CacheScopeSchema = z.enum(['public', 'private']);
export type CacheScope = z.infer<typeof CacheScopeSchema>;

/** Fields every cacheable `complete` result carries. */
export const CacheableFieldsSchema = z.object({ ttlMs: z.number().int().min(0), cacheScope: CacheScopeSchema });

const ResultMeta = z.looseObject({ [META.serverInfo]: ImplementationSchema.optional() }).optional();

export const DiscoverResultSchema = z.looseObject({
  resultType: z.literal('complete'),
  supportedVersions: z.array(z.string()).min(1),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.string().optional(),
  ttlMs: z.number().int().min(0),
  cacheScope: CacheScopeSchema,
  _meta: ResultMeta,
});
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

const Paged = { nextCursor: z.string().optional() };
const Cacheable = { resultType: z.literal('complete'), ttlMs: z.number().int().min(0), cacheScope: CacheScopeSchema, _meta: ResultMeta };

export const ListToolsResultSchema = z.looseObject({ ...Cacheable, ...Paged, tools: z.array(ToolSchema) });
export const ListResourcesResultSchema = z.looseObject({ ...Cacheable, ...Paged, resources: z.array(ResourceSchema) });
export const ListResourceTemplatesResultSchema = z.looseObject({ ...Cacheable, ...Paged, resourceTemplates: z.array(ResourceTemplateSchema) });
export const ListPromptsResultSchema = z.looseObject({ ...Cacheable, ...Paged, prompts: z.array(PromptSchema) });
export const ReadResourceResultSchema = z.looseObject({ ...Cacheable, contents: z.array(ResourceContentsSchema) });

export const CompleteParamsSchema = z.looseObject({
  ref: z.union([
    z.looseObject({ type: z.literal('ref/prompt'), name: z.string() }),
    z.looseObject({ type: z.literal('ref/resource'), uri: z.string() }),
  ]),
  argument: z.object({ name: z.string(), value: z.string() }),
  context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
export const CompleteResultSchema = z.looseObject({
  resultType: z.literal('complete'),
  completion: z.object({ values: z.array(z.string()).max(100), total: z.number().int().optional(), hasMore: z.boolean().optional() }),
});

/** `subscriptions/listen` filter. */
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
  taskIds: z.array(z.string()).optional(),
});
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

export const ListenParamsSchema = z.looseObject({ notifications: SubscriptionFilterSchema });
export const AcknowledgedNotificationParamsSchema = z.looseObject({
  _meta: z.looseObject({ [META.subscriptionId]: z.union([z.string(), z.number()]) }),
  notifications: SubscriptionFilterSchema,
});

export const ProgressNotificationParamsSchema = z.looseObject({
  progressToken: z.union([z.string(), z.number()]),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});

export const LoggingMessageParamsSchema = z.looseObject({ level: z.string(), logger: z.string().optional(), data: z.unknown() });

/** Read `resultType`, treating absence as `complete` (older servers). */
export function resultTypeOf(result: Record<string, unknown>): string {
  const t = result.resultType;
  return typeof t === 'string' ? t : 'complete';
}
