import type { AuthSpec } from '../../scenario/auth-schema';
import type { Grade } from '../report-card';
import { authorizeSteps, grade, scopeSet, tokenSteps, type AuthFlow } from './grade-view';

/** Authorization grades about scopes, `iss`, offline access and authorization-server migration. */

const SPEC = {
  scope:
    'MCP 2026-07-28 authorization §Scope Selection Strategy and §Scope Challenge Handling (step-up with the union of scopes, SEP-2350; a few attempts at most)',
  iss: 'MCP 2026-07-28 authorization §Authorization Response Validation (RFC 9207 iss, compared by simple string comparison before the code is used)',
  offline: 'MCP 2026-07-28 authorization §Refresh Tokens (SEP-2207): offline_access only when the server lists it',
  migration: 'MCP 2026-07-28 client registration §Authorization Server Binding (SEP-2352): credentials are bound to the server that issued them',
  mismatch: 'RFC 9728 §3.3 / MCP 2026-07-28: protected resource metadata whose resource is not this server must not be used',
};

const none = (id: string, title: string, detail: string, spec: string): Grade => grade(id, title, 'not-observed', detail, [], spec);
const has = (set: string[], want: string[]) => want.every((s) => set.includes(s));
/** Authorization requests the client's flow really went through (the server did not refuse them at once). */
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

/** Did a code from this authorization reach the token endpoint? */
function exchanged(f: AuthFlow) {
  const auths = authorizeSteps(f).filter((a) => a.location && !a.location.includes('error='));
  const codeTokens = tokenSteps(f, 'authorization_code');
  return { auths, codeTokens };
}

export function gradeIss(f: AuthFlow, spec: AuthSpec): Grade[] {
  const s = spec.server;
  const { auths, codeTokens } = exchanged(f);
  if (s.metadataIssuer !== undefined) {
    const used = f.steps.filter((x) => ['authorize', 'token', 'register'].includes(x.endpoint));
    const meta = f.steps.filter((x) => x.endpoint === 'as-metadata');
    const t = 'Metadata with a foreign issuer is not used';
    return [
      used.length
        ? grade(
            'sep-2468-client-validate-metadata-issuer',
            t,
            'fail',
            `The metadata claimed issuer ${s.metadataIssuer}, which is not where it was fetched, yet the client used its endpoints.`,
            [...meta, ...used],
            SPEC.iss,
          )
        : meta.length
          ? grade('sep-2468-client-validate-metadata-issuer', t, 'pass', 'The client fetched the mismatched metadata and did not use it.', meta, SPEC.iss)
          : none('sep-2468-client-validate-metadata-issuer', t, 'The client never fetched the metadata.', SPEC.iss),
    ];
  }
  const advertised = s.issSupported === 'true';
  const mode = s.issInRedirect;
  const accept = mode === 'correct' || (mode === 'omit' && !advertised);
  const id =
    mode === 'normalized'
      ? 'sep-2468-client-no-normalization'
      : mode === 'omit'
        ? advertised
          ? 'sep-2468-client-reject-missing-iss'
          : 'sep-2468-client-proceed-no-iss'
        : advertised
          ? 'sep-2468-client-compare-iss-supported'
          : 'sep-2468-client-compare-iss-unadvertised';
  const title = accept ? 'Accepts a valid authorization response' : 'Rejects an authorization response with a bad iss';
  if (!auths.length) return [none(id, title, 'No authorization response was sent.', SPEC.iss)];
  if (accept)
    return [
      codeTokens.length
        ? grade(id, title, 'pass', 'The client exchanged the code.', [...auths, ...codeTokens], SPEC.iss)
        : grade(id, title, 'fail', 'The authorization response was valid, yet the client never exchanged its code.', auths, SPEC.iss),
    ];
  const why =
    mode === 'wrong'
      ? 'an iss of another server'
      : mode === 'normalized'
        ? 'the issuer with a trailing slash (no normalization allowed)'
        : 'no iss although the server advertises it';
  return [
    codeTokens.length
      ? grade(
          id,
          title,
          'fail',
          `The authorization response carried ${why}, yet the client sent its code to the token endpoint.`,
          [...auths, ...codeTokens],
          SPEC.iss,
        )
      : grade(id, title, 'pass', `The authorization response carried ${why}, and the client did not use its code.`, auths, SPEC.iss),
  ];
}

export function gradeOffline(f: AuthFlow, spec: AuthSpec): Grade[] {
  const auths = authorizeSteps(f);
  const asking = auths.filter((a) => scopeSet(a.params.scope).includes('offline_access'));
  const listed = spec.server.scopesSupported?.includes('offline_access') ?? false;
  if (listed) {
    const t = 'Asks for offline_access where offered';
    return [
      asking.length
        ? grade('sep-2207-offline-access-requested', t, 'pass', 'The server lists offline_access and the client asked for it.', asking, SPEC.offline)
        : none(
            'sep-2207-offline-access-requested',
            t,
            auths.length ? 'The server lists offline_access; the client did not ask for it (allowed).' : 'No authorization request was made.',
            SPEC.offline,
          ),
    ];
  }
  const t = 'No offline_access where not offered';
  return [
    !auths.length
      ? none('sep-2207-offline-access-not-requested', t, 'No authorization request was made.', SPEC.offline)
      : asking.length
        ? grade(
            'sep-2207-offline-access-not-requested',
            t,
            'fail',
            'The server does not list offline_access, yet the client asked for it.',
            asking,
            SPEC.offline,
          )
        : grade(
            'sep-2207-offline-access-not-requested',
            t,
            'pass',
            'The client did not ask for offline_access, which the server does not list.',
            auths,
            SPEC.offline,
          ),
  ];
}

export function gradeMigration(f: AuthFlow, spec: AuthSpec): Grade[] {
  if (spec.server.migrateAfterCalls === undefined) return [];
  const atNew = f.steps.filter((s) => s.as === 2 && ['authorize', 'token'].includes(s.endpoint));
  const leaked = atNew.filter((s) => String(s.params.client_id ?? s.facts.clientId ?? '').startsWith('as1-client-'));
  const registered = f.steps.filter((s) => s.as === 2 && s.endpoint === 'register' && s.status === 201);
  const t1 = 'No credentials of the old server at the new one';
  const t2 = 'Registers again at the new server';
  return [
    !atNew.length
      ? none('sep-2352-no-cross-as-credential-reuse', t1, 'The client never used the new authorization server.', SPEC.migration)
      : leaked.length
        ? grade(
            'sep-2352-no-cross-as-credential-reuse',
            t1,
            'fail',
            'The client presented the client_id of the first server to the second.',
            leaked,
            SPEC.migration,
          )
        : grade('sep-2352-no-cross-as-credential-reuse', t1, 'pass', 'The client used fresh credentials at the new server.', atNew, SPEC.migration),
    registered.length
      ? grade('sep-2352-reregister-on-as-change', t2, 'pass', 'The client registered with the new server.', registered, SPEC.migration)
      : none(
          'sep-2352-reregister-on-as-change',
          t2,
          atNew.length ? 'The client used the new server without registering there (CIMD clients need not).' : 'The client never moved to the new server.',
          SPEC.migration,
        ),
  ];
}
