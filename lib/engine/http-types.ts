import type { SseSink } from './sse';
/**
 * The transport-neutral HTTP exchange the engine core works on. Hosts that already hold web
 * `Request`/`Response` objects go through {@link toHttpInput}/{@link toResponse}; the node:http
 * adapter builds these directly, which avoids a web-stream bridge per request on the hot path.
 */

/** Read-only, case-insensitive header access (a `Headers` object satisfies it). */
export interface HeaderBag {
  get(name: string): string | null;
  forEach(callback: (value: string, key: string) => void): void;
  /**
   * The headers as a record the host made for this request alone and will not change (node's
   * `req.headers` when every value is one string), so the journal can keep it instead of a copy.
   */
  record?(): Record<string, string> | undefined;
}

/** One HTTP request as the engine reads it, whatever the server (web Request or node:http). */
export interface HttpInput {
  method: string;
  url: string;
  headers: HeaderBag;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** The body as text, or undefined when it exceeds `max` bytes. */
  readBody(max: number): Promise<string | undefined>;
}

/** A complete answer (`body`) or a streamed one (`stream`, for SSE and dripped bodies). */
export interface HttpOutput {
  status: number;
  headers: Record<string, string>;
  /** Text (the engine's JSON), or bytes relayed as they came (the proxy). */
  body?: string | Uint8Array<ArrayBuffer>;
  stream?: ReadableStream<Uint8Array>;
  /** With `stream`: a node host may instead have the events written to it directly (see SseSink). */
  attach?: (sink: SseSink) => void;
  /** Cut the connection without an answer (an instance-down fault); a web Response becomes a network error. */
  reset?: boolean;
}

/** Read a byte stream with a cap; undefined (and the stream cancelled) when it exceeds `max`. */
export async function readStreamCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return all;
}

/** Read a web Request body as text with a byte cap; undefined when the cap is exceeded. */
export async function readCapped(req: Request, max: number): Promise<string | undefined> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) return undefined;
  const bytes = await readStreamCapped(req.body, max);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** Adapt a web Request. */
export function toHttpInput(req: Request): HttpInput {
  return { method: req.method, url: req.url, headers: req.headers, signal: req.signal, readBody: (max) => readCapped(req, max).catch(() => undefined) };
}

/** Adapt an output to a web Response. */
export function toResponse(out: HttpOutput): Response {
  if (out.reset) return Response.error();
  return new Response(out.stream ?? out.body ?? null, { status: out.status, headers: out.headers });
}

/** Headers as a plain record (for the journal): the host's own when it offers one, else a copy. */
export function headerRecord(h: HeaderBag): Record<string, string> {
  const own = h.record?.();
  if (own) return own;
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** The host of a URL, or null when it does not parse. */
export function safeHost(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
