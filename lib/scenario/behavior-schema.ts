import { z } from 'zod';
import { ToolResultSpecSchema } from './content-schema';

/**
 * The pieces a behaviour is made of: JSON-RPC errors, input requests, MRTR rounds, progress and
 * log side effects, and the results of content-schema.ts. Tools combine them in schema.ts, tasks in task-schema.ts,
 * prompts and resources (MRTR) in catalog-schema.ts. Text fields of results may use
 * `{{args.x}}` / `{{inputs.key.content.y}}` placeholders, filled from the call's arguments and
 * gathered input responses.
 *
 * Objects are strict (an unknown key is an error, so a typo cannot pass silently) except where
 * the format is open on purpose; each of those says why.
 */

/** Open on purpose: JSON Schema bodies, `_meta`, request params and the like follow their own specs. */
export const JsonObjectSchema = z.record(z.string(), z.unknown());
const Json = JsonObjectSchema;

/** One operand of a delay: a `{{...}}` placeholder or a non-negative number. */
const DELAY_OPERAND = String.raw`(?:\{\{\s*[\w.$-]+\s*\}\}|\d+(?:\.\d+)?)`;
/** The delay forms the engine computes (template.ts fillNumber): one operand, or two multiplied. */
const DELAY_FORM = new RegExp(String.raw`^\s*${DELAY_OPERAND}(?:\s*\*\s*${DELAY_OPERAND})?\s*$`);

/**
 * A delay in ms: a number, or a string computed from the arguments. Any other string used to be
 * accepted and then waited 0 ms at run time, so the forms the engine computes are checked here.
 */
export const DelaySchema = z.union([z.number().int().min(0), z.string()]).superRefine((value, ctx) => {
  if (typeof value === 'string' && !DELAY_FORM.test(value))
    ctx.addIssue({
      code: 'custom',
      message: `Expected a whole number of ms or a placeholder expression with at most one multiplication ("{{args.ms}}", "{{args.seconds}} * 1000"), received ${JSON.stringify(value)}`,
    });
});

/** A JSON-RPC error to answer with. */
export const RpcErrorSpecSchema = z
  .strictObject({
    code: z.number().int().describe('JSON-RPC error code, e.g. -32602 (invalid params) or -32603 (internal error).'),
    message: z.string().describe('Error message; may use {{args.x}} placeholders.'),
    data: z.unknown().optional().describe('Any JSON value sent as error.data.'),
  })
  .meta({ id: 'RpcError', description: 'A JSON-RPC error: code, message and optional data.' });

/** One input request inside an MRTR round or a task step. */
export const InputRequestSpecSchema = z
  .strictObject({
    method: z
      .enum(['elicitation/create', 'sampling/createMessage', 'roots/list'])
      .describe('What to ask the client: elicitation/create (form or URL), sampling/createMessage, or roots/list.'),
    // Open on purpose: the params are the request's own (message, requestedSchema, mode, url, messages, ...).
    params: Json.default({}).describe(
      'The request params as the client receives them. Elicitation: message plus requestedSchema (form mode) or mode: url, url and elicitationId. May use placeholders.',
    ),
  })
  .meta({ id: 'InputRequest', description: 'An input request sent to the client; its answer is available as {{inputs.<key>...}} afterwards.' });
export type InputRequestSpec = z.infer<typeof InputRequestSpecSchema>;

const inputRequests = z
  .record(z.string(), InputRequestSpecSchema)
  .describe('Input requests by key; the client answers each under the same key in inputResponses.');

/** What an elicitation answer leads to in an MRTR round. */
const OutcomeSpecSchema = z
  .union([
    z.strictObject({ result: ToolResultSpecSchema.describe('End the call with this result.') }),
    z.strictObject({ error: RpcErrorSpecSchema.describe('End the call with this JSON-RPC error.') }),
    z.strictObject({ continue: z.literal(true).describe('Go on to the next round as if the user had accepted.') }),
  ])
  .meta({ id: 'RoundOutcome', description: 'What happens next: { result: ... }, { error: ... } or { continue: true }.' });

/** One round of input requests before the result. */
const MrtrRoundSchema = z
  .strictObject({
    inputRequests: inputRequests.describe(
      'Input requests of this round, by key. The call answers input_required until every key has a response; only requests the client declared a capability for are sent.',
    ),
    onDecline: OutcomeSpecSchema.optional().describe('What a decline of any elicitation in this round does; default: continue.'),
    onCancel: OutcomeSpecSchema.optional().describe('What a cancel of any elicitation in this round does; default: continue.'),
    validate: z
      .boolean()
      .default(true)
      .describe('Check accepted form content against requestedSchema; content that does not match is answered -32602. Default: true.'),
  })
  .meta({ id: 'MrtrRound', description: 'One round trip: the client is sent input_required with these requests and retries the call with the answers.' });
export type MrtrRound = z.infer<typeof MrtrRoundSchema>;

/** MRTR for a tool, prompt or resource: the rounds asked before the answer. */
export const MrtrSpecSchema = z
  .strictObject({
    rounds: z
      .array(MrtrRoundSchema)
      .min(1)
      .describe(
        'The rounds, asked in order; each retry carries requestState and the answers so far. Answers are taken only for the round the requestState was issued for: sent without it, or for a later round, they are ignored and the round is asked.',
      ),
  })
  .meta({ id: 'Mrtr', description: 'Multi round-trip requests: ask for input (input_required) before answering.' });

/** Progress notifications of a direct (non-task) tool call. */
export const ProgressSpecSchema = z
  .strictObject({
    steps: z
      .array(
        z.strictObject({
          progress: z.number().describe('Progress so far, e.g. 1 of total.'),
          total: z.number().optional().describe('Total amount of work, if known.'),
          message: z.string().optional().describe('Human-readable progress message.'),
        }),
      )
      .describe('One notifications/progress per step, in order.'),
    intervalMs: z.number().int().min(0).default(50).describe('Pause before each step, in ms; default: 50.'),
  })
  .describe(
    'Progress notifications sent before the result, when the call carries a progressToken (without one the call just takes as long). Not used by tasks.',
  );

/** Log notifications of a tool call. */
export const LogSpecSchema = z
  .array(
    z.strictObject({
      level: z.string().default('info').describe('Syslog level: debug, info, notice, warning, error, critical, alert or emergency; default: info.'),
      logger: z.string().optional().describe('Name of the logger, shown beside the message.'),
      data: z.unknown().describe('The message: text or any JSON value; strings may use placeholders.'),
    }),
  )
  .describe('notifications/message log entries sent before the result, when the call asks for a log level and the entry is at least that level.');
