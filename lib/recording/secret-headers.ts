import { secretNameKind } from './secret-names';

/**
 * Which headers carry a credential, by name. A header is a message's own field, so its name is
 * read more freely than a JSON key: a user who passes `--header "X-Custom-Auth: …"` or an API
 * gateway's `Ocp-Apim-Subscription-Key` means a credential, whatever the spelling. The rules:
 * every name secret-names.ts knows (`…token`, `…secret`, `…api_key`, `auth`, …), and, by the
 * words of the name (split at `-` and `_`): a word `auth` or ending in `auth` (`X-Auth`,
 * `X-Custom-Auth`, `X-BasicAuth`), a last word `key` (`Ocp-Apim-Subscription-Key`,
 * `X-Functions-Key`), a signature (`X-Hub-Signature-256`, `Stripe-Signature`), a client
 * certificate (`X-Client-Cert`, `X-SSL-Client-Cert`), a session (`X-Session`, `X-Session-Id`) and
 * one-time codes (`X-OTP`, `X-MFA-Code`). Challenges and descriptions of credentials
 * (`WWW-Authenticate`, `Access-Control-Allow-Credentials`, `X-OAuth-Scopes`) name no value.
 */

/** The kind of secret a header of this name carries (a subset of the recording's kinds, secrets.ts). */
type HeaderSecretKind = 'token' | 'api-key' | 'session-id' | 'password' | 'private-key';

/** Headers about credentials that hold none: challenges, CORS, scopes, nonces, HTTP/2's `:authority`. */
const NOT_SECRET_HEADER =
  /^(access-control-.*|www-authenticate|proxy-authenticate|authentication-info|proxy-authentication-info|:authority|x-(accepted-)?oauth-scopes|signature-input|sec-websocket-key|idempotency-key|x-idempotency-key|cookie|set-cookie|mcp-session-id)$/i;

/** Words that make any header a credential wherever they stand in its name (`X-Token-Value`, `X-Secret-Header`). */
const ANYWHERE = /token|secret|api[-_]?key|credential/i;

/** A word of a header name that says its value authenticates (`auth`, `xauth`, `customauth`; not `oauth`, which only names the protocol). */
const isAuthWord = (w: string) => /^(auth|authn|authz|authorization|authentication|authkey|authcode)$/.test(w) || (w.endsWith('auth') && w !== 'oauth');

/** The kind of credential a header of this name carries, or undefined when its name says nothing. */
export function secretHeaderKind(name: string): HeaderSecretKind | undefined {
  if (NOT_SECRET_HEADER.test(name)) return undefined;
  const named = secretNameKind(name);
  if (named === 'cookie') return undefined;
  if (named) return named;
  if (/password|passwd/i.test(name)) return 'password';
  if (ANYWHERE.test(name)) return /key/i.test(name) ? 'api-key' : 'token';
  const words = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words[words.length - 1] ?? '';
  if (words.some(isAuthWord)) return 'token';
  if (last === 'key' || last === 'apikey' || last === 'subscriptionkey') return 'api-key';
  if (words.some((w) => /^(signature|sig)$/.test(w))) return 'token';
  if (words.some((w) => /^(cert|certificate|clientcert|sslcert)$/.test(w))) return 'token';
  if (words.includes('session') && /^(session|id|sessionid|token|key)$/.test(last)) return 'session-id';
  if (words.some((w) => /^(otp|totp|hotp|mfa|2fa|passcode|pin)$/.test(w))) return 'password';
  return undefined;
}
