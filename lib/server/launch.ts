import { hostName } from '../engine/guards';
import { randomToken } from '../engine/runtime';

/**
 * What a launch of the web app is configured with: the per-launch access token and the host
 * names allowed besides loopback, both from the environment `npm start` sets.
 */

/** Name of the cookie that carries the launch token; the mock router reads the same name. */
export const TOKEN_COOKIE = 'loupe_token';

/**
 * The per-launch token: `LOUPE_TOKEN` (set by `npm start`), or one generated on first use and
 * kept in `process.env` so the proxy and the route handlers of this process agree on it.
 */
export function launchToken(): string {
  const fromEnv = process.env.LOUPE_TOKEN;
  if (fromEnv) return fromEnv;
  const token = randomToken(24);
  process.env.LOUPE_TOKEN = token;
  // Only reached under `next dev` or a bare `next start`: the console is the user's own terminal.
  console.log(`Loupe: LOUPE_TOKEN is not set; this process generated one. Open /?token=${token}`);
  return token;
}

/** Extra host names allowed besides loopback, from the comma-separated `LOUPE_ALLOWED_HOSTS`. */
export function allowedHostsFromEnv(): string[] {
  return (process.env.LOUPE_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
    .map(hostName);
}
