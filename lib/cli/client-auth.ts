import { createAuthorizedFetch, type AuthorizedFetch } from '../client/auth/authorized-fetch';
import type { ConnectionFlags } from './client-args';
import { startLoopback, type Loopback } from './auth-loopback';
import { err } from './client-output';
import { UsageError } from './errors';
import { createTokenFile } from './token-file';
import { VERSION } from './version';

/**
 * The client commands' authorization flags: `--token` (a ready bearer), `--auth` (the
 * authorization code flow with a loopback redirect; the authorize URL is printed for the user
 * to open), `--client-id`/`--client-secret` (pre-registered; without `--auth` they are a
 * machine client's client credentials) and `--scope`. Tokens stay in this process's memory
 * unless `--store-tokens FILE` asks to keep them (token-file.ts) for the next run.
 */

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** The Authorization header of `--token`, checked against `--header`. */
export function tokenHeader(flags: ConnectionFlags, headers: Record<string, string>): Record<string, string> {
  if (!flags.token) return {};
  if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) throw new UsageError('give --token or an Authorization --header, not both');
  if (flags.auth || flags.clientId || flags.storeTokens)
    throw new UsageError('--token is a ready bearer token: it goes without --auth, --client-id and --store-tokens');
  return { Authorization: `Bearer ${flags.token}` };
}

/** A CIMD client_id is an https URL with a path (a loopback http one is let through for local servers). */
function checkMetadataUrl(text: string): void {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`--client-metadata-url "${text}" is not a URL`);
  }
  const loopback = u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  if ((u.protocol !== 'https:' && !loopback) || u.pathname === '/' || u.hash)
    throw new UsageError('--client-metadata-url must be an https URL with a path and no fragment (http only on a loopback host)');
}

/** The OAuth wrapper the flags ask for (undefined: none), and how to release its listener. */
export function authOf(flags: ConnectionFlags, timeoutMs: number, fetch: Fetch): { auth?: AuthorizedFetch; close: () => void } {
  const machine = !flags.auth && !!flags.clientId && !!flags.clientSecret;
  if (!flags.auth && !machine) {
    if (flags.clientId || flags.clientSecret || flags.scope || flags.storeTokens || flags.clientMetadataUrl)
      throw new UsageError(
        '--client-id, --client-secret, --scope, --store-tokens and --client-metadata-url go with --auth (or --client-id with --client-secret for client credentials)',
      );
    return { close: () => {} };
  }
  if (flags.clientSecret && !flags.clientId) throw new UsageError('--client-secret needs --client-id');
  if (flags.clientMetadataUrl !== undefined) checkMetadataUrl(flags.clientMetadataUrl);
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
    ...(flags.clientMetadataUrl ? { clientMetadataUrl: flags.clientMetadataUrl } : {}),
    redirectUri: async () => (await listener()).redirectUri,
    authorizer: async (url) => {
      const l = await listener();
      err(`Open this URL in a browser to authorize (waiting on ${l.redirectUri}):\n  ${url}`);
      return l.waitForCallback();
    },
    clientName: `MCP Loupe ${VERSION}`,
    onNotice: (text) => err(text),
    fetch,
    ...(flags.storeTokens ? { store: createTokenFile(flags.storeTokens) } : {}),
  });
  return { auth, close: () => void loopback?.then((l) => l.close()).catch(() => {}) };
}
