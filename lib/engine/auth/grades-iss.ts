import type { AuthSpec } from '../../scenario/auth-schema';
import type { Grade } from '../report-card';
import { authorizeSteps, grade, scopeSet, tokenSteps, type AuthFlow } from './grade-view';

/** Authorization grades about the authorization response's `iss`, offline access and authorization-server migration. */

const SPEC = {
  iss: 'MCP 2026-07-28 authorization §Authorization Response Validation (RFC 9207 iss, compared by simple string comparison before the code is used)',
  offline: 'MCP 2026-07-28 authorization §Refresh Tokens (SEP-2207): offline_access only when the server lists it',
  migration: 'MCP 2026-07-28 client registration §Authorization Server Binding (SEP-2352): credentials are bound to the server that issued them',
};

const none = (id: string, title: string, detail: string, spec: string): Grade => grade(id, title, 'not-observed', detail, [], spec);

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
