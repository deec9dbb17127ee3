/**
 * Masks the secrets of an authorization flow in text the inspector shows (a URL, a form or JSON
 * body): codes, PKCE verifiers, `state`, client secrets and assertions, tokens, and Bearer or
 * Basic credentials, as the header views mask Authorization (lib/state/header-mask.ts) until the
 * person reveals them. The same names lib/recording/secrets.ts redacts in exports.
 */

const KEYS = ['code', 'code_verifier', 'state', 'client_secret', 'client_assertion', 'access_token', 'refresh_token', 'id_token', 'registration_access_token'];
const DOTS = '••••••••';

const JSON_FIELD = new RegExp(`"(${KEYS.join('|')})"(\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');
const QUERY_FIELD = new RegExp(`([?&#]|^)(${KEYS.join('|')})=[^&#\\s"]*`, 'g');
const CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;

/** `text` with the secret values replaced by dots. */
export function maskAuthText(text: string): string {
  return text.replace(JSON_FIELD, `"$1"$2"${DOTS}"`).replace(QUERY_FIELD, `$1$2=${DOTS}`).replace(CREDENTIAL, `$1 ${DOTS}`);
}
