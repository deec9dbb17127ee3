import type { ConnectionMeta } from './schema';
import { secretHeaderKind } from './secret-headers';

/**
 * What counts as a secret in a session, by where it appears (header names, query parameters,
 * JSON keys), and the connection metadata built without any secret value: recordings keep
 * the names of the user's custom headers but never their values.
 */

/** Cookie-carrying headers: each cookie value is a secret. */
export const COOKIE_HEADER = /^(cookie|set-cookie)$/i;
/** Session headers: an opaque id that authorizes the session. */
export const SESSION_HEADER = /^mcp-session-id$/i;
/** Query parameters that carry credentials (`?token=`, OAuth codes, signatures, API keys). */
export const SECRET_QUERY =
  /^(token|loupe_token|access_token|id_token|refresh_token|api[_-]?key|apikey|key|code|sig|signature|secret|client_secret|password|auth)$/i;

/**
 * Whether a header's whole value is a credential: Authorization, API keys, anything named like
 * a token, secret, password, credential, auth, key, signature, client certificate or session
 * (`X-Api-Key`, `X-Session-Token`, `X-Custom-Auth`, `Ocp-Apim-Subscription-Key`; the rules are
 * in secret-headers.ts). Cookies and Mcp-Session-Id have their own rules.
 */
export function isSecretHeaderName(name: string): boolean {
  return secretHeaderKind(name) !== undefined;
}

/**
 * The target with user info and credential query parameters removed. A stdio command line is
 * kept whole: its `TOKEN=…` assignments and `--token …` arguments are replaced by redaction
 * (named-text.ts), each with its pseudonym, as the same value is wherever else it occurs; dropped
 * here, the value left `TOKEN=` with no sign of which credential the command used.
 */
export function stripTargetSecrets(target: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return target;
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) if (SECRET_QUERY.test(name)) url.searchParams.delete(name);
  return url.toString();
}

/** What a session knows about its connection, secrets included; only names survive. */
export interface ConnectionInfo {
  target: string;
  transport?: ConnectionMeta['transport'];
  era?: ConnectionMeta['era'];
  protocolVersion?: string;
  clientInfo?: { name: string; version: string };
  serverInfo?: { name: string; version: string; [k: string]: unknown };
  /** The custom headers the user configured; their values are dropped here. */
  headers?: Record<string, string>;
}

/** Connection metadata with every secret value stripped. */
export function describeConnection(info: ConnectionInfo): ConnectionMeta {
  return {
    target: stripTargetSecrets(info.target),
    ...(info.transport ? { transport: info.transport } : {}),
    ...(info.era ? { era: info.era } : {}),
    ...(info.protocolVersion ? { protocolVersion: info.protocolVersion } : {}),
    ...(info.clientInfo ? { clientInfo: { name: info.clientInfo.name, version: info.clientInfo.version } } : {}),
    ...(info.serverInfo ? { serverInfo: info.serverInfo } : {}),
    headerNames: Object.keys(info.headers ?? {}),
  };
}
