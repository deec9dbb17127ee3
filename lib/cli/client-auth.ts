import { createAuthorizedFetch, type AuthorizedFetch } from '../client/auth/authorized-fetch';
import type { ConnectionFlags } from './client-args';
import { startLoopback, type Loopback } from './auth-loopback';
import { err } from './client-output';
import { UsageError } from './errors';
import { VERSION } from './version';

/**
 * The client commands' authorization flags: `--token` (a ready bearer), `--auth` (the
 * authorization code flow with a loopback redirect; the authorize URL is printed for the user
 * to open), `--client-id`/`--client-secret` (pre-registered; without `--auth` they are a
 * machine client's client credentials) and `--scope`. Tokens stay in this process's memory.
 */

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** The Authorization header of `--token`, checked against `--header`. */
export function tokenHeader(flags: ConnectionFlags, headers: Record<string, string>): Record<string, string> {
  if (!flags.token) return {};
  if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) throw new UsageError('give --token or an Authorization --header, not both');
  if (flags.auth || flags.clientId) throw new UsageError('--token is a ready bearer token: it goes without --auth and --client-id');
  return { Authorization: `Bearer ${flags.token}` };
}

/** The OAuth wrapper the flags ask for (undefined: none), and how to release its listener. */
export function authOf(flags: ConnectionFlags, timeoutMs: number, fetch: Fetch): { auth?: AuthorizedFetch; close: () => void } {
  const machine = !flags.auth && !!flags.clientId && !!flags.clientSecret;
  if (!flags.auth && !machine) {
    if (flags.clientId || flags.clientSecret || flags.scope)
      throw new UsageError('--client-id, --client-secret and --scope go with --auth (or --client-id with --client-secret for client credentials)');
    return { close: () => {} };
  }
  if (flags.clientSecret && !flags.clientId) throw new UsageError('--client-secret needs --client-id');
  let loopback: Promise<Loopback> | undefined;
  const listener = () => {
    loopback ??= startLoopback(timeoutMs);
    return loopback;
  };
  const auth = createAuthorizedFetch({
    grant: machine ? 'client_credentials' : 'authorization_code',
    ...(flags.clientId ? { clientId: flags.clientId } : {}),
    ...(flags.clientSecret ? { clientSecret: flags.clientSecret } : {}),
    ...(flags.scope ? { scope: flags.scope } : {}),
    redirectUri: async () => (await listener()).redirectUri,
    authorizer: async (url) => {
      const l = await listener();
      err(`Open this URL in a browser to authorize (waiting on ${l.redirectUri}):\n  ${url}`);
      return l.waitForCallback();
    },
    clientName: `MCP Loupe ${VERSION}`,
    onNotice: (text) => err(text),
    fetch,
  });
  return { auth, close: () => void loopback?.then((l) => l.close()).catch(() => {}) };
}
