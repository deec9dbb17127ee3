import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { ROOT } from './processes';

/**
 * The OAuth flow as the tests drive it, in one place: discover → register → authorize → token,
 * whether the client is the official SDK (its own OAuth, through {@link MemoryOAuthProvider}
 * and {@link connectWithOAuth}), the headless CLI with a "person" who opens the printed URL
 * ({@link cliWithUser}), or a scripted client that takes each step itself and may break a rule
 * on purpose ({@link registerClient}, {@link authorizeAndExchange}, over any fetch).
 */

/** The SDK v2 client's OAuth provider, in memory; its "browser" follows the authorize redirect at once and keeps the callback. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  callback?: URL;
  /** Every authorization URL the client opened, in order (a step-up adds one). */
  authorizeUrls: URL[] = [];
  private info?: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  private saved?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  private verifier = '';
  private discovery?: Awaited<ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>>;
  readonly redirectUrl = 'http://127.0.0.1:7777/callback';
  constructor(private readonly clientName = 'sdk-oauth-test') {}
  get clientMetadata() {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: NonNullable<typeof this.info>) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<typeof this.saved>) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizeUrls.push(url);
    this.callback = new URL((await redirectOf(fetch, url)).location ?? '');
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: NonNullable<typeof this.discovery>) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/**
 * The SDK v2 client (pinned to 2026-07-28) through the whole flow: its first connect must be
 * refused with UnauthorizedError (the 401 sent it to discover, register and authorize), it
 * finishes with the callback's code, and the second connect succeeds. Returns the connected
 * client and its transport (for a step-up's finishAuth).
 */
export async function connectWithOAuth(url: URL, provider: MemoryOAuthProvider, name = 'sdk-oauth') {
  const open = () => ({
    client: new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
    transport: new StreamableHTTPClientTransport(url, { authProvider: provider }),
  });
  const first = open();
  const refused = await first.client.connect(first.transport).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`the first connect was not refused for authorization: ${String(refused)}`);
  if (!provider.callback) throw new Error('the client never opened an authorization URL');
  await first.transport.finishAuth(provider.callback.searchParams);
  const second = open();
  await second.client.connect(second.transport);
  return second;
}

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');

/**
 * Run the CLI (`--auth`) and be the person who opens every authorize URL it prints: the
 * authorization server redirects at once, the "browser" follows to the CLI's loopback listener.
 */
export function cliWithUser(args: string[]): Promise<{ code: number; stdout: string; stderr: string; opened: string[] }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const opened: string[] = [];
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', async (d) => {
    stderr += d;
    for (const m of stderr.matchAll(/Open this URL in a browser to authorize[^\n]*\n\s+(\S+)/g)) {
      const url = m[1];
      if (!url || opened.includes(url)) continue;
      opened.push(url);
      const { location } = await redirectOf(fetch, url);
      if (location) await fetch(location);
    }
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr, opened })));
}

/** How a scripted client reaches the authorization server: global fetch over HTTP, or an engine in process. */
export type AuthFetcher = (url: string, init?: RequestInit) => Promise<Response>;

/** GET without following: the answer and its Location (authorize answers with a redirect). */
async function redirectOf(fetcher: AuthFetcher, url: string | URL): Promise<{ res: Response; location: string | null }> {
  const res = await fetcher(String(url), { redirect: 'manual' });
  return { res, location: res.headers.get('location') };
}

/** POST a JSON object (registration) or a form (token) and read the JSON answer. */
async function postFor<T>(fetcher: AuthFetcher, url: string, body: Record<string, unknown> | URLSearchParams): Promise<{ status: number; json: T }> {
  const form = body instanceof URLSearchParams;
  const res = await fetcher(url, {
    method: 'POST',
    headers: { 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? body.toString() : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A PKCE pair (S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: b64url(createHash('sha256').update(verifier).digest()) };
}

/** The redirect URI the scripted client registers. */
export const REDIRECT = 'http://127.0.0.1:9999/callback';

/** A client registered by DCR at `issuer`. */
export async function registerClient(fetcher: AuthFetcher, issuer: string, body: Record<string, unknown> = {}) {
  const { status, json: reg } = await postFor<{ client_id: string; client_secret?: string }>(fetcher, `${issuer}/register`, {
    redirect_uris: [REDIRECT],
    client_name: 'scripted',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    ...body,
  });
  return { issuer, status, clientId: reg.client_id, clientSecret: reg.client_secret };
}

/** How the scripted client departs from the rules. */
export interface Misbehaviour {
  noPkce?: boolean;
  plainPkce?: boolean;
  noResource?: boolean;
  wrongVerifier?: boolean;
}

/** Everything one authorization yields. */
export interface Authorized {
  accessToken: string;
  refreshToken?: string;
  scope?: string;
  secrets: string[];
  location: URL;
}

/**
 * Authorize (the server consents at once) and exchange the code for `resource`. Throws when the
 * authorize step does not redirect, or the token step gives no access token (the error carries
 * the token answer's `json` and the authorize redirect's `location`).
 */
export async function authorizeAndExchange(
  fetcher: AuthFetcher,
  client: { issuer: string; clientId: string },
  resource: string,
  scope: string | undefined,
  bad: Misbehaviour = {},
): Promise<Authorized> {
  const { verifier, challenge } = pkce();
  const q = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 'st-1' });
  if (scope) q.set('scope', scope);
  if (!bad.noPkce) {
    q.set('code_challenge', bad.plainPkce ? verifier : challenge);
    q.set('code_challenge_method', bad.plainPkce ? 'plain' : 'S256');
  }
  if (!bad.noResource) q.set('resource', resource);
  const auth = await redirectOf(fetcher, `${client.issuer}/authorize?${q}`);
  if (auth.res.status !== 302) throw new Error(`authorize answered ${auth.res.status}: ${await auth.res.text()}`);
  const location = new URL(auth.location ?? '');
  const code = location.searchParams.get('code') ?? '';
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId });
  const sentVerifier = bad.wrongVerifier ? pkce().verifier : verifier;
  if (!bad.noPkce) form.set('code_verifier', sentVerifier);
  if (!bad.noResource) form.set('resource', resource);
  const tok = await postFor<{ access_token?: string; refresh_token?: string; scope?: string; error?: string }>(fetcher, `${client.issuer}/token`, form);
  const json = tok.json;
  if (!json.access_token) throw Object.assign(new Error(`token answered ${tok.status}: ${JSON.stringify(json)}`), { json, location, status: tok.status });
  return {
    accessToken: json.access_token,
    ...(json.refresh_token ? { refreshToken: json.refresh_token } : {}),
    ...(json.scope ? { scope: json.scope } : {}),
    secrets: [code, sentVerifier, json.access_token, ...(json.refresh_token ? [json.refresh_token] : [])],
    location,
  };
}
