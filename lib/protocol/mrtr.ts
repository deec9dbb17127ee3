import { z } from 'zod';
import { codePoints, FORMAT_EXAMPLES, matchesFormat, TEXT_FORMATS } from './string-formats';

/** MRTR input requests and responses: elicitation (form and URL), sampling and roots. */

const StringProp = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  minLength: z.number().int().optional(),
  maxLength: z.number().int().optional(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  default: z.string().optional(),
});
const NumberProp = z.looseObject({
  type: z.enum(['number', 'integer']),
  title: z.string().optional(),
  description: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
const BooleanProp = z.looseObject({
  type: z.literal('boolean'),
  title: z.string().optional(),
  description: z.string().optional(),
  default: z.boolean().optional(),
});
const UntitledEnum = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.string()),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});
const TitledEnum = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  oneOf: z.array(z.object({ const: z.string(), title: z.string() })),
  default: z.string().optional(),
});
const MultiEnum = z.looseObject({
  type: z.literal('array'),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  items: z.union([
    z.object({ type: z.literal('string'), enum: z.array(z.string()) }),
    z.object({ anyOf: z.array(z.object({ const: z.string(), title: z.string() })) }),
  ]),
  default: z.array(z.string()).optional(),
});

/** A property of a form-mode `requestedSchema` (flat, primitives and enums only). */
export const PrimitiveSchemaDefinitionSchema = z.union([TitledEnum, UntitledEnum, MultiEnum, StringProp, NumberProp, BooleanProp]);

/** A form elicitation's `requestedSchema`: a flat object of primitive properties. */
export const RequestedSchemaSchema = z.looseObject({
  $schema: z.string().optional(),
  type: z.literal('object'),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
  required: z.array(z.string()).optional(),
});
export type RequestedSchema = z.infer<typeof RequestedSchemaSchema>;

const ElicitFormParamsSchema = z.looseObject({ mode: z.literal('form').optional(), message: z.string(), requestedSchema: RequestedSchemaSchema });
const ElicitUrlParamsSchema = z.looseObject({ mode: z.literal('url'), message: z.string(), url: z.string().url() });
const ElicitParamsSchema = z.union([ElicitUrlParamsSchema, ElicitFormParamsSchema]);

/** The answer to an elicitation/create request. */
const ElicitResultSchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

const SamplingMessageSchema = z.looseObject({ role: z.enum(['user', 'assistant']), content: z.unknown() });
const CreateMessageParamsSchema = z.looseObject({
  messages: z.array(SamplingMessageSchema),
  maxTokens: z.number().int(),
  modelPreferences: z.looseObject({}).optional(),
  systemPrompt: z.string().optional(),
  includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  tools: z.array(z.unknown()).optional(),
  toolChoice: z.looseObject({ mode: z.enum(['auto', 'required', 'none']) }).optional(),
});
const CreateMessageResultSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.unknown(),
  model: z.string(),
  stopReason: z.string().optional(),
});

const RootSchema = z.looseObject({ uri: z.string().startsWith('file://'), name: z.string().optional() });
const ListRootsResultSchema = z.looseObject({ roots: z.array(RootSchema) });

/** One input request (no id, no jsonrpc). */
export const InputRequestSchema = z.discriminatedUnion('method', [
  z.looseObject({ method: z.literal('elicitation/create'), params: ElicitParamsSchema }),
  z.looseObject({ method: z.literal('sampling/createMessage'), params: CreateMessageParamsSchema }),
  z.looseObject({ method: z.literal('roots/list'), params: z.record(z.string(), z.unknown()).optional() }),
]);
type InputRequest = z.infer<typeof InputRequestSchema>;
/** `inputRequests` of an input_required result or a task: input requests by key. */
export const InputRequestsSchema = z.record(z.string(), InputRequestSchema);
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** Input responses are validated per key against the request they answer. */
export const InputResponsesSchema = z.record(z.string(), z.unknown(), { error: 'inputResponses must be an object keyed by input request' });
export type InputResponses = z.infer<typeof InputResponsesSchema>;

/** An `input_required` result: the input requests to answer, and the state to send back with the answers. */
export const InputRequiredResultSchema = z
  .looseObject({
    resultType: z.literal('input_required'),
    inputRequests: InputRequestsSchema.optional(),
    requestState: z.string().optional(),
  })
  .refine((r) => r.inputRequests !== undefined || r.requestState !== undefined, { message: 'input_required needs inputRequests or requestState' });

/** Schema that validates the answer to a given input request method. */
export function responseSchemaFor(method: InputRequest['method']): z.ZodType {
  if (method === 'elicitation/create') return ElicitResultSchema;
  if (method === 'sampling/createMessage') return CreateMessageResultSchema;
  return ListRootsResultSchema;
}

/** Validate accepted form content against a flat requested schema; returns problems, empty when valid. */
export function validateFormContent(schema: RequestedSchema, content: Record<string, unknown> | undefined): string[] {
  const problems: string[] = [];
  const c = content ?? {};
  for (const key of schema.required ?? []) if (c[key] === undefined) problems.push(`"${key}" is required`);
  for (const [key, value] of Object.entries(c)) {
    const prop = schema.properties[key] as Record<string, unknown> | undefined;
    if (!prop || value === undefined) continue;
    const t = prop.type;
    if (t === 'string') {
      if (typeof value !== 'string') {
        problems.push(`"${key}" must be a string`);
        continue;
      }
      const allowed = Array.isArray(prop.enum)
        ? (prop.enum as string[])
        : Array.isArray(prop.oneOf)
          ? (prop.oneOf as { const: string }[]).map((o) => o.const)
          : undefined;
      if (allowed && !allowed.includes(value)) problems.push(`"${key}" must be one of ${allowed.join(', ')}`);
      const format = TEXT_FORMATS.find((f) => f === prop.format);
      if (format && !matchesFormat(format, value)) problems.push(`"${key}" must be ${FORMAT_EXAMPLES[format]} (format ${format})`);
      const length = codePoints(value);
      if (typeof prop.minLength === 'number' && length < prop.minLength) problems.push(`"${key}" is shorter than ${prop.minLength}`);
      if (typeof prop.maxLength === 'number' && length > prop.maxLength) problems.push(`"${key}" is longer than ${prop.maxLength}`);
    } else if (t === 'number' || t === 'integer') {
      if (typeof value !== 'number' || (t === 'integer' && !Number.isInteger(value))) {
        problems.push(`"${key}" must be ${t === 'integer' ? 'an integer' : 'a number'}`);
        continue;
      }
      if (typeof prop.minimum === 'number' && value < prop.minimum) problems.push(`"${key}" is below ${prop.minimum}`);
      if (typeof prop.maximum === 'number' && value > prop.maximum) problems.push(`"${key}" is above ${prop.maximum}`);
    } else if (t === 'boolean') {
      if (typeof value !== 'boolean') problems.push(`"${key}" must be a boolean`);
    } else if (t === 'array') {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
        problems.push(`"${key}" must be an array of strings`);
        continue;
      }
      const items = prop.items as { enum?: unknown; anyOf?: unknown } | undefined;
      const allowed = Array.isArray(items?.enum)
        ? (items.enum as string[])
        : Array.isArray(items?.anyOf)
          ? (items.anyOf as { const: string }[]).map((o) => o.const)
          : undefined;
      const stray = allowed ? value.filter((v) => !allowed.includes(v as string)) : [];
      if (allowed && stray.length) problems.push(`"${key}" may hold only ${allowed.join(', ')} (not ${stray.join(', ')})`);
      if (typeof prop.minItems === 'number' && value.length < prop.minItems) problems.push(`"${key}" has fewer than ${prop.minItems} items`);
      if (typeof prop.maxItems === 'number' && value.length > prop.maxItems) problems.push(`"${key}" has more than ${prop.maxItems} items`);
    }
  }
  return problems;
}
