import { hostName } from '../engine/guards';

/**
 * What a launch of the app server shares between its parts: the extra host names (besides
 * loopback) its checks accept. Its token and browser sessions are in launch-access.ts.
 */

/** Host names as the Host checks compare them (`Example.test:8080` → `example.test`), blanks dropped. */
export function allowedHostNames(names: readonly string[] = []): string[] {
  return names
    .map((h) => h.trim())
    .filter(Boolean)
    .map(hostName);
}
