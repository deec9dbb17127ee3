import { z } from 'zod';

/** Content blocks, resources, tools and prompts as they appear in 2026-07-28 results. */

const Meta = z.record(z.string(), z.unknown()).optional();
const Annotations = z.looseObject({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
}).optional();

export const TextContentSchema = z.looseObject({ type: z.literal('text'), text: z.string(), annotations: Annotations, _meta: Meta });
export const ImageContentSchema = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string(), annotations: Annotations, _meta: Meta });
export const AudioContentSchema = z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations: Annotations, _meta: Meta });

export const TextResourceContentsSchema = z.looseObject({ uri: z.string(), mimeType: z.string().optional(), text: z.string(), _meta: Meta });
export const BlobResourceContentsSchema = z.looseObject({ uri: z.string(), mimeType: z.string().optional(), blob: z.string(), _meta: Meta });
export const ResourceContentsSchema = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

export const EmbeddedResourceSchema = z.looseObject({ type: z.literal('resource'), resource: ResourceContentsSchema, annotations: Annotations, _meta: Meta });
export const ResourceLinkSchema = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: Annotations,
  _meta: Meta,
});
export const ToolUseContentSchema = z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) });
export const ToolResultContentSchema = z.looseObject({ type: z.literal('tool_result'), toolUseId: z.string(), content: z.array(z.unknown()), isError: z.boolean().optional() });

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  EmbeddedResourceSchema,
  ResourceLinkSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

export const ToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  outputSchema: z.looseObject({ type: z.literal('object') }).optional(),
  annotations: ToolAnnotationsSchema.optional(),
  icons: z.array(z.unknown()).optional(),
  _meta: Meta,
});
export type Tool = z.infer<typeof ToolSchema>;

export const CallToolResultSchema = z.looseObject({
  content: z.array(ContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
  _meta: Meta,
});
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

export const ResourceSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  annotations: Annotations,
  _meta: Meta,
});
export const ResourceTemplateSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: Annotations,
  _meta: Meta,
});

export const PromptArgumentSchema = z.looseObject({ name: z.string(), title: z.string().optional(), description: z.string().optional(), required: z.boolean().optional() });
export const PromptSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  _meta: Meta,
});
export const PromptMessageSchema = z.looseObject({ role: z.enum(['user', 'assistant']), content: ContentBlockSchema });
export const GetPromptResultSchema = z.looseObject({ description: z.string().optional(), messages: z.array(PromptMessageSchema) });
