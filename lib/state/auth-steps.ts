/**
 * What the inspector says about each step of an OAuth flow (docs/authorization.md §15): its
 * title, the checks lib/client/auth makes on its answer (the guided card lists them before the
 * step goes), and the fix the "why did this fail" summary offers when it stops there.
 */

interface StepInfo {
  title: string;
  /** The checks to come, by the names lib/client/auth reports them under. */
  checks: string[];
}

const STEPS: Record<string, StepInfo> = {
  'resource-metadata': {
    title: 'Fetch the protected resource metadata',
    checks: ['protected resource metadata found', 'resource names this server (RFC 9728 §3.3)'],
  },
  'authorization-server-metadata': {
    title: 'Fetch the authorization server metadata',
    checks: [
      'authorization server metadata found',
      'issuer is identical to the one the URL was built from',
      'PKCE S256 supported (code_challenge_methods_supported)',
    ],
  },
  registration: { title: 'Register the client (dynamic client registration)', checks: ['registered (client_id returned)'] },
  authorization: {
    title: 'Send the browser to the authorization endpoint',
    checks: ['iss matches the recorded issuer', 'state matches', 'authorization response accepted'],
  },
  token: { title: 'Exchange the code for tokens', checks: ['access token issued'] },
  refresh: { title: 'Refresh the access token', checks: ['access token issued'] },
  'client-credentials': { title: 'Ask for a token with client credentials', checks: ['access token issued'] },
};

/** The title and checks to come of step `step`. */
export function stepInfo(step: string): StepInfo {
  return STEPS[step] ?? { title: step, checks: [] };
}

const FIXES: Record<string, string> = {
  challenge:
    'The server answered 401 without a usable Bearer challenge: it must send WWW-Authenticate: Bearer with resource_metadata (or publish protected resource metadata at the well-known path).',
  'resource-metadata':
    "The protected resource metadata (RFC 9728) must be published for this URL and its `resource` must name it (same origin, path prefix). Check the URL you connected to, or the server's metadata.",
  'authorization-server-metadata':
    'The authorization server must publish RFC 8414 or OpenID metadata at the well-known path of its issuer, with the identical `issuer` and S256 in code_challenge_methods_supported.',
  registration:
    'Enter a pre-registered client id (and secret) in the Authorize form, or use an authorization server that accepts dynamic registration or a Client ID Metadata Document.',
  authorization:
    "Allow popups for Loupe (or open the link it shows), then approve on the authorization server's page. In guided mode, Continue lets the step go.",
  callback:
    'The authorization response did not match the request (state or iss): authorize again; a wrong `iss` means the authorization server is misconfigured or another server answered.',
  token:
    'The token endpoint refused the code: check the client secret and the auth method the server accepts (token_endpoint_auth_methods_supported); a code is single-use, so authorize again.',
  refresh: 'The refresh token was refused (expired or rotated): authorize again.',
  'client-credentials': 'Check the client id and secret; the authorization server must allow the client_credentials grant for this client.',
  'step-up':
    'The server still asks for more scope after the retry limit: the authorization server may not grant it to this client. Check the scopes it lists and what the client may have.',
};

/** The fix to show for a flow that stopped at `step` with `message`. */
export function failureFix(step: string, message: string): string {
  if (/cancelled before/.test(message)) return 'You cancelled the flow in guided mode: press Authorize to start again.';
  return FIXES[step] ?? 'Read the failed check on the Auth lane and the rule it names.';
}
