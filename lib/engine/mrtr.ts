import { ERROR, elicitationModes, responseSchemaFor, validateFormContent, type ClientCapabilities, type RequestedSchema } from '../protocol';
import type { MrtrRound, InputRequestSpec } from '../scenario/behavior-schema';
import type { ToolResultSpec } from '../scenario/content-schema';
import { fail, type EngineCore, type Outcome, type RequestContext } from './context';
import { digest } from './request-state';
import { fillTemplate } from './template';

/**
 * Multi round-trip requests: ask for input with `input_required`, carry progress in a signed
 * `requestState`, accept answers on the retry. Missing keys are asked again, extra keys ignored.
 */

type MrtrOutcome =
  | { done: true; inputs: Record<string, unknown>; round: number }
  | { done: false; outcome: Outcome }
  | { done: false; result: ToolResultSpec; inputs: Record<string, unknown> };

/** Whether the client declared what an input request needs. */
export function canAsk(req: InputRequestSpec, caps: ClientCapabilities): boolean {
  if (req.method === 'elicitation/create') {
    const modes = elicitationModes(caps);
    return (req.params as Record<string, unknown>).mode === 'url' ? modes.url : modes.form;
  }
  if (req.method === 'sampling/createMessage') {
    if (!caps.sampling) return false;
    const p = req.params as Record<string, unknown>;
    return !(p.tools || p.toolChoice) || !!caps.sampling.tools;
  }
  return !!caps.roots;
}

/** The capability object a refused input request needs (for -32021 data). */
export function capabilityFor(req: InputRequestSpec): Record<string, unknown> {
  if (req.method === 'elicitation/create') return { elicitation: (req.params as Record<string, unknown>).mode === 'url' ? { url: {} } : { form: {} } };
  if (req.method === 'sampling/createMessage') return { sampling: {} };
  return { roots: {} };
}

/** Input requests of a round that this client can receive. */
export function askable(requests: Record<string, InputRequestSpec>, caps: ClientCapabilities, scope: Record<string, unknown>) {
  const out: Record<string, InputRequestSpec> = {};
  const refused: InputRequestSpec[] = [];
  for (const [key, req] of Object.entries(requests)) {
    if (canAsk(req, caps)) out[key] = fillTemplate(req, scope);
    else refused.push(req);
  }
  return { out, refused };
}

/** Validate one input response against the request it answers; returns a problem or undefined. */
export function checkResponse(key: string, req: InputRequestSpec, response: unknown, validate: boolean): string | undefined {
  const parsed = responseSchemaFor(req.method).safeParse(response);
  if (!parsed.success) return `input response "${key}" is not a valid ${req.method} result: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  if (req.method === 'elicitation/create' && validate) {
    const r = response as { action: string; content?: Record<string, unknown> };
    const schema = (req.params as Record<string, unknown>).requestedSchema as RequestedSchema | undefined;
    if (r.action === 'accept' && schema && (req.params as Record<string, unknown>).mode !== 'url') {
      const problems = validateFormContent(schema, r.content);
      if (problems.length) return `input response "${key}" does not match requestedSchema: ${problems.join('; ')}`;
    }
  }
  return undefined;
}

/** Salient params digest, binding a requestState to one request. */
export async function requestDigest(ctx: RequestContext): Promise<string> {
  const p = ctx.params;
  return digest({ method: ctx.method, name: p.name, uri: p.uri, arguments: p.arguments ?? null });
}

/** Run the MRTR rounds of a request. */
export async function runMrtr(core: EngineCore, ctx: RequestContext, rounds: MrtrRound[], scope: Record<string, unknown>): Promise<MrtrOutcome> {
  const d = await requestDigest(ctx);
  const now = core.clock.now();
  let round = 0;
  let answers: Record<string, unknown> = {};
  // The round whose questions the client was sent: only its answers are taken. A first call (no
  // requestState) was asked nothing, and a later round's questions are not asked yet, so answers
  // sent for them are ignored and the round is asked (the built-in delete_note does the same).
  let askedRound = -1;
  const rawState = ctx.params.requestState;
  if (rawState !== undefined) {
    const v = await core.codec.verify(rawState, { principal: ctx.principal, method: ctx.method, digest: d, now });
    if (!v.ok) return { done: false, outcome: fail(ERROR.invalidParams, `Invalid requestState: ${v.reason}`) };
    round = v.payload.r;
    askedRound = round;
    answers = v.payload.a ?? {};
  }
  const rawResponses = ctx.params.inputResponses;
  if (rawResponses !== undefined && (typeof rawResponses !== 'object' || rawResponses === null || Array.isArray(rawResponses))) {
    return { done: false, outcome: fail(ERROR.invalidParams, 'Invalid params: inputResponses must be an object keyed by input request') };
  }
  const responses = (rawResponses ?? {}) as Record<string, unknown>;

  while (round < rounds.length) {
    const spec = rounds[round]!; // round < rounds.length
    const { out, refused } = askable(spec.inputRequests, ctx.caps, { ...scope, inputs: answers });
    if (Object.keys(out).length === 0) {
      const required = Object.assign({}, ...refused.map(capabilityFor));
      return {
        done: false,
        outcome: fail(ERROR.missingRequiredClientCapability, 'Missing required client capability for this request', { requiredCapabilities: required }),
      };
    }
    const given = round === askedRound ? responses : {};
    const missing = Object.keys(out).filter((k) => given[k] === undefined);
    if (missing.length) {
      const requestState = await core.codec.sign({
        p: ctx.principal,
        m: ctx.method,
        d,
        e: now + core.scenario.settings.requestStateTtlSeconds * 1000,
        r: round,
        a: answers,
      });
      return { done: false, outcome: { result: { resultType: 'input_required', inputRequests: out, requestState } } };
    }
    for (const [key, req] of Object.entries(out)) {
      const problem = checkResponse(key, req, responses[key], spec.validate);
      if (problem) return { done: false, outcome: fail(ERROR.invalidParams, `Invalid params: ${problem}`) };
      answers = { ...answers, [key]: responses[key] };
      const action = (responses[key] as { action?: string }).action;
      const rule = action === 'decline' ? spec.onDecline : action === 'cancel' ? spec.onCancel : undefined;
      if (rule && 'result' in rule) return { done: false, result: rule.result, inputs: answers };
      if (rule && 'error' in rule) return { done: false, outcome: fail(rule.error.code, rule.error.message, rule.error.data) };
    }
    round++;
  }
  return { done: true, inputs: answers, round };
}
