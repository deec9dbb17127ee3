import { z } from 'zod';
import { ClientCapabilitiesSchema, ServerCapabilitiesSchema, declaresExtension, type ClientCapabilities } from '../meta';
import { EXT, META } from '../constants';
import { ToolSchema } from '../tools';
import type { LintId } from './rules';
import { fingerprint } from '../../shared/fingerprint';
import { asRecord } from '../../shared/records';

/**
 * The shapes live lints work on: an exchange (one request, its stream frames and its final
 * response, as seen on the wire), the context cross-message rules need, and the lint itself.
 */

const HeadersSchema = z.record(z.string(), z.string());

/** One request and what came back for it. Bodies are raw parsed JSON, never trusted. */
export const ExchangeSchema = z.object({
  method: z.string(),
  /** `body` is absent for a request that has none (an HTTP GET or DELETE). */
  request: z.object({ headers: HeadersSchema.optional(), body: z.unknown().optional() }).optional(),
  response: z.object({ status: z.number().int().optional(), headers: HeadersSchema.optional(), body: z.unknown().optional() }).optional(),
  /**
   * SSE messages that arrived before the final response (listen streams: ack, notifications).
   * Over stdio: the server's other lines while the request was open, a line that is not JSON as its text.
   */
  frames: z.array(z.unknown()).optional(),
  era: z.enum(['modern', 'legacy']),
  transport: z.enum(['http', 'stdio']),
  /** When the request was sent (ms since epoch); sequence rules such as poll cadence need it. */
  at: z.number().optional(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/** The earlier `input_required` answer an MRTR retry continues. */
const PreviousInputRequiredSchema = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  result: z.record(z.string(), z.unknown()),
});
export type PreviousInputRequired = z.infer<typeof PreviousInputRequiredSchema>;

/** What rules that look beyond one message need. Every field is optional; absent means unknown. */
export const LintContextSchema = z.object({
  /** The protocol version the connection speaks (defaults to the request's `_meta` version). */
  protocolVersion: z.string().optional(),
  /** Capabilities declared on this request (defaults to the request's `_meta`). */
  clientCapabilities: ClientCapabilitiesSchema.optional(),
  /** Whether this request declared the tasks / ui extensions (defaults to the capabilities). */
  extensions: z.object({ tasks: z.boolean().optional(), ui: z.boolean().optional() }).optional(),
  /** `capabilities` from the server's `server/discover` result. */
  serverCapabilities: ServerCapabilitiesSchema.optional(),
  /** `supportedVersions` from `server/discover`. */
  supportedVersions: z.array(z.string()).optional(),
  /** The `input_required` answer this request retries (MRTR). */
  previousInputRequired: PreviousInputRequiredSchema.optional(),
  /** Tools from `tools/list`, to check `Mcp-Param-*` headers against `x-mcp-header` bindings. */
  tools: z.array(ToolSchema).optional(),
});
export type LintContext = z.infer<typeof LintContextSchema>;

/** error: breaks a MUST; warning: a SHOULD or a likely bug; info: worth knowing. */
const LintSeveritySchema = z.enum(['error', 'warning', 'info']);
export type LintSeverity = z.infer<typeof LintSeveritySchema>;

/** One finding on an exchange. */
export const LintSchema = z.object({
  id: z.string(),
  severity: LintSeveritySchema,
  message: z.string(),
  /** Section of the 2026-07-28 spec (path#fragment), e.g. `basic/index#result-type`. */
  specRef: z.string(),
  /** JSON path of the offending field, e.g. `response.body.result.ttlMs`. */
  path: z.string().optional(),
});
export type Lint = z.infer<typeof LintSchema>;

/** Plain JSON object or undefined. */
export type Obj = Record<string, unknown>;

/** Case-insensitive header lookup on a recorded header map. */
function headerOf(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === want) return v;
  return undefined;
}

/** Everything a rule reads, parsed once per exchange. */
export interface View {
  ex: Exchange;
  ctx: LintContext;
  modern: boolean;
  http: boolean;
  method: string;
  req?: Obj;
  /** The request has an `id` member (a request, not a notification, nor the client's answer). */
  isRequest: boolean;
  /**
   * The client's message is a JSON-RPC response: its answer to a server request (2025-11-25
   * elicitation/create, sampling/createMessage, roots/list), POSTed or written on stdin.
   */
  answer: boolean;
  /**
   * An HTTP request without a body: a GET (the 2025-11-25 stream for the server's own messages,
   * or a resumption) or a DELETE ending a session. Frames carry no HTTP method, so a request
   * frame without body text stands for one (as in the HAR export); it is no JSON-RPC message.
   */
  bodyless: boolean;
  id: unknown;
  params: Obj;
  meta?: Obj;
  caps: ClientCapabilities;
  tasksDeclared: boolean;
  uiDeclared: boolean;
  res?: Obj;
  result?: Obj;
  error?: Obj;
  frames: unknown[];
  reqHeader(name: string): string | undefined;
  resHeader(name: string): string | undefined;
}

/** Build the view of an exchange under a context. */
export function viewOf(ex: Exchange, ctx: LintContext): View {
  const req = asRecord(ex.request?.body);
  const params = asRecord(req?.params) ?? {};
  const meta = asRecord(params._meta);
  const parsedCaps = ClientCapabilitiesSchema.safeParse(meta?.[META.clientCapabilities]);
  const caps = ctx.clientCapabilities ?? (parsedCaps.success ? parsedCaps.data : {});
  const res = asRecord(ex.response?.body);
  const answer = !!req && !('method' in req) && ('result' in req || 'error' in req);
  return {
    ex,
    ctx,
    modern: ex.era === 'modern',
    http: ex.transport === 'http',
    method: typeof req?.method === 'string' ? req.method : ex.method,
    req,
    isRequest: !!req && 'id' in req && !answer,
    answer,
    bodyless: ex.transport === 'http' && !!ex.request && ex.request.body === undefined,
    id: req?.id,
    params,
    meta,
    caps,
    tasksDeclared: ctx.extensions?.tasks ?? declaresExtension(caps, EXT.tasks),
    uiDeclared: ctx.extensions?.ui ?? declaresExtension(caps, EXT.ui),
    res,
    result: asRecord(res?.result),
    error: asRecord(res?.error),
    frames: ex.frames ?? [],
    reqHeader: (name) => headerOf(ex.request?.headers, name),
    resHeader: (name) => headerOf(ex.response?.headers, name),
  };
}

/** Reports one finding of a catalogued rule; severity and spec reference come from the catalogue. */
export type Report = (id: LintId, message: string, path?: string) => void;

/** Task ids are bearer tokens: lint messages name them by their fingerprint, never by a prefix. */
export function maskId(id: unknown): string {
  return typeof id === 'string' ? `${fingerprint(id)}…` : show(id);
}

/** Short JSON rendering for messages. */
export function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
