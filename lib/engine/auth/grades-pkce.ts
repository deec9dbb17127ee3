import type { Grade } from '../report-card';
import { authorizeSteps, codeOf, judge, tokenSteps, type AuthFlow, type AuthStep } from './grade-view';

/** Grades of PKCE (RFC 7636) and the resource parameter (RFC 8707), on every authorization and token request. */

const PKCE = 'MCP 2026-07-28 authorization §Authorization Code Protection: PKCE is required, with S256 (OAuth 2.1 §7.5.2, RFC 7636)';
const RESOURCE =
  'MCP 2026-07-28 authorization §Resource Parameter Implementation: resource (RFC 8707) in both the authorization and the token request, the canonical server URI';

const NO_AUTHORIZE = 'No authorization request was made.';
const NO_EXCHANGE = 'No authorization_code token request was made.';

export function gradePkce(f: AuthFlow): Grade[] {
  const auths = authorizeSteps(f);
  const exchanges = tokenSteps(f, 'authorization_code');
  const rule = (id: string, title: string, none: string, fail: string, pass: string) => ({ id, title, spec: PKCE, none, fail, pass });
  return [
    judge(
      rule(
        'pkce-code-challenge-sent',
        'PKCE code_challenge sent',
        NO_AUTHORIZE,
        'An authorization request had no code_challenge: PKCE is required.',
        'Every authorization request carried a code_challenge.',
      ),
      auths,
      auths.filter((s) => typeof s.params.code_challenge !== 'string'),
    ),
    judge(
      rule(
        'pkce-s256-method-used',
        'PKCE method is S256',
        NO_AUTHORIZE,
        'An authorization request did not use code_challenge_method=S256.',
        'Every authorization request used S256.',
      ),
      auths,
      auths.filter((s) => s.params.code_challenge_method !== 'S256'),
    ),
    judge(
      rule(
        'pkce-code-verifier-sent',
        'PKCE code_verifier sent',
        NO_EXCHANGE,
        'A code exchange had no code_verifier.',
        'Every code exchange carried a code_verifier.',
      ),
      exchanges,
      exchanges.filter((s) => typeof s.params.code_verifier !== 'string'),
    ),
    judge(
      rule(
        'pkce-verifier-matches-challenge',
        'PKCE verifier matches the challenge',
        NO_EXCHANGE,
        'A code_verifier was missing or did not hash (S256) to the code_challenge of its code.',
        'Every code_verifier hashed (S256) to its code_challenge.',
      ),
      exchanges,
      exchanges.filter((s) => s.facts.verifierMatches !== true),
    ),
  ];
}

/** An absolute URI without a fragment. */
function canonicalUri(r: unknown): boolean {
  if (typeof r !== 'string' || r.includes('#')) return false;
  try {
    return !!new URL(r).protocol;
  } catch {
    return false;
  }
}

export function gradeResource(f: AuthFlow): Grade[] {
  const auths = authorizeSteps(f);
  const tokens = tokenSteps(f).filter((s) => s.params.grant_type !== 'client_credentials');
  const prm = f.steps.find((s) => s.endpoint === 'prm' && s.status === 200)?.json?.resource;
  const id = (s: AuthStep) => s.params.resource;
  const sent = [...auths, ...tokens].filter((s) => id(s) !== undefined);
  // A code exchange names the same resource as the authorization request that produced its code.
  const pairs = tokens.flatMap((t) => auths.filter((a) => codeOf(a) !== undefined && codeOf(a) === t.params.code).map((a) => [a, t] as const));
  const rule = (ruleId: string, title: string, none: string, fail: string, pass: string) => ({ id: ruleId, title, spec: RESOURCE, none, fail, pass });
  return [
    judge(
      rule(
        'resource-parameter-in-authorization',
        'resource in the authorization request',
        NO_AUTHORIZE,
        'An authorization request had no resource parameter (RFC 8707).',
        'Every authorization request carried resource.',
      ),
      auths,
      auths.filter((s) => id(s) === undefined),
    ),
    judge(
      rule(
        'resource-parameter-in-token',
        'resource in the token request',
        'No token request was made.',
        'A token request had no resource parameter (RFC 8707).',
        'Every token request carried resource.',
      ),
      tokens,
      tokens.filter((s) => id(s) === undefined),
    ),
    judge(
      rule(
        'resource-parameter-valid-uri',
        'resource is a canonical URI',
        'No resource parameter was sent.',
        'A resource parameter was not an absolute URI without a fragment.',
        'Every resource parameter was an absolute URI without a fragment.',
      ),
      sent,
      sent.filter((s) => !canonicalUri(id(s))),
    ),
    judge(
      rule(
        'resource-parameter-consistency',
        'Same resource in authorization and token requests',
        'No code was exchanged.',
        'A code exchange named another resource than its authorization request.',
        'Each code exchange named the resource of its authorization request.',
      ),
      pairs.flat(),
      pairs.filter(([a, t]) => id(a) !== id(t)).flat(),
    ),
    judge(
      rule(
        'resource-parameter-matches-prm',
        'resource as published in the metadata',
        'No protected resource metadata was read, or no resource was sent.',
        `A resource parameter differed from the metadata's resource ${String(prm)} (a URL parser adding "/" is the usual cause).`,
        'Every resource parameter was the metadata resource, verbatim.',
      ),
      typeof prm === 'string' ? sent : [],
      typeof prm === 'string' ? sent.filter((s) => id(s) !== prm) : [],
    ),
  ];
}
