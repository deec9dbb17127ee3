import { META, MRTR_METHODS, RESULT_TYPE } from '../constants';
import { elicitationModes, type ClientCapabilities } from '../meta';
import { InputRequestSchema, RequestedSchemaSchema, responseSchemaFor, validateFormContent } from '../mrtr';
import { checkElicitation } from './elicitation';
import { show, type Obj, type Report, type View } from './model';
import { asRecord } from '../../shared/records';

/** Multi round-trip requests: `input_required` results, their input requests and the retry. */

const KINDS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/** Whether the capabilities of this request are known (declared in `_meta` or given by the context). */
function capsKnown(v: View): boolean {
  return v.ctx.clientCapabilities !== undefined || v.meta?.[META.clientCapabilities] !== undefined;
}

/** What an input request needs that the client did not declare, or undefined. */
function undeclaredNeed(method: string, params: Obj, caps: ClientCapabilities): string | undefined {
  if (method === 'elicitation/create') {
    if (!caps.elicitation) return 'the client did not declare elicitation';
    const modes = elicitationModes(caps);
    if (params.mode === 'url' && !modes.url) return 'URL-mode elicitation, but the client declared only form mode';
    if (params.mode !== 'url' && !modes.form) return 'form-mode elicitation, but the client declared only URL mode ("elicitation": {} would mean form)';
    return undefined;
  }
  if (method === 'sampling/createMessage') {
    if (!caps.sampling) return 'the client did not declare sampling';
    if ((params.tools !== undefined || params.toolChoice !== undefined) && !caps.sampling.tools) return 'sampling with tools/toolChoice needs sampling.tools';
    if ((params.includeContext === 'thisServer' || params.includeContext === 'allServers') && !caps.sampling.context)
      return `includeContext "${params.includeContext}" needs sampling.context`;
    return undefined;
  }
  if (method === 'roots/list' && !caps.roots) return 'the client did not declare roots';
  return undefined;
}

/** A map of input requests (MRTR result or task snapshot). */
export function checkInputRequests(requests: unknown, path: string, v: View, report: Report): void {
  const map = asRecord(requests);
  if (!map) {
    report('input-request-invalid', 'inputRequests must be an object keyed by request key', path);
    return;
  }
  for (const [key, raw] of Object.entries(map)) {
    const at = `${path}.${key}`;
    const req = asRecord(raw);
    if (!req || typeof req.method !== 'string' || !KINDS.has(req.method)) {
      report(
        'input-request-invalid',
        `Input request "${key}" must be elicitation/create, sampling/createMessage or roots/list, got ${show(req?.method ?? raw)}`,
        at,
      );
      continue;
    }
    if ('id' in req || 'jsonrpc' in req) report('input-request-invalid', `Input request "${key}" is {method, params}: no id, no jsonrpc`, at);
    const params = asRecord(req.params) ?? {};
    if (req.method === 'elicitation/create') {
      if (typeof params.message !== 'string') report('input-request-invalid', `Elicitation "${key}" needs a message`, `${at}.params.message`);
      if (params.mode !== undefined && params.mode !== 'form' && params.mode !== 'url')
        report('input-request-invalid', `Elicitation "${key}" has unknown mode ${show(params.mode)}`, `${at}.params.mode`);
      checkElicitation(params, `${at}.params`, report);
    }
    const parsed = InputRequestSchema.safeParse(req);
    if (!parsed.success && req.method !== 'elicitation/create') {
      const issue = parsed.error.issues[0];
      report(
        'input-request-invalid',
        `Input request "${key}" (${req.method}) is malformed: ${issue?.path.join('.') || 'params'} ${issue?.message ?? ''}`.trim(),
        at,
      );
    }
    if (capsKnown(v)) {
      const need = undeclaredNeed(req.method, params, v.caps);
      if (need) report('input-request-undeclared', `Input request "${key}" (${req.method}): ${need}`, at);
    }
  }
}

/** An `input_required` result. */
export function checkInputRequired(v: View, report: Report): void {
  const r = v.result;
  if (!v.modern || !r || r.resultType !== RESULT_TYPE.inputRequired) return;
  const base = 'response.body.result';
  if (!(MRTR_METHODS as readonly string[]).includes(v.method)) {
    report(
      'input-required-method',
      `${v.method} cannot answer input_required; only tools/call, prompts/get and resources/read can (tasks use tasks/get + tasks/update)`,
      `${base}.resultType`,
    );
  }
  const hasRequests = asRecord(r.inputRequests) && Object.keys(asRecord(r.inputRequests)!).length > 0;
  if (!hasRequests && r.requestState === undefined) report('input-required-empty', 'input_required must carry inputRequests, requestState or both', base);
  if (r.requestState !== undefined && typeof r.requestState !== 'string')
    report('input-request-invalid', 'requestState must be a string', `${base}.requestState`);
  if (r.inputRequests !== undefined) checkInputRequests(r.inputRequests, `${base}.inputRequests`, v, report);
}

/** Validate one answer against the input request it answers. */
function checkInputResponse(key: string, request: Obj, response: unknown, path: string, report: Report): void {
  const method = request.method as 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  if (!KINDS.has(method)) return;
  const res = asRecord(response);
  if (res && 'resultType' in res)
    report(
      'input-response-invalid',
      `Answer "${key}" carries resultType; ElicitResult, CreateMessageResult and ListRootsResult are not Results`,
      `${path}.resultType`,
    );
  const parsed = responseSchemaFor(method).safeParse(response);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    report('input-response-invalid', `Answer "${key}" is not a ${method} result: ${issue?.path.join('.') || 'value'} ${issue?.message ?? ''}`.trim(), path);
    return;
  }
  if (method !== 'elicitation/create' || res?.action !== 'accept') return;
  const params = asRecord(request.params) ?? {};
  if (params.mode === 'url') {
    if (res.content !== undefined)
      report('input-response-invalid', `Answer "${key}" accepts a URL elicitation with content; URL-mode accept carries none`, `${path}.content`);
    return;
  }
  const schema = RequestedSchemaSchema.safeParse(params.requestedSchema);
  if (!schema.success) return;
  const problems = validateFormContent(schema.data, asRecord(res.content));
  if (problems.length) report('input-response-invalid', `Answer "${key}" does not match requestedSchema: ${problems.join('; ')}`, `${path}.content`);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A request that continues an earlier `input_required` (context: `previousInputRequired`). */
export function checkRetry(v: View, report: Report): void {
  const prev = v.ctx.previousInputRequired;
  if (!prev || !v.isRequest) return;
  const p = v.params;
  const base = 'request.body.params';
  const state = prev.result.requestState;
  if (typeof state === 'string' && p.requestState !== state) {
    const how = p.requestState === undefined ? 'omitted it' : 'sent a different value';
    report('mrtr-retry-state', `The retry must echo requestState byte-exact but ${how}`, `${base}.requestState`);
  } else if (state === undefined && p.requestState !== undefined) {
    report('mrtr-retry-state', 'The retry sends a requestState although the server sent none', `${base}.requestState`);
  }
  if (prev.id !== undefined && v.id === prev.id)
    report('mrtr-retry-id-reused', `The retry reuses JSON-RPC id ${show(v.id)}; a retry is a new request with a new id`, 'request.body.id');
  if (v.method !== prev.method) report('mrtr-retry-params-changed', `The retry calls ${v.method}, the original was ${prev.method}`, 'request.body.method');
  const before = prev.params ?? {};
  for (const field of ['name', 'uri', 'arguments']) {
    if (!same(before[field], p[field]))
      report('mrtr-retry-params-changed', `The retry changed ${field} from ${show(before[field])} to ${show(p[field])}`, `${base}.${field}`);
  }
  const requests = asRecord(prev.result.inputRequests) ?? {};
  const answers = asRecord(p.inputResponses) ?? {};
  const missing = Object.keys(requests).filter((k) => answers[k] === undefined);
  if (missing.length)
    report(
      'mrtr-retry-incomplete',
      `The retry answers no ${missing.map((k) => `"${k}"`).join(', ')}; fulfil every input request before retrying (decline/cancel an elicitation with an ElicitResult)`,
      `${base}.inputResponses`,
    );
  for (const [key, answer] of Object.entries(answers)) {
    const req = asRecord(requests[key]);
    if (req) checkInputResponse(key, req, answer, `${base}.inputResponses.${key}`, report);
  }
}
