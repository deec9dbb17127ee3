import { z } from 'zod';
import { parseJson } from '../../shared/json';
import { readStreamCapped } from '../http-types';
import { isLoopbackUrl } from './http-util';
import type { AuthContext, KnownClient } from './state';

/**
 * Client ID Metadata Documents, the authorization server's side: a URL client_id is fetched
 * and checked. The fetch is the one request the mock makes on an outsider's word, so it is
 * held short (SSRF): https with a path (or a loopback URL, where tests and local tools serve
 * their document), no credentials or fragment in the URL, no literal private address, no
 * redirect followed, a time limit, a size cap and a JSON content type. Every refusal says why,
 * and the authorize or token endpoint passes the reason on as `invalid_client`.
 */

/** The most a document may weigh; real ones are a few hundred bytes. */
const CIMD_MAX_BYTES = 64 * 1024;
const CIMD_TIMEOUT_MS = 5_000;

const CimdSchema = z.looseObject({
  client_id: z.string(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()).min(1),
  grant_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
});

/**
 * Literal addresses of private, link-local and unspecified networks. The engine has no DNS (it
 * runs on web APIs only), so a name resolving to one is not caught here; literals are the cheap
 * half of the check and the usual way such a URL is written.
 */
function privateLiteral(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (!h.includes(':')) return false;
  return h === '::' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80') || h.startsWith('::ffff:');
}

/** Why a client_id may not be fetched, or undefined when it may. */
export function cimdUrlProblem(clientId: string): string | undefined {
  let u: URL;
  try {
    u = new URL(clientId);
  } catch {
    return 'the client_id is not a URL';
  }
  if (u.username || u.password) return 'a client metadata document URL may not carry a user name or password';
  if (u.hash || clientId.includes('#')) return 'a client metadata document URL may not carry a fragment';
  if (isLoopbackUrl(clientId)) return undefined;
  if (u.protocol !== 'https:') return 'a client metadata document URL must be https (or a loopback URL)';
  if (u.pathname === '/' || u.pathname === '') return 'a client metadata document URL must have a path';
  if (privateLiteral(u.hostname)) return `the mock does not fetch client metadata from a private address (${u.hostname})`;
  return undefined;
}

/** Read at most `max` bytes of a body; undefined when it is longer. */
async function readCapped(res: Response, max: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
  const bytes = await readStreamCapped(res.body, max);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** Fetch the body of a document URL under the limits above, or why not. */
async function fetchDocument(ctx: AuthContext, url: string): Promise<{ text: string } | { problem: string }> {
  let res: Response;
  try {
    res = await ctx.fetch(url, {
      redirect: 'manual',
      credentials: 'omit',
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(CIMD_TIMEOUT_MS),
    });
  } catch (e) {
    const timedOut = (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError';
    return {
      problem: timedOut
        ? `fetching the client metadata document took longer than ${CIMD_TIMEOUT_MS / 1000} s`
        : `fetching the client metadata document failed: ${(e as Error).message}`,
    };
  }
  // A browser reports a manual redirect as an opaque response with status 0.
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400))
    return { problem: `the client metadata document URL answered a redirect (HTTP ${res.status || 3}xx), which is not followed` };
  if (!res.ok) return { problem: `fetching the client metadata document answered HTTP ${res.status}` };
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !type.endsWith('+json'))
    return { problem: `the client metadata document must be application/json, not ${type || 'untyped'}` };
  const text = await readCapped(res, CIMD_MAX_BYTES).catch(() => undefined);
  if (text === undefined) return { problem: `the client metadata document is larger than ${CIMD_MAX_BYTES / 1024} KiB` };
  return { text };
}

/** Fetch and check a Client ID Metadata Document; a string says why it was refused. */
export async function fetchCimd(ctx: AuthContext, url: string): Promise<KnownClient | string> {
  const problem = cimdUrlProblem(url);
  if (problem) return problem;
  const got = await fetchDocument(ctx, url);
  if ('problem' in got) return got.problem;
  const json = parseJson(got.text);
  if (!json.ok) return `the client metadata document is not JSON: ${json.message}`;
  const parsed = CimdSchema.safeParse(json.value);
  if (!parsed.success) return 'the client metadata document lacks client_id, client_name or redirect_uris';
  if (parsed.data.client_id !== url) return 'the document client_id does not equal its URL';
  const method = parsed.data.token_endpoint_auth_method;
  if (method && method !== 'none') return 'only public CIMD clients (token_endpoint_auth_method none) are supported';
  return {
    clientId: url,
    redirectUris: parsed.data.redirect_uris,
    authMethod: 'none',
    grantTypes: parsed.data.grant_types ?? ['authorization_code'],
    as: 0,
    via: 'cimd',
  };
}
