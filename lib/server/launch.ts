import { hostName } from '../engine/guards';

/**
 * What a launch of the app server shares between its parts: the name of the cookie that carries
 * the launch token, and the extra host names (besides loopback) its checks accept.
 */

/** Name of the cookie that carries the launch token; the control API's gate reads the same name. */
export const TOKEN_COOKIE = 'loupe_token';

/** Host names as the Host checks compare them (`Example.test:8080` → `example.test`), blanks dropped. */
export function allowedHostNames(names: readonly string[] = []): string[] {
  return names
    .map((h) => h.trim())
    .filter(Boolean)
    .map(hostName);
}
