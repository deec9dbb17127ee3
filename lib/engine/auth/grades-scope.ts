import type { AuthSpec } from '../../scenario/auth-schema';
import type { Grade } from '../report-card';
import { authorizeSteps, grade, scopeSet, type AuthFlow } from './grade-view';

/** Authorization grades about scopes: the first request's scope, step-up with the union, the retry limit, a mismatched resource. */

const SPEC = {
  scope:
    'MCP 2026-07-28 authorization §Scope Selection Strategy and §Scope Challenge Handling (step-up with the union of scopes, SEP-2350; a few attempts at most)',
  mismatch: 'RFC 9728 §3.3 / MCP 2026-07-28: protected resource metadata whose resource is not this server must not be used',
};

const none = (id: string, title: string, detail: string, spec: string): Grade => grade(id, title, 'not-observed', detail, [], spec);
const has = (set: string[], want: string[]) => want.every((s) => set.includes(s));
/** Authorization requests in all, the first included, before a client should treat a scope as unobtainable (the suite's bound). */
const MAX_AUTHORIZATIONS = 3;

export function gradeScopes(f: AuthFlow, spec: AuthSpec): Grade[] {
  const auths = authorizeSteps(f);
  const [first] = auths;
  const out: Grade[] = [];
  const challenge = spec.resource.challengeScope;
  const supported = spec.resource.scopesSupported;
  const asked = first ? scopeSet(first.params.scope).filter((s) => s !== 'offline_access') : [];
  if (challenge) {
    const t = 'Initial scope from WWW-Authenticate';
    out.push(
      !first
        ? none('scope-from-www-authenticate', t, 'No authorization request was made.', SPEC.scope)
        : has(asked, challenge)
          ? grade(
              'scope-from-www-authenticate',
              t,
              'pass',
              `The first authorization asked for the challenged scope (${challenge.join(' ')}).`,
              [first],
              SPEC.scope,
            )
          : grade(
              'scope-from-www-authenticate',
              t,
              'fail',
              `The 401 challenged scope "${challenge.join(' ')}" but the first authorization asked for "${asked.join(' ')}".`,
              [first],
              SPEC.scope,
            ),
    );
  } else if (supported) {
    const t = 'Initial scope from scopes_supported';
    out.push(
      !first
        ? none('scope-from-scopes-supported', t, 'No authorization request was made.', SPEC.scope)
        : has(asked, supported)
          ? grade('scope-from-scopes-supported', t, 'pass', 'The first authorization asked for all of scopes_supported.', [first], SPEC.scope)
          : grade(
              'scope-from-scopes-supported',
              t,
              'fail',
              `Without a challenged scope the client should ask for all of scopes_supported (${supported.join(' ')}); it asked for "${asked.join(' ')}".`,
              [first],
              SPEC.scope,
            ),
    );
  } else {
    const t = 'scope omitted when none is defined';
    out.push(
      !first
        ? none('scope-omitted-when-undefined', t, 'No authorization request was made.', SPEC.scope)
        : !asked.length
          ? grade(
              'scope-omitted-when-undefined',
              t,
              'pass',
              'Neither a challenge nor the metadata named scopes, and the client sent none.',
              [first],
              SPEC.scope,
            )
          : grade('scope-omitted-when-undefined', t, 'fail', `No scope was defined, yet the client asked for "${asked.join(' ')}".`, [first], SPEC.scope),
    );
  }
  // Step-up: after each 403 insufficient_scope, the next authorization asks for the challenged scopes and keeps the earlier ones.
  const stepUps = f.refused.filter((r) => r.status === 403 && r.challenge.error === 'insufficient_scope');
  const escalations: { ok: boolean; union: boolean; seqs: number[] }[] = [];
  for (const r of stepUps) {
    const before = auths.filter((a) => a.order < r.order).at(-1);
    const next = auths.find((a) => a.order > r.order);
    if (!next) continue;
    const want = scopeSet(r.challenge.scope);
    const got = scopeSet(next.params.scope);
    escalations.push({
      ok: has(got, want),
      union: has(
        got,
        scopeSet(before?.params.scope).filter((s) => s !== 'offline_access'),
      ),
      seqs: [r.seq, next.seq],
    });
  }
  const t1 = 'Step-up asks for the challenged scope';
  const t2 = 'Step-up keeps the earlier scopes (union)';
  if (!escalations.length) {
    const detail = stepUps.length
      ? 'A 403 insufficient_scope was answered, but the client did not authorize again.'
      : 'No 403 insufficient_scope was answered.';
    out.push(
      stepUps.length
        ? grade(
            'scope-step-up-escalation',
            t1,
            'fail',
            detail,
            stepUps.map((r) => r.seq),
            SPEC.scope,
          )
        : none('scope-step-up-escalation', t1, detail, SPEC.scope),
    );
    out.push(none('sep-2350-scope-union-on-reauth', t2, 'No re-authorization followed a 403.', SPEC.scope));
  } else {
    const bad = escalations.filter((e) => !e.ok);
    const noUnion = escalations.filter((e) => !e.union);
    const all = escalations.flatMap((e) => e.seqs);
    out.push(
      bad.length
        ? grade(
            'scope-step-up-escalation',
            t1,
            'fail',
            'A re-authorization after 403 did not ask for the challenged scope.',
            bad.flatMap((e) => e.seqs),
            SPEC.scope,
          )
        : grade('scope-step-up-escalation', t1, 'pass', 'Each re-authorization asked for the scope the 403 challenged.', all, SPEC.scope),
    );
    out.push(
      noUnion.length
        ? grade(
            'sep-2350-scope-union-on-reauth',
            t2,
            'fail',
            'A re-authorization dropped scopes requested before (use the union of the earlier and the challenged scopes).',
            noUnion.flatMap((e) => e.seqs),
            SPEC.scope,
          )
        : grade('sep-2350-scope-union-on-reauth', t2, 'pass', 'Each re-authorization kept the earlier scopes and added the challenged ones.', all, SPEC.scope),
    );
  }
  const t3 = 'Gives up re-authorizing after a few attempts';
  out.push(
    !stepUps.length
      ? none('scope-retry-limit', t3, 'No 403 insufficient_scope was answered.', SPEC.scope)
      : auths.length > MAX_AUTHORIZATIONS
        ? grade(
            'scope-retry-limit',
            t3,
            'fail',
            `The client made ${auths.length} authorization requests; at most ${MAX_AUTHORIZATIONS} in all are expected when the scope never suffices.`,
            auths,
            SPEC.scope,
          )
        : grade('scope-retry-limit', t3, 'pass', `The client made ${auths.length} authorization request(s), within ${MAX_AUTHORIZATIONS}.`, auths, SPEC.scope),
  );
  if (spec.resource.resource !== undefined) {
    const t4 = 'Refuses metadata for another resource';
    const prm = f.steps.filter((s) => s.endpoint === 'prm');
    out.push(
      auths.length
        ? grade(
            'resource-mismatch-rejected',
            t4,
            'fail',
            `The metadata named resource ${spec.resource.resource}, yet the client went on to authorize.`,
            [...prm, ...auths],
            SPEC.mismatch,
          )
        : prm.length
          ? grade('resource-mismatch-rejected', t4, 'pass', 'The client read the mismatched metadata and did not authorize.', prm, SPEC.mismatch)
          : none('resource-mismatch-rejected', t4, 'The client never read the protected resource metadata.', SPEC.mismatch),
    );
  }
  return out;
}
