import { z } from 'zod';
import { readStreamCapped, toHttpInput, toResponse, type HttpInput, type HttpOutput } from '../engine/http-types';

/**
 * Loupe's server-side proxy (`POST /api/proxy`, token-gated by the router): the inspector in
 * the browser posts a JSON envelope `{ url, method, headers, body }` and gets the upstream's
 * answer back as it came (status, headers minus hop-by-hop ones, the body, streamed for SSE),
 * so it can reach servers without CORS and send headers a page cannot (Authorization).
 *
 * Guard rails: http(s) targets only; never Loupe's own control routes (a target on this
 * server's host and port whose path starts with /api), so a page cannot use the proxy to
 * reach the API with the proxy's privileges; envelope and response sizes are capped; the
 * upstream must answer within a time limit and a stream lives at most `maxStreamMs`;
 * redirects are not followed; hop-by-hop headers are stripped both ways. A refusal carries
 * `x-loupe-proxy-error` so a client never mistakes it for the upstream's own status.
 */

export const PROXY_ERROR_HEADER = 'x-loupe-proxy-error';

export const ProxyEnvelopeSchema = z.object({
  url: z.string().min(1),
  method: z.enum(['POST', 'GET', 'DELETE']).default('POST'),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.string().optional(),
});
export type ProxyEnvelope = z.infer<typeof ProxyEnvelopeSchema>;

export interface ProxyOptions {
  /** Largest envelope accepted (default 1 MiB). */
  maxRequestBytes?: number;
  /** Largest non-streamed upstream body relayed (default 16 MiB). */
  maxResponseBytes?: number;
  /** Time allowed for the upstream's answer, or its whole body when not streamed (default 30 s). */
  timeoutMs?: number;
  /** Longest an SSE stream is relayed before it is closed (default 30 min). */
  maxStreamMs?: number;
  fetch?: typeof fetch;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) plus those the proxy recomputes or must not relay. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade'];
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'content-length', 'expect']);
// fetch already decoded the body; a Set-Cookie would land on Loupe's own origin.
const NOT_RELAYED = new Set([...HOP_BY_HOP, 'content-length', 'content-encoding', 'set-cookie']);

/** Names listed in a Connection header are hop-by-hop too. */
function connectionListed(value: string | null | undefined): Set<string> {
  return new Set((value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
}

function refuse(status: number, code: string, error: string): HttpOutput {
  return { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', [PROXY_ERROR_HEADER]: code }, body: JSON.stringify({ error }) };
}

const LOOPBACK = /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|\[::1\]|\[::\]|0\.0\.0\.0|\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d+\.\d+\.\d+)\]|\[::ffff:0:0\]|0)$/i;

function portOf(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

/** Whether `target` is this server's own /api (by host name, loopback alias, and port). */
export function isOwnControlRoute(target: URL, self: URL): boolean {
  let path = target.pathname.replace(/\/{2,}/g, '/');
  try {
    path = decodeURIComponent(path);
  } catch {
    /* undecodable: compare as is */
  }
  path = path.toLowerCase();
  if (path !== '/api' && !path.startsWith('/api/')) return false;
  if (portOf(target) !== portOf(self)) return false;
  const a = target.hostname.toLowerCase();
  const b = self.hostname.toLowerCase();
  return a === b || (LOOPBACK.test(a) && LOOPBACK.test(b));
}

/** The proxy with both faces: web fetch, and the transport-neutral one node:http serves directly. */
export interface Proxy {
  fetch(req: Request): Promise<Response>;
  handle(input: HttpInput): Promise<HttpOutput>;
}

/** Create the proxy's web fetch handler; the router checks the token before calling it. */
export function createProxyHandler(options: ProxyOptions = {}): (req: Request) => Promise<Response> {
  return createProxy(options).fetch;
}

/** Create the proxy; the router checks the token before calling it. */
export function createProxy(options: ProxyOptions = {}): Proxy {
  const maxRequest = options.maxRequestBytes ?? 1024 * 1024;
  const maxResponse = options.maxResponseBytes ?? 16 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxStreamMs = options.maxStreamMs ?? 30 * 60_000;
  const doFetch = options.fetch ?? fetch;

  async function handle(req: HttpInput): Promise<HttpOutput> {
    if (req.method !== 'POST') return refuse(405, 'method', 'The proxy accepts POST with a JSON envelope { url, method, headers, body }');
    const raw = await req.readBody(maxRequest);
    if (raw === undefined) return refuse(413, 'too-large', `The envelope exceeds ${maxRequest} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return refuse(400, 'envelope', 'The body must be a JSON envelope { url, method, headers, body }');
    }
    const env = ProxyEnvelopeSchema.safeParse(parsed);
    if (!env.success) return refuse(400, 'envelope', `Invalid envelope: ${env.error.issues.map((i) => `${i.path.join('.') || 'envelope'} ${i.message}`).join('; ')}`);
    let target: URL;
    try {
      target = new URL(env.data.url);
    } catch {
      return refuse(400, 'url', `Not a URL: ${env.data.url}`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return refuse(400, 'scheme', `The proxy only speaks http and https, not ${target.protocol}`);
    if (target.username || target.password) return refuse(400, 'url', 'Credentials in the URL are not forwarded; send an Authorization header instead');
    const self = new URL(req.url);
    const hostHeader = req.headers.get('host');
    if (hostHeader) self.host = hostHeader;
    if (isOwnControlRoute(target, self)) return refuse(403, 'self', "The proxy does not forward to Loupe's own /api routes");

    const headers = new Headers();
    const listed = connectionListed(Object.entries(env.data.headers).find(([k]) => k.toLowerCase() === 'connection')?.[1]);
    try {
      for (const [k, v] of Object.entries(env.data.headers)) if (!NOT_FORWARDED.has(k.toLowerCase()) && !listed.has(k.toLowerCase())) headers.append(k, v);
    } catch (e) {
      return refuse(400, 'headers', `Invalid header: ${(e as Error).message}`);
    }

    const upstream = new AbortController();
    const onClientGone = () => upstream.abort(new Error('the client closed the proxy request'));
    req.signal.addEventListener('abort', onClientGone, { once: true });
    const deadline = setTimeout(() => upstream.abort(new Error('timeout')), timeoutMs);
    let res: Response;
    try {
      res = await doFetch(target, { method: env.data.method, headers, body: env.data.method === 'GET' ? undefined : env.data.body, signal: upstream.signal, redirect: 'manual' });
    } catch (e) {
      clearTimeout(deadline);
      req.signal.removeEventListener('abort', onClientGone);
      if (upstream.signal.reason instanceof Error && upstream.signal.reason.message === 'timeout') return refuse(504, 'timeout', `${target.origin} did not answer within ${timeoutMs} ms`);
      return refuse(502, 'unreachable', `Failed to reach ${target.origin}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`);
    }
    const out: Record<string, string> = {};
    const dropped = connectionListed(res.headers.get('connection'));
    res.headers.forEach((v, k) => {
      if (!NOT_RELAYED.has(k) && !dropped.has(k)) out[k] = v;
    });
    out['cache-control'] = 'no-store';
    const streamed = (res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    if (!streamed) {
      const body = await readStreamCapped(res.body, maxResponse).catch(() => undefined);
      clearTimeout(deadline);
      req.signal.removeEventListener('abort', onClientGone);
      if (!body) return refuse(upstream.signal.aborted ? 504 : 502, upstream.signal.aborted ? 'timeout' : 'too-large', upstream.signal.aborted ? `${target.origin} did not finish its answer within ${timeoutMs} ms` : `The upstream body exceeds ${maxResponse} bytes or failed`);
      return { status: res.status, headers: out, ...(res.status === 204 || res.status === 304 ? {} : { body }) };
    }
    // A stream: the head arrived in time; from now on only its lifetime is capped.
    clearTimeout(deadline);
    const reader = res.body!.getReader();
    let lifetime: ReturnType<typeof setTimeout> | undefined;
    const relay = new ReadableStream<Uint8Array>({
      start(controller) {
        lifetime = setTimeout(() => {
          // Cut it as a drop: the client's reconnect plan takes over from here.
          controller.error(new Error(`stream lifetime of ${maxStreamMs} ms exceeded`));
          upstream.abort(new Error('stream lifetime exceeded'));
          void reader.cancel().catch(() => {});
        }, maxStreamMs);
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            clearTimeout(lifetime);
            controller.close();
          } else controller.enqueue(value);
        } catch (e) {
          // Relay the failure: the client must see a dropped stream, not a clean end.
          clearTimeout(lifetime);
          try {
            controller.error(e);
          } catch {
            /* already errored by the lifetime cap */
          }
        }
      },
      cancel() {
        clearTimeout(lifetime);
        upstream.abort(new Error('the client closed the stream'));
        void reader.cancel().catch(() => {});
      },
    });
    return { status: res.status, headers: out, stream: relay };
  }

  return { handle, fetch: async (req) => toResponse(await handle(toHttpInput(req))) };
}
