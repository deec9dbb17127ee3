import { asRecord } from '../../shared/records';
import type { JournalEntry } from '../journal';
import type { Grade } from '../report-card';

/**
 * The authorization flow as the journal saw it: each `oauth:*` exchange (redacted parameters,
 * facts, status, redacted answer) and each MCP request the resource refused (401/403 with the
 * challenge's parameters), in arrival order. The report card's auth grades read only this.
 */

/** One exchange with the authorization side. */
export interface AuthStep {
  seq: number;
  order: number;
  endpoint: string;
  as?: number;
  path: string;
  /** Query (authorize) or body (token, register) parameters, secrets redacted to hashes. */
  params: Record<string, unknown>;
  facts: Record<string, unknown>;
  status?: number;
  json?: Record<string, unknown>;
  location?: string;
}

/** An MCP request the resource refused. */
interface Refused {
  seq: number;
  order: number;
  status: number;
  /** WWW-Authenticate parameters (error, scope, …). */
  challenge: Record<string, string>;
}

/** The flow, oldest first. */
export interface AuthFlow {
  steps: AuthStep[];
  refused: Refused[];
  /** MCP requests the resource let through. */
  served: { seq: number; order: number }[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Read the flow out of journal entries. */
export function authFlow(entries: readonly JournalEntry[]): AuthFlow {
  const flow: AuthFlow = { steps: [], refused: [], served: [] };
  for (const e of [...entries].sort((a, b) => a.order - b.order)) {
    const oauth = asRecord(asRecord(e.requestBody)?.oauth);
    if (oauth && e.method?.startsWith('oauth:')) {
      const answer = asRecord(e.responseBody);
      const query = asRecord(oauth.query) ?? {};
      const params = asRecord(oauth.params) ?? {};
      flow.steps.push({
        seq: e.seq,
        order: e.order,
        endpoint: str(oauth.endpoint) ?? 'unknown',
        ...(typeof oauth.as === 'number' ? { as: oauth.as } : {}),
        path: str(oauth.path) ?? '',
        params: Object.keys(query).length ? query : params,
        facts: asRecord(oauth.facts) ?? {},
        ...(e.status !== undefined ? { status: e.status } : {}),
        ...(asRecord(answer?.json) ? { json: asRecord(answer?.json) } : {}),
        ...(str(answer?.location) ? { location: str(answer?.location) } : {}),
      });
      continue;
    }
    if (typeof e.method !== 'string') continue;
    const data = asRecord(asRecord(asRecord(e.responseBody)?.error)?.data);
    const challenge = asRecord(data?.params);
    if ((e.status === 401 || e.status === 403) && challenge) {
      const c = Object.fromEntries(Object.entries(challenge).filter((kv): kv is [string, string] => typeof kv[1] === 'string'));
      flow.refused.push({ seq: e.seq, order: e.order, status: e.status, challenge: c });
    } else if (e.status !== undefined && e.status < 400) flow.served.push({ seq: e.seq, order: e.order });
  }
  return flow;
}

/** Scopes of a space-separated string. */
export const scopeSet = (v: unknown): string[] => (typeof v === 'string' ? v.split(' ').filter(Boolean) : []);

/** The authorization requests that reached the checks (not the consent page posts). */
export const authorizeSteps = (f: AuthFlow) => f.steps.filter((s) => s.endpoint === 'authorize');

/** Token requests, optionally of one grant type. */
export const tokenSteps = (f: AuthFlow, grant?: string) => f.steps.filter((s) => s.endpoint === 'token' && (!grant || s.params.grant_type === grant));

/** The code an authorization response carried (its redacted form), to pair it with its token request. */
export function codeOf(step: AuthStep): string | undefined {
  if (!step.location) return undefined;
  try {
    return new URL(step.location).searchParams.get('code') ?? undefined;
  } catch {
    return undefined;
  }
}

/** A grade with its evidence as sorted unique journal seqs. */
export function grade(id: string, title: string, status: Grade['status'], detail: string, evidence: (AuthStep | number)[], specRef: string): Grade {
  const seqs = evidence.map((e) => (typeof e === 'number' ? e : e.seq));
  return { id, title, status, detail, evidence: [...new Set(seqs)].sort((a, b) => a - b), specRef };
}

/** What a rule says in each outcome. */
interface RuleText {
  id: string;
  title: string;
  spec: string;
  /** Why nothing could be graded. */
  none: string;
  fail: string;
  pass: string;
}

/**
 * The usual verdict: not observed when nothing was `checked`, fail (the `failing` steps as
 * evidence) when any broke the rule, else pass (every checked step as evidence).
 */
export function judge(rule: RuleText, checked: (AuthStep | number)[], failing: (AuthStep | number)[]): Grade {
  if (!checked.length && !failing.length) return grade(rule.id, rule.title, 'not-observed', rule.none, [], rule.spec);
  return failing.length ? grade(rule.id, rule.title, 'fail', rule.fail, failing, rule.spec) : grade(rule.id, rule.title, 'pass', rule.pass, checked, rule.spec);
}
