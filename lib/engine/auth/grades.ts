import type { AuthSpec } from '../../scenario/auth-schema';
import type { JournalEntry } from '../journal';
import type { Grade } from '../report-card';
import { authFlow, authorizeSteps, codeOf, grade, tokenSteps, type AuthFlow, type AuthStep } from './grade-view';
import { gradeIss, gradeMigration, gradeOffline, gradeScopes } from './grades-scope';

/**
 * The report card's authorization grades. Each is named after the conformance suite check it
 * mirrors (@modelcontextprotocol/conformance, src/scenarios/client/auth) and is computed from
 * what the mock's authorization server and resource saw, on every flow, not only in the
 * scenario that suite uses to test it.
 */

const SPEC_AUTH = {
  pkce: 'MCP 2026-07-28 authorization §Authorization Code Protection: PKCE is required, with S256 (OAuth 2.1 §7.5.2, RFC 7636)',
  resource:
    'MCP 2026-07-28 authorization §Resource Parameter Implementation: resource (RFC 8707) in both the authorization and the token request, the canonical server URI',
  discovery: 'MCP 2026-07-28 authorization server discovery: protected resource metadata (RFC 9728) first, then RFC 8414 / OpenID metadata',
  registration: 'MCP 2026-07-28 client registration: pre-registration, Client ID Metadata Documents, then DCR (RFC 7591, application_type per SEP-837)',
  clientAuth: 'OAuth 2.1 §2.4 / RFC 8414 token_endpoint_auth_methods_supported: authenticate as the server supports',
};

const none = (id: string, title: string, detail: string, spec: string) => grade(id, title, 'not-observed', detail, [], spec);

/** Every authorization request passes a check. */
function eachAuthorize(f: AuthFlow, id: string, title: string, ok: (s: AuthStep) => boolean, bad: string, good: string): Grade {
  const steps = authorizeSteps(f);
  if (!steps.length) return none(id, title, 'No authorization request was made.', SPEC_AUTH.pkce);
  const failing = steps.filter((s) => !ok(s));
  return failing.length ? grade(id, title, 'fail', bad, failing, SPEC_AUTH.pkce) : grade(id, title, 'pass', good, steps, SPEC_AUTH.pkce);
}

function gradePkce(f: AuthFlow): Grade[] {
  const codeTokens = tokenSteps(f, 'authorization_code');
  const verifierSent = codeTokens.filter((s) => typeof s.params.code_verifier === 'string');
  const matches = codeTokens.filter((s) => s.facts.verifierMatches === true);
  return [
    eachAuthorize(
      f,
      'pkce-code-challenge-sent',
      'PKCE code_challenge sent',
      (s) => typeof s.params.code_challenge === 'string',
      'An authorization request had no code_challenge: PKCE is required.',
      'Every authorization request carried a code_challenge.',
    ),
    eachAuthorize(
      f,
      'pkce-s256-method-used',
      'PKCE method is S256',
      (s) => s.params.code_challenge_method === 'S256',
      'An authorization request did not use code_challenge_method=S256.',
      'Every authorization request used S256.',
    ),
    !codeTokens.length
      ? none('pkce-code-verifier-sent', 'PKCE code_verifier sent', 'No authorization_code token request was made.', SPEC_AUTH.pkce)
      : verifierSent.length === codeTokens.length
        ? grade('pkce-code-verifier-sent', 'PKCE code_verifier sent', 'pass', 'Every code exchange carried a code_verifier.', codeTokens, SPEC_AUTH.pkce)
        : grade(
            'pkce-code-verifier-sent',
            'PKCE code_verifier sent',
            'fail',
            'A code exchange had no code_verifier.',
            codeTokens.filter((s) => !verifierSent.includes(s)),
            SPEC_AUTH.pkce,
          ),
    !codeTokens.length
      ? none('pkce-verifier-matches-challenge', 'PKCE verifier matches the challenge', 'No authorization_code token request was made.', SPEC_AUTH.pkce)
      : matches.length === codeTokens.length
        ? grade(
            'pkce-verifier-matches-challenge',
            'PKCE verifier matches the challenge',
            'pass',
            'Every code_verifier hashed (S256) to its code_challenge.',
            codeTokens,
            SPEC_AUTH.pkce,
          )
        : grade(
            'pkce-verifier-matches-challenge',
            'PKCE verifier matches the challenge',
            'fail',
            'A code_verifier was missing or did not hash to the code_challenge of its code.',
            codeTokens.filter((s) => !matches.includes(s)),
            SPEC_AUTH.pkce,
          ),
  ];
}

/** An absolute URI without a fragment. */
const canonicalUri = (r: unknown) => {
  if (typeof r !== 'string' || r.includes('#')) return false;
  try {
    return !!new URL(r).protocol;
  } catch {
    return false;
  }
};

function gradeResource(f: AuthFlow): Grade[] {
  const auths = authorizeSteps(f);
  const tokens = tokenSteps(f).filter((s) => s.params.grant_type !== 'client_credentials');
  const prm = f.steps.find((s) => s.endpoint === 'prm' && s.status === 200)?.json?.resource;
  const sent = [...auths, ...tokens].filter((s) => s.params.resource !== undefined);
  const id = (s: AuthStep) => s.params.resource;
  // A code exchange names the same resource as the authorization request that produced its code.
  const pairs = tokens.flatMap((t) => auths.filter((a) => codeOf(a) && codeOf(a) === t.params.code).map((a) => [a, t] as const));
  const every = (gid: string, title: string, steps: AuthStep[], what: string) =>
    !steps.length
      ? none(gid, title, `No ${what} was made.`, SPEC_AUTH.resource)
      : steps.every((s) => id(s) !== undefined)
        ? grade(gid, title, 'pass', `Every ${what} carried resource.`, steps, SPEC_AUTH.resource)
        : grade(
            gid,
            title,
            'fail',
            `A ${what} had no resource parameter (RFC 8707).`,
            steps.filter((s) => id(s) === undefined),
            SPEC_AUTH.resource,
          );
  const invalid = sent.filter((s) => !canonicalUri(id(s)));
  const inconsistent = pairs.filter(([a, t]) => id(a) !== id(t)).flat();
  const offPrm = typeof prm === 'string' ? sent.filter((s) => id(s) !== prm) : [];
  return [
    every('resource-parameter-in-authorization', 'resource in the authorization request', auths, 'authorization request'),
    every('resource-parameter-in-token', 'resource in the token request', tokens, 'token request'),
    !sent.length
      ? none('resource-parameter-valid-uri', 'resource is a canonical URI', 'No resource parameter was sent.', SPEC_AUTH.resource)
      : invalid.length
        ? grade(
            'resource-parameter-valid-uri',
            'resource is a canonical URI',
            'fail',
            'A resource parameter was not an absolute URI without a fragment.',
            invalid,
            SPEC_AUTH.resource,
          )
        : grade(
            'resource-parameter-valid-uri',
            'resource is a canonical URI',
            'pass',
            'Every resource parameter was an absolute URI without a fragment.',
            sent,
            SPEC_AUTH.resource,
          ),
    !pairs.length
      ? none('resource-parameter-consistency', 'Same resource in authorization and token requests', 'No code was exchanged.', SPEC_AUTH.resource)
      : inconsistent.length
        ? grade(
            'resource-parameter-consistency',
            'Same resource in authorization and token requests',
            'fail',
            'A code exchange named another resource than its authorization request.',
            inconsistent,
            SPEC_AUTH.resource,
          )
        : grade(
            'resource-parameter-consistency',
            'Same resource in authorization and token requests',
            'pass',
            'Each code exchange named the resource of its authorization request.',
            pairs.flat(),
            SPEC_AUTH.resource,
          ),
    typeof prm !== 'string' || !sent.length
      ? none(
          'resource-parameter-matches-prm',
          'resource as published in the metadata',
          'No protected resource metadata was read, or no resource was sent.',
          SPEC_AUTH.resource,
        )
      : offPrm.length
        ? grade(
            'resource-parameter-matches-prm',
            'resource as published in the metadata',
            'fail',
            `A resource parameter differed from the metadata's resource ${prm} (a URL parser adding "/" is the usual cause).`,
            offPrm,
            SPEC_AUTH.resource,
          )
        : grade(
            'resource-parameter-matches-prm',
            'resource as published in the metadata',
            'pass',
            'Every resource parameter was the metadata resource, verbatim.',
            sent,
            SPEC_AUTH.resource,
          ),
  ];
}

function gradeDiscoveryAndClient(f: AuthFlow, spec: AuthSpec): Grade[] {
  const meta = f.steps.filter((s) => s.endpoint === 'as-metadata' && s.status === 200);
  const used = f.steps.filter((s) => ['authorize', 'token', 'register'].includes(s.endpoint));
  const rootPrm = f.steps.filter((s) => s.endpoint === 'unknown' && s.path === '/.well-known/oauth-protected-resource');
  const dcr = f.steps.filter((s) => s.endpoint === 'register');
  const badType = dcr.filter((s) => s.params.application_type !== 'native' && s.params.application_type !== 'web');
  const tokens = tokenSteps(f);
  const wrongMethod = tokens.filter(
    (s) => !spec.server.tokenEndpointAuthMethods.includes(String(s.facts.clientAuth) as never) || s.json?.error === 'invalid_client',
  );
  const cimdUsed = authorizeSteps(f).filter((s) => typeof s.params.client_id === 'string' && /^https?:\/\//.test(s.params.client_id));
  return [
    meta.length
      ? grade(
          'authorization-server-metadata',
          'Authorization server metadata fetched',
          'pass',
          'The client read the authorization server metadata.',
          meta,
          SPEC_AUTH.discovery,
        )
      : used.length
        ? grade(
            'authorization-server-metadata',
            'Authorization server metadata fetched',
            'fail',
            'The client used the authorization server without reading its metadata.',
            used,
            SPEC_AUTH.discovery,
          )
        : none(
            'authorization-server-metadata',
            'Authorization server metadata fetched',
            'The client never reached the authorization server.',
            SPEC_AUTH.discovery,
          ),
    spec.resource.metadata === 'path' && rootPrm.length
      ? grade(
          'prm-priority-order',
          'Path-based metadata tried before the root',
          'fail',
          'The client asked for root protected resource metadata although the path-based one exists.',
          rootPrm,
          SPEC_AUTH.discovery,
        )
      : none('prm-priority-order', 'Path-based metadata tried before the root', 'The client never asked for metadata at the root.', SPEC_AUTH.discovery),
    !dcr.length
      ? none('sep-837-application-type-present', 'DCR names its application_type', 'The client did not register dynamically.', SPEC_AUTH.registration)
      : badType.length
        ? grade(
            'sep-837-application-type-present',
            'DCR names its application_type',
            'fail',
            'A registration had no application_type of native or web.',
            badType,
            SPEC_AUTH.registration,
          )
        : grade(
            'sep-837-application-type-present',
            'DCR names its application_type',
            'pass',
            'Every registration named native or web.',
            dcr,
            SPEC_AUTH.registration,
          ),
    !spec.server.cimd || !authorizeSteps(f).length
      ? none(
          'cimd-client-id-used',
          'Client ID Metadata Document used where offered',
          'The server offers no CIMD, or no authorization request was made.',
          SPEC_AUTH.registration,
        )
      : cimdUsed.length
        ? grade(
            'cimd-client-id-used',
            'Client ID Metadata Document used where offered',
            'pass',
            'The client used a URL client_id (CIMD).',
            cimdUsed,
            SPEC_AUTH.registration,
          )
        : grade(
            'cimd-client-id-used',
            'Client ID Metadata Document used where offered',
            'fail',
            'The server advertised client_id_metadata_document_supported but the client did not use a URL client_id.',
            authorizeSteps(f),
            SPEC_AUTH.registration,
          ),
    !tokens.length
      ? none('token-endpoint-auth-method', 'Token endpoint authentication as supported', 'No token request was made.', SPEC_AUTH.clientAuth)
      : wrongMethod.length
        ? grade(
            'token-endpoint-auth-method',
            'Token endpoint authentication as supported',
            'fail',
            `A token request authenticated in a way this server does not accept (it supports ${spec.server.tokenEndpointAuthMethods.join(', ')}).`,
            wrongMethod,
            SPEC_AUTH.clientAuth,
          )
        : grade(
            'token-endpoint-auth-method',
            'Token endpoint authentication as supported',
            'pass',
            'Every token request authenticated its client as the server supports.',
            tokens,
            SPEC_AUTH.clientAuth,
          ),
  ];
}

/** Every authorization grade, in a fixed order. */
export function gradeAuth(entries: readonly JournalEntry[], spec: AuthSpec): Grade[] {
  const f = authFlow(entries);
  return [
    ...gradeDiscoveryAndClient(f, spec),
    ...gradePkce(f),
    ...gradeResource(f),
    ...gradeScopes(f, spec),
    ...gradeIss(f, spec),
    ...gradeOffline(f, spec),
    ...gradeMigration(f, spec),
  ];
}
