import type { AuthSpec } from '../../scenario/auth-schema';
import type { JournalEntry } from '../journal';
import type { Grade } from '../report-card';
import { authFlow, authorizeSteps, judge, tokenSteps, type AuthFlow } from './grade-view';
import { gradeIss, gradeMigration, gradeOffline } from './grades-iss';
import { gradePkce, gradeResource } from './grades-pkce';
import { gradeScopes } from './grades-scope';

/**
 * The report card's authorization grades. Each is named after the conformance suite check it
 * mirrors (@modelcontextprotocol/conformance, src/scenarios/client/auth) and is computed from
 * what the mock's authorization server and resource saw, on every flow, not only in the
 * scenario that suite uses to test it.
 */

const DISCOVERY = 'MCP 2026-07-28 authorization server discovery: protected resource metadata (RFC 9728) first, then RFC 8414 / OpenID metadata';
const REGISTRATION = 'MCP 2026-07-28 client registration: pre-registration, Client ID Metadata Documents, then DCR (RFC 7591, application_type per SEP-837)';
const CLIENT_AUTH = 'OAuth 2.1 §2.4 / RFC 8414 token_endpoint_auth_methods_supported: authenticate as the server supports';
const REFRESH = 'MCP 2026-07-28 authorization §Refresh Tokens (SEP-2207): a client that wants refresh tokens lists refresh_token in its grant_types';

/** Root metadata paths: wrong for this server, whose issuer always has a path. */
const ROOT_AS_METADATA = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

function gradeDiscovery(f: AuthFlow, spec: AuthSpec): Grade[] {
  const meta = f.steps.filter((s) => s.endpoint === 'as-metadata' && s.status === 200);
  const used = f.steps.filter((s) => ['authorize', 'token', 'register'].includes(s.endpoint));
  const unknown = f.steps.filter((s) => s.endpoint === 'unknown');
  const rootPrm = unknown.filter((s) => s.path === '/.well-known/oauth-protected-resource');
  return [
    judge(
      {
        id: 'authorization-server-metadata',
        title: 'Authorization server metadata fetched',
        spec: DISCOVERY,
        none: 'The client never reached the authorization server.',
        fail: 'The client used the authorization server without reading its metadata.',
        pass: 'The client read the authorization server metadata.',
      },
      meta,
      meta.length ? [] : used,
    ),
    judge(
      {
        id: 'authorization-server-metadata-wrong-path',
        title: 'Metadata looked up with the issuer path',
        spec: DISCOVERY,
        none: 'The client never read the authorization server metadata.',
        fail: 'The client asked for metadata at the root although the issuer has a path (insert the path: /.well-known/…/<issuer path>).',
        pass: 'The client built the metadata URL from the issuer path.',
      },
      meta,
      unknown.filter((s) => ROOT_AS_METADATA.includes(s.path)),
    ),
    judge(
      {
        id: 'prm-priority-order',
        title: 'Path-based metadata tried before the root',
        spec: DISCOVERY,
        none: 'The client never read protected resource metadata.',
        fail: 'The client asked for root protected resource metadata although the path-based one exists.',
        pass: 'The client read the path-based protected resource metadata and not the root one.',
      },
      spec.resource.metadata === 'path' ? f.steps.filter((s) => s.endpoint === 'prm') : [],
      spec.resource.metadata === 'path' ? rootPrm : [],
    ),
  ];
}

function gradeClient(f: AuthFlow, spec: AuthSpec): Grade[] {
  const dcr = f.steps.filter((s) => s.endpoint === 'register');
  const tokens = tokenSteps(f);
  const auths = authorizeSteps(f);
  const urlClient = (v: unknown) => typeof v === 'string' && /^https?:\/\//.test(v);
  const supported: readonly string[] = spec.server.tokenEndpointAuthMethods;
  const grantTypes = (v: unknown) => (Array.isArray(v) ? v : []);
  return [
    judge(
      {
        id: 'sep-837-application-type-present',
        title: 'DCR names its application_type',
        spec: REGISTRATION,
        none: 'The client did not register dynamically.',
        fail: 'A registration had no application_type of native or web.',
        pass: 'Every registration named native or web.',
      },
      dcr,
      dcr.filter((s) => s.params.application_type !== 'native' && s.params.application_type !== 'web'),
    ),
    judge(
      {
        id: 'sep-2207-client-metadata-grant-types',
        title: 'DCR lists refresh_token among its grant types',
        spec: REFRESH,
        none: 'The client did not register dynamically.',
        fail: 'A registration did not list refresh_token in grant_types.',
        pass: 'Every registration listed refresh_token.',
      },
      dcr,
      dcr.filter((s) => !grantTypes(s.params.grant_types).includes('refresh_token')),
    ),
    judge(
      {
        id: 'cimd-client-id-used',
        title: 'Client ID Metadata Document used where offered',
        spec: REGISTRATION,
        none: 'The server offers no CIMD, or no authorization request was made.',
        fail: 'The server advertised client_id_metadata_document_supported but the client did not use a URL client_id.',
        pass: 'The client used a URL client_id (CIMD).',
      },
      spec.server.cimd ? auths : [],
      spec.server.cimd ? auths.filter((s) => !urlClient(s.params.client_id)) : [],
    ),
    judge(
      {
        id: 'token-endpoint-auth-method',
        title: 'Token endpoint authentication as supported',
        spec: CLIENT_AUTH,
        none: 'No token request was made.',
        fail: `A token request authenticated in a way this server does not accept (it supports ${supported.join(', ')}).`,
        pass: 'Every token request authenticated its client as the server supports.',
      },
      tokens,
      tokens.filter((s) => !supported.includes(String(s.facts.clientAuth)) || s.json?.error === 'invalid_client'),
    ),
  ];
}

/** Every authorization grade, in a fixed order. */
export function gradeAuth(entries: readonly JournalEntry[], spec: AuthSpec): Grade[] {
  const f = authFlow(entries);
  return [
    ...gradeDiscovery(f, spec),
    ...gradeClient(f, spec),
    ...gradePkce(f),
    ...gradeResource(f),
    ...gradeScopes(f, spec),
    ...gradeIss(f, spec),
    ...gradeOffline(f, spec),
    ...gradeMigration(f, spec),
  ];
}
