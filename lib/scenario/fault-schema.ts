import { z } from 'zod';

/**
 * Faults: what goes wrong, and on which requests. A fault matches requests by method and tool,
 * then narrows them by their 1-based count among the requests it matches (`nth`, `every`,
 * `after`) and by a seeded coin (`probability`), so a scenario misbehaves the same way on every
 * run with the same seed. Its action either answers instead of the server (a JSON-RPC error,
 * an HTTP status), delays the answer, or damages the response stream.
 */

const count = z.number().int().min(1);
const ms = z.number().int().min(0);
const kindText = 'The kind of fault; the other fields depend on it.';

/** Which requests a fault applies to; every given condition must hold. */
const FaultMatchSchema = z
  .strictObject({
    method: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe('JSON-RPC method(s) to match, e.g. tools/call or subscriptions/listen; default: every request.'),
    tool: z.string().min(1).optional().describe('Match tools/call of this tool only.'),
    nth: z
      .union([count, z.array(count).min(1)])
      .optional()
      .describe('Fire on these matching requests only (1-based count of requests this fault matched).'),
    every: count.optional().describe('Fire on every Nth matching request (N, 2N, 3N, ...).'),
    after: z.number().int().min(0).optional().describe('Skip the first N matching requests.'),
    probability: z.number().min(0).max(1).optional().describe('Chance to fire, drawn from a PRNG seeded by the scenario seed (or --seed), so runs repeat.'),
  })
  .superRefine((m, ctx) => {
    const methods = m.method === undefined ? undefined : Array.isArray(m.method) ? m.method : [m.method];
    if (m.tool !== undefined && methods && !methods.includes('tools/call')) {
      ctx.addIssue({ code: 'custom', path: ['tool'], message: 'tool matches tools/call only; add tools/call to method or drop method' });
    }
  })
  .describe('Which requests the fault applies to. All given conditions must hold; an empty match is every request.');
export type FaultMatch = z.infer<typeof FaultMatchSchema>;

const RpcErrorActionSchema = z
  .strictObject({
    kind: z.literal('rpc-error').describe(kindText),
    code: z.number().int().describe('JSON-RPC error code, e.g. -32603 (internal error) or -32002.'),
    message: z.string().describe('Error message.'),
    data: z.unknown().optional().describe('Any JSON value sent as error.data.'),
    status: z
      .number()
      .int()
      .min(200)
      .max(599)
      .optional()
      .describe('HTTP status; default: the one the engine gives the code (400 for -32700, -32600 and -32020..-32022, 404 for -32601, else 200).'),
  })
  .describe('Answer with this JSON-RPC error instead of running the request.');

const HttpStatusActionSchema = z
  .strictObject({
    kind: z.literal('http-status').describe(kindText),
    status: z.number().int().min(200).max(599).describe('HTTP status to answer with, e.g. 503 or 429.'),
    retryAfter: z.number().int().min(0).optional().describe('Retry-After header, in seconds.'),
    body: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe('Response body: text, or an object sent as JSON; default: the status text.'),
  })
  .describe('Answer with a bare HTTP status (e.g. a 503 from an overloaded gateway) instead of a JSON-RPC response.');

const LatencyActionSchema = z
  .strictObject({
    kind: z.literal('latency').describe(kindText),
    ms: ms.optional().describe('Fixed delay in ms.'),
    distribution: z
      .enum(['uniform', 'normal'])
      .optional()
      .describe('Draw the delay: uniform between min and max, or normal with mean and stddev (never below 0).'),
    min: ms.optional().describe('Uniform: shortest delay, in ms.'),
    max: ms.optional().describe('Uniform: longest delay, in ms.'),
    mean: ms.optional().describe('Normal: mean delay, in ms.'),
    stddev: z.number().min(0).optional().describe('Normal: standard deviation, in ms.'),
  })
  .superRefine((a, ctx) => {
    const need = (keys: (keyof typeof a)[]) => {
      for (const key of keys) if (a[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `A ${a.distribution} latency needs "${key}"` });
    };
    if (a.distribution === undefined && a.ms === undefined)
      ctx.addIssue({ code: 'custom', path: ['ms'], message: 'A latency needs ms, or a distribution (uniform: min, max; normal: mean, stddev)' });
    if (a.distribution !== undefined && a.ms !== undefined)
      ctx.addIssue({ code: 'custom', path: ['ms'], message: 'Give either ms or a distribution, not both' });
    if (a.distribution === 'uniform') need(['min', 'max']);
    if (a.distribution === 'normal') need(['mean', 'stddev']);
    if (a.distribution === 'uniform' && a.min !== undefined && a.max !== undefined && a.min > a.max)
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'max must be at least min' });
  })
  .describe('Wait before answering: a fixed ms, or a uniform or normal distribution.');

const afterEvents = z.number().int().min(0);

const StallActionSchema = z
  .strictObject({ kind: z.literal('stall').describe(kindText), afterEvents: afterEvents.default(0).describe('SSE events sent before the stream goes silent.') })
  .describe('The SSE stream stops sending anything (no keep-alives, no response) but stays open.');

const DropActionSchema = z
  .strictObject({ kind: z.literal('drop').describe(kindText), afterEvents: afterEvents.describe('SSE events sent before the connection is cut.') })
  .describe('The SSE stream is cut abruptly after N events, without the final response.');

const GarbageActionSchema = z
  .strictObject({
    kind: z.literal('garbage').describe(kindText),
    afterEvents: afterEvents.default(0).describe('SSE events sent before the garbage frame.'),
    text: z.string().min(1).optional().describe('Data of the frame; default: a truncated JSON-RPC message.'),
  })
  .describe('Inject an SSE message frame whose data is not JSON, then carry on.');

const DuplicateActionSchema = z.strictObject({ kind: z.literal('duplicate').describe(kindText) }).describe('Send every notification on the stream twice.');

const OutOfOrderActionSchema = z
  .strictObject({
    kind: z.literal('out-of-order').describe(kindText),
    order: z.enum(['reverse', 'shuffle']).default('reverse').describe('reverse, or a shuffle drawn from the seed.'),
    window: z.number().int().min(2).optional().describe('Release every N held notifications; default: hold them all until the response.'),
  })
  .describe('Hold notifications and send them reversed or shuffled.');

const DripActionSchema = z
  .strictObject({
    kind: z.literal('drip').describe(kindText),
    bytesPerChunk: z.number().int().min(1).describe('Bytes written per chunk.'),
    intervalMs: ms.describe('Pause between chunks, in ms.'),
  })
  .describe('Write the response (JSON or SSE) in small chunks with a pause between them.');

const windowMs = z.number().int().min(1).max(3_600_000);

const InstanceDownActionSchema = z
  .strictObject({
    kind: z.literal('instance-down').describe(kindText),
    ms: windowMs.describe('How long the instance stays down, from the request the fault fires on.'),
    status: z
      .number()
      .int()
      .min(500)
      .max(599)
      .optional()
      .describe('Answer every request with this status meanwhile (a load balancer in front of a dead instance: 502, 503) instead of cutting the connection.'),
  })
  .describe(
    'The instance that receives the matching request goes down for ms: each request it gets meanwhile, this one included, has its connection cut without an answer (or gets status). The other instances of a fleet keep serving, so a client that retries elsewhere carries on.',
  );

const InstanceSkewActionSchema = z
  .strictObject({
    kind: z.literal('instance-skew').describe(kindText),
    ms: windowMs.describe('How long the instance lags, from the request the fault fires on.'),
  })
  .describe(
    "The instance that receives the matching request lags behind the shared store for ms, like a read replica that has not yet seen recent writes: every read of a task (tasks/get, 2025-11-25's tasks/result and tasks/list, a listen stream's first snapshot) answers the state this instance last served of the task, or Task not found (-32602) for a task it never served. Writes (tasks/update, tasks/cancel, the idempotency ledger) still go to the primary. A client should poll again.",
  );

const FAULT_KINDS = ['rpc-error', 'http-status', 'latency', 'stall', 'drop', 'garbage', 'duplicate', 'out-of-order', 'drip', 'instance-down', 'instance-skew'];

/** What a fault does. */
const FaultActionSchema = z.discriminatedUnion(
  'kind',
  [
    RpcErrorActionSchema,
    HttpStatusActionSchema,
    LatencyActionSchema,
    StallActionSchema,
    DropActionSchema,
    GarbageActionSchema,
    DuplicateActionSchema,
    OutOfOrderActionSchema,
    DripActionSchema,
    InstanceDownActionSchema,
    InstanceSkewActionSchema,
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? `Expected kind to be one of: ${FAULT_KINDS.join(', ')}` : undefined) },
);
export type FaultAction = z.infer<typeof FaultActionSchema>;

/** A fault attached to matching requests. */
export const FaultSchema = z
  .strictObject({
    name: z.string().min(1).optional().describe('Shown in the journal when the fault fires; default: the kind and index.'),
    match: FaultMatchSchema.default({}),
    action: FaultActionSchema.describe('What goes wrong; kind selects the rest of the fields.'),
  })
  .describe('A fault: which requests (match) and what goes wrong (action).');
export type Fault = z.infer<typeof FaultSchema>;

/** Scenario seed: a number, or text hashed into one. */
export const SeedSchema = z
  .union([z.number().int(), z.string().min(1)])
  .describe('Seed of the PRNG behind fault probabilities, latency distributions and shuffles; `mcp-loupe mock --seed` overrides it.');
