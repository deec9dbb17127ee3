import { z } from 'zod';
import { closestKey } from './zod-issues';

/**
 * What a scenario returns to clients as content: content blocks, tool results (CallToolResult)
 * and prompt messages, in the shapes of the 2026-07-28 schema (TextContent, ImageContent,
 * AudioContent, ResourceLink, EmbeddedResource, CallToolResult, PromptMessage). They are strict
 * like the rest of the format: these are sent as written, so a typo (`txt:`, `structuredContnet:`)
 * or a wrong type (`text: 5`) would otherwise reach every client, which is right to refuse it.
 * Strings may hold `{{...}}` placeholders, filled when the result is sent.
 */

/** Open on purpose: `_meta` keys are extension names with values of their own. */
const MetaSchema = z
  .record(z.string(), z.unknown())
  .meta({ id: 'ContentMeta', description: '_meta sent with the block or result, as written (keys are extension names).' });
const meta = (what: string) => MetaSchema.optional().describe(`_meta of the ${what}, sent as written.`);

const AnnotationsSchema = z
  .strictObject({
    audience: z
      .array(z.enum(['user', 'assistant']))
      .optional()
      .describe('Who the content is for: user, assistant or both.'),
    priority: z.number().min(0).max(1).optional().describe('How important the content is, from 0 (least) to 1 (most).'),
    lastModified: z.string().optional().describe('When it last changed, as an ISO 8601 timestamp.'),
  })
  .meta({ id: 'ContentAnnotations', description: 'Hints for the client: audience, priority, lastModified.' });

const common = {
  annotations: AnnotationsSchema.optional().describe('Hints for the client about this block (audience, priority, lastModified).'),
  _meta: meta('content block'),
};
const type = <T extends string>(name: T) => z.literal(name).describe(`The content type: ${name}.`);
const mimeType = (what: string) => z.string().describe(`MIME type of the ${what}, e.g. ${what === 'image' ? 'image/png' : 'audio/wav'}.`);

/** The contents of an embedded resource: its uri and either text or a base64 blob. */
const ResourceContentsSchema = z
  .strictObject({
    uri: z.string().describe('URI of the resource.'),
    mimeType: z.string().optional().describe('MIME type of the contents.'),
    text: z.string().optional().describe('Text contents (give text or blob).'),
    blob: z.string().optional().describe('Binary contents, base64-encoded (give text or blob).'),
    _meta: meta('resource contents'),
  })
  .refine((r) => (r.text === undefined) !== (r.blob === undefined), { message: 'Give the resource either text or blob (one of them)' });

const BLOCKS = {
  text: z.strictObject({ type: type('text'), text: z.string().describe('The text; may use placeholders.'), ...common }),
  image: z.strictObject({ type: type('image'), data: z.string().describe('Base64-encoded image data.'), mimeType: mimeType('image'), ...common }),
  audio: z.strictObject({ type: type('audio'), data: z.string().describe('Base64-encoded audio data.'), mimeType: mimeType('audio'), ...common }),
  resource_link: z.strictObject({
    type: type('resource_link'),
    uri: z.string().describe('URI of the linked resource.'),
    name: z.string().describe('Programmatic name of the resource.'),
    title: z.string().optional().describe('Human-readable title.'),
    description: z.string().optional().describe('What the resource holds.'),
    mimeType: z.string().optional().describe('MIME type of the resource, if known.'),
    size: z.number().int().min(0).optional().describe('Size in bytes, if known.'),
    // Open on purpose: icon objects are the protocol's, sent as written (as everywhere in a scenario).
    icons: z.array(z.record(z.string(), z.unknown())).optional().describe('Icons: { src, mimeType?, sizes?, theme? } objects, sent as written.'),
    ...common,
  }),
  resource: z.strictObject({ type: type('resource'), resource: ResourceContentsSchema.describe('The embedded resource contents.'), ...common }),
};
const BLOCK_TYPES = Object.keys(BLOCKS);

/** The message for a block whose `type` names no content type (zod reports it without the value). */
function unknownType(input: unknown): string {
  const listed = `${BLOCK_TYPES.slice(0, -1).join(', ')} or ${BLOCK_TYPES.at(-1)}`;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return `Expected a content block: an object with type ${listed}`;
  const type = (input as { type?: unknown }).type;
  if (type === undefined) return `Missing required key "type": a content block is one of ${listed}`;
  const meant = typeof type === 'string' ? closestKey(type, BLOCK_TYPES) : undefined;
  return `Unknown content type ${JSON.stringify(type)}${meant ? ` (did you mean "${meant}"?)` : ''}; a content block is one of ${listed}`;
}

/** One content block: text, image, audio, resource_link or resource (an embedded resource). */
const ContentBlockSchema = z
  .discriminatedUnion('type', [BLOCKS.text, BLOCKS.image, BLOCKS.audio, BLOCKS.resource_link, BLOCKS.resource], {
    error: (issue) => (issue.code === 'invalid_union' ? unknownType(issue.input) : undefined),
  })
  .meta({ id: 'ContentBlock', description: 'A content block: text, image, audio, resource_link or resource, as the client receives it.' });

/**
 * A result a tool returns: a CallToolResult without resultType (the engine adds it, and a task
 * or an input request is a behaviour of its own, not a result).
 */
const toolResultSpec = z
  .strictObject({
    content: z
      .array(ContentBlockSchema)
      .default([])
      .describe('Content blocks (text, image, audio, resource_link, resource) as the client receives them; default: [].'),
    // Open on purpose: the tool's outputSchema, not this format, says what it holds.
    structuredContent: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Structured result, checked by clients against the tool outputSchema. A string that is exactly one placeholder keeps its value type.'),
    isError: z.boolean().optional().describe('true marks a tool-level error (the call ran but failed); default: false.'),
    _meta: meta('result'),
  })
  .meta({ id: 'ToolResult', description: 'A CallToolResult. Text may use {{args.name}} and {{inputs.key.content.field}} placeholders.' });
export interface ToolResultSpec extends z.output<typeof toolResultSpec> {}
export interface ToolResultSpecInput extends z.input<typeof toolResultSpec> {}
// Typed by name, so the declarations of every schema that holds a result refer to it instead of
// spelling out the content blocks again each time (scenario/schema.d.ts grew past 100 KB).
export const ToolResultSpecSchema: z.ZodType<ToolResultSpec, ToolResultSpecInput> = toolResultSpec;

/** One message prompts/get returns. */
const promptMessage = z
  .strictObject({
    role: z.enum(['user', 'assistant']).describe('Who says it: user or assistant.'),
    content: ContentBlockSchema.describe('What is said: a content block.'),
  })
  .meta({ id: 'PromptMessage', description: 'A prompt message: { role: user|assistant, content: a content block }; text may use placeholders.' });
export interface PromptMessageSpec extends z.output<typeof promptMessage> {}
export interface PromptMessageSpecInput extends z.input<typeof promptMessage> {}
/** Typed by name, as ToolResultSpecSchema is. */
export const PromptMessageSchema: z.ZodType<PromptMessageSpec, PromptMessageSpecInput> = promptMessage;
