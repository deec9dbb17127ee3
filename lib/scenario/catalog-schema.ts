import { z } from 'zod';
import { JsonObjectSchema, MrtrSpecSchema } from './behavior-schema';
import { PromptMessageSchema } from './content-schema';

/**
 * What a scenario lists besides tools: resources (with MCP Apps views), resource templates,
 * prompts and completions. Strict objects, so a typo is an error; the open parts (`_meta`,
 * annotations, icons) follow the protocol's own shapes and are sent as written.
 */

const Json = JsonObjectSchema;
const domains = (what: string) => z.array(z.string()).optional().describe(`Origins allowed for ${what}, e.g. https://api.example.com; default: none.`);
const permission = (what: string) => z.strictObject({}).optional().describe(`Ask for ${what}; write {} to ask.`);
// Open on purpose: icon objects (src, mimeType, sizes, theme) are the protocol's, sent as written.
const icons = z.array(Json).optional().describe('Icons shown by clients: { src, mimeType?, sizes?, theme? } objects, sent as written.');
const meta = Json.optional().describe('_meta sent with the entry, as written (extension keys such as io.modelcontextprotocol/...).');

/** MCP Apps metadata of a `ui://` resource, served as its `_meta.ui` (domain lists default to empty). */
const ResourceUiSpecSchema = z
  .strictObject({
    csp: z
      .strictObject({
        connectDomains: domains('fetch, XHR and WebSocket'),
        resourceDomains: domains('scripts, styles, images, fonts and media'),
        frameDomains: domains('nested iframes'),
        baseUriDomains: domains('the document base URI'),
      })
      .optional()
      .describe('Content Security Policy of the view. The engine always serves all four lists, empty unless declared, so hosts allow nothing external.'),
    permissions: z
      .strictObject({
        camera: permission('the camera'),
        microphone: permission('the microphone'),
        geolocation: permission('the location'),
        clipboardWrite: permission('writing to the clipboard'),
      })
      .optional()
      .describe('Browser features the view asks the host for, e.g. { clipboardWrite: {} }.'),
    domain: z.string().optional().describe('A dedicated origin the host should serve the view from, when it supports one.'),
    prefersBorder: z.boolean().optional().describe('Whether the view would like the host to draw a border around it.'),
  })
  .describe('MCP Apps: CSP domains and permissions of this ui:// resource, served as its _meta.ui.');

/** A resource and its contents (text, blob, or a file next to the scenario). */
const ResourceSpecSchema = z.strictObject({
  uri: z.string().min(1).describe('The resource URI, e.g. notes://index or ui://app/view.html (an MCP Apps view).'),
  name: z.string().describe('Programmatic name shown in resources/list.'),
  title: z.string().optional().describe('Human-readable title.'),
  description: z.string().optional().describe('What the resource holds, for the model and the user.'),
  mimeType: z.string().optional().describe('MIME type of the contents; default for ui:// resources: text/html;profile=mcp-app.'),
  size: z.number().int().min(0).optional().describe('Size in bytes, as listed (informational).'),
  // Open on purpose: resource annotations (audience, priority, lastModified) are sent as written.
  annotations: Json.optional().describe('Annotations (audience, priority, lastModified), sent as written.'),
  icons,
  text: z.string().optional().describe('Text contents returned by resources/read.'),
  blob: z.string().optional().describe('Binary contents, base64-encoded; give text, blob or file, not two of them.'),
  file: z.string().optional().describe('Read the text contents from this file, relative to the scenario file and inside its folder (CLI and server only).'),
  _meta: meta,
  ui: ResourceUiSpecSchema.optional(),
  mrtr: MrtrSpecSchema.optional().describe('Ask for input before resources/read answers; the contents may use {{inputs.key.content.field}} placeholders.'),
});
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;

/** A resource template and the text a matching URI reads as. */
const ResourceTemplateSpecSchema = z.strictObject({
  uriTemplate: z.string().describe('RFC 6570 URI template, e.g. notes://{id}; each {name} matches one path segment.'),
  name: z.string().describe('Programmatic name shown in resources/templates/list.'),
  title: z.string().optional().describe('Human-readable title.'),
  description: z.string().optional().describe('What the matching resources hold.'),
  mimeType: z.string().optional().describe('MIME type of the contents of a matching URI.'),
  // Open on purpose: resource annotations are sent as written.
  annotations: Json.optional().describe('Annotations (audience, priority, lastModified), sent as written.'),
  icons,
  _meta: meta,
  text: z.string().optional().describe('Text a matching URI reads as; {{vars.name}} fills the template variables. Default: empty.'),
});
export type ResourceTemplateSpec = z.infer<typeof ResourceTemplateSpecSchema>;

const PromptArgumentSchema = z.strictObject({
  name: z.string().describe('Argument name; prompts/get passes it in arguments.'),
  title: z.string().optional().describe('Human-readable title.'),
  description: z.string().optional().describe('What the argument is for.'),
  required: z.boolean().optional().describe('prompts/get without it is answered -32602; default: false.'),
});

const PromptSpecSchema = z.strictObject({
  name: z.string().min(1).describe('Prompt name, unique in the scenario.'),
  title: z.string().optional().describe('Human-readable title.'),
  description: z.string().optional().describe('What the prompt does; also returned by prompts/get.'),
  icons,
  _meta: meta,
  arguments: z.array(PromptArgumentSchema).optional().describe('Arguments the prompt takes.'),
  messages: z
    .array(PromptMessageSchema)
    .min(1)
    .describe('Messages returned by prompts/get: { role: user|assistant, content: { type: text, text } }; may use {{args.x}} and {{inputs...}} placeholders.'),
  mrtr: MrtrSpecSchema.optional().describe('Ask for input before prompts/get answers; the messages may use {{inputs.key.content.field}} placeholders.'),
});

const CompletionSpecSchema = z.strictObject({
  ref: z
    .strictObject({
      type: z.enum(['ref/prompt', 'ref/resource']).describe('Complete an argument of a prompt (ref/prompt) or a resource template variable (ref/resource).'),
      name: z.string().optional().describe('The prompt name, for ref/prompt.'),
      uri: z.string().optional().describe('The resource template, for ref/resource.'),
    })
    .describe('What is being completed.'),
  argument: z.string().describe('Name of the argument or template variable.'),
  values: z
    .array(z.string())
    .describe('Candidate values; completion/complete returns those starting with what the user typed (case-insensitive), at most 100.'),
});

/** The catalogue fields of a scenario. */
export const CatalogShape = {
  resources: z.array(ResourceSpecSchema).default([]).describe('Resources served by resources/list and resources/read, including ui:// views.'),
  resourceTemplates: z.array(ResourceTemplateSpecSchema).default([]).describe('Resource templates: URIs matching a template read as its text.'),
  prompts: z.array(PromptSpecSchema).default([]).describe('Prompts served by prompts/list and prompts/get.'),
  completions: z.array(CompletionSpecSchema).default([]).describe('Canned answers for completion/complete.'),
};
