import { readStreamCapped, toHttpInput, toResponse, type HttpInput, type HttpOutput } from '../engine/http-types';
import { PROXY_ANSWER_BYTES, PROXY_ERROR_HEADER, ProxyEnvelopeSchema, type ApiError } from '../protocol/loupe-api';
import { forwardedHeaders, relayedHeaders } from './proxy-headers';
import { relayStream } from './proxy-relay';
import { checkTarget } from './proxy-target';
import { parseJson } from '../shared/json';

/**
 * Loupe's server-side proxy (`POST /api/proxy`, token-gated by the router): the inspector in
 * the browser posts a JSON envelope `{ url, method, headers, body }` and gets the upstream's
 * answer back as it came (status, headers minus hop-by-hop ones, the body, streamed for SSE),
 * so it can reach servers without CORS and send headers a page cannot (Authorization).
 *
 * Guard rails: only http(s) targets that are not Loupe's own control routes (proxy-target.ts);
 * hop-by-hop headers stripped both ways (proxy-headers.ts); the envelope's size capped; the
 * upstream must answer within a time limit; of its answer at most `maxAnswerBytes` pass
 * (PROXY_ANSWER_BYTES, twice the page's own budget, one rule for both kinds): a JSON body over it
 * is refused (`too-large`), a stream is cut there with a notice (proxy-relay.ts, which tells the
 * client where and why) and lives at most `maxStreamMs`; a redirect is
 * refused (502 `redirect`), neither followed nor relayed, so an inspected server can never send
 * the browser anywhere, Loupe's own API included. A refusal carries `x-loupe-proxy-error` so a
 * client never mistakes it for the upstream's own status.
 */

interface ProxyOptions {
  /** Largest envelope accepted (default 1 MiB). */
  maxRequestBytes?: number;
  /** Most bytes of one upstream answer passed on, a JSON body or an SSE stream (default PROXY_ANSWER_BYTES). */
  maxAnswerBytes?: number;
  /** Time allowed for the upstream's answer, or its whole body when not streamed (default 30 s). */
  timeoutMs?: number;
  /** Longest an SSE stream is relayed before it is closed (default 30 min). */
  maxStreamMs?: number;
  fetch?: typeof fetch;
}

function refuse(status: number, code: string, error: string): HttpOutput {
  return {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', [PROXY_ERROR_HEADER]: code },
    body: JSON.stringify({ error } satisfies ApiError),
  };
}

/** The proxy with both faces: web fetch, and the transport-neutral one node:http serves directly. */
interface Proxy {
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
  const maxAnswer = options.maxAnswerBytes ?? PROXY_ANSWER_BYTES;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxStreamMs = options.maxStreamMs ?? 30 * 60_000;
  const doFetch = options.fetch ?? fetch;

  async function handle(req: HttpInput): Promise<HttpOutput> {
    if (req.method !== 'POST') return refuse(405, 'method', 'The proxy accepts POST with a JSON envelope { url, method, headers, body }');
    const raw = await req.readBody(maxRequest);
    if (raw === undefined) return refuse(413, 'too-large', `The envelope exceeds ${maxRequest} bytes`);
    const parsed = parseJson(raw);
    if (!parsed.ok) return refuse(400, 'envelope', 'The body must be a JSON envelope { url, method, headers, body }');
    const env = ProxyEnvelopeSchema.safeParse(parsed.value);
    if (!env.success)
      return refuse(400, 'envelope', `Invalid envelope: ${env.error.issues.map((i) => `${i.path.join('.') || 'envelope'} ${i.message}`).join('; ')}`);
    const checked = checkTarget(env.data.url, req);
    if (!checked.ok) return refuse(checked.status, checked.code, checked.error);
    const { target } = checked;
    let headers: Headers;
    try {
      headers = forwardedHeaders(env.data.headers);
    } catch (e) {
      return refuse(400, 'headers', `Invalid header: ${(e as Error).message}`);
    }

    const upstream = new AbortController();
    const onClientGone = () => upstream.abort(new Error('the client closed the proxy request'));
    req.signal.addEventListener('abort', onClientGone, { once: true });
    const deadline = setTimeout(() => upstream.abort(new Error('timeout')), timeoutMs);
    let res: Response;
    try {
      res = await doFetch(target, {
        method: env.data.method,
        headers,
        body: env.data.method === 'GET' ? undefined : env.data.body,
        signal: upstream.signal,
        redirect: 'manual',
      });
    } catch (e) {
      clearTimeout(deadline);
      req.signal.removeEventListener('abort', onClientGone);
      if (upstream.signal.reason instanceof Error && upstream.signal.reason.message === 'timeout')
        return refuse(504, 'timeout', `${target.origin} did not answer within ${timeoutMs} ms`);
      const reason = (e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message;
      // undici refuses the fetch standard's blocked ports (6000, 5060, ...) without connecting: the
      // server may well be up, so "bad port" alone read as though nothing listened there.
      const why = reason === 'bad port' ? `port ${target.port} is one that fetch and browsers refuse to use; serve it on another port` : reason;
      return refuse(502, 'unreachable', `Failed to reach ${target.origin}: ${why}`);
    }
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      // Relayed, the browser would follow it with Loupe's cookie, to Loupe's own API if the
      // upstream says so; followed here, the upstream could steer the proxy anywhere. Refused.
      clearTimeout(deadline);
      req.signal.removeEventListener('abort', onClientGone);
      upstream.abort(new Error('redirect refused'));
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get('location');
      return refuse(
        502,
        'redirect',
        `${target.origin} answered ${res.status} redirecting to ${location === null ? '(no Location)' : JSON.stringify(location.slice(0, 500))}: Loupe does not follow redirects from an inspected server; connect to the final URL instead`,
      );
    }
    const out = relayedHeaders(res.headers, res.status);
    const streamed = (res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    if (!streamed) {
      const body = await readStreamCapped(res.body, maxAnswer).catch(() => undefined);
      clearTimeout(deadline);
      req.signal.removeEventListener('abort', onClientGone);
      if (!body)
        return refuse(
          upstream.signal.aborted ? 504 : 502,
          upstream.signal.aborted ? 'timeout' : 'too-large',
          upstream.signal.aborted
            ? `${target.origin} did not finish its answer within ${timeoutMs} ms`
            : `The upstream body exceeds ${maxAnswer} bytes or failed`,
        );
      return { status: res.status, headers: out, ...(res.status === 204 || res.status === 304 ? {} : { body }) };
    }
    // A stream: the head arrived in time; from now on only its lifetime is capped.
    clearTimeout(deadline);
    return { status: res.status, headers: out, stream: relayStream(res.body!, upstream, { maxStreamMs, maxStreamBytes: maxAnswer }) };
  }

  return { handle, fetch: async (req) => toResponse(await handle(toHttpInput(req))) };
}
