import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HeaderBag, HttpInput } from '../engine/http-types';
import { readNodeBody, readNodeBodyText } from './node-body';

/**
 * A node:http request as a web `Request` (streamed or, when small, buffered) or as the engine's
 * transport-neutral `HttpInput`. Either way its signal aborts when the client goes away.
 */

/** Bodies larger than this are not buffered; the handler sees a stream and applies its own cap. */
const BUFFER_LIMIT = 1024 * 1024;

/** A signal that aborts when the client goes away before the response finished. */
function disconnectSignal(res: ServerResponse): AbortSignal {
  const ac = new AbortController();
  // Asked for after the client left: 'close' has already fired.
  if (res.destroyed && !res.writableFinished) ac.abort(new Error('client disconnected'));
  else
    res.on('close', () => {
      if (!res.writableFinished) ac.abort(new Error('client disconnected'));
    });
  return ac.signal;
}

/** Headers and abort signal of a request; the signal aborts when the client goes away mid-answer. */
function requestInit(req: IncomingMessage, res: ServerResponse): { headers: Headers; signal: AbortSignal; url: string } {
  const signal = disconnectSignal(res);
  const headers = new Headers();
  // rawHeaders alternates name, value.
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    if (name !== undefined && value !== undefined) headers.append(name, value);
  }
  // Callers refuse a request without a URL first (node-handler.ts); the fallback only keeps this total.
  return { headers, signal, url: requestUrl(req) ?? 'http://127.0.0.1/' };
}

/**
 * Whether the request's Host header and target make an absolute URL (`Host: a:b` or a target
 * that is not a path do not): the Host check itself reads the header. Answered without building
 * the URL for a host already seen with a plain path, as nearly every request is.
 */
export function formsUrl(req: IncomingMessage): boolean {
  const target = req.url ?? '/';
  if (target.charCodeAt(0) !== 0x2f) return false;
  const host = cleanHost(req.headers.host);
  if (host === knownHost && PLAIN_TARGET.test(target)) return true;
  if (!URL.canParse(`http://${host}${target}`)) return false;
  knownHost = host;
  return true;
}

/** The request's absolute URL, or undefined when its Host header and target do not make one. */
function requestUrl(req: IncomingMessage): string | undefined {
  return formsUrl(req) ? absoluteUrl(req) : undefined;
}

function absoluteUrl(req: IncomingMessage): string {
  return `http://${cleanHost(req.headers.host)}${req.url ?? '/'}`;
}

/** Paths and queries made only of characters that cannot break a URL after a valid host. */
const PLAIN_TARGET = /^\/[\w\-.~/%?=&]*$/;
let knownHost: string | undefined;

/** The Host header with characters a host cannot hold removed (a missing or empty one is loopback). */
function cleanHost(header: string | undefined): string {
  if (header === undefined) return '127.0.0.1';
  if (header === knownHostHeader) return knownHostClean;
  const clean = header.replace(/[^\w.:[\]-]/g, '') || '127.0.0.1';
  knownHostHeader = header;
  knownHostClean = clean;
  return clean;
}
let knownHostHeader: string | undefined;
let knownHostClean = '127.0.0.1';

/** Convert an IncomingMessage into a web Request whose body streams (large or unknown-length bodies). */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const { headers, signal, url } = requestInit(req, res);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal,
    // Required by undici for streamed request bodies.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * The fast path: a small body (declared Content-Length under the limit) is read in full with
 * node streams and handed over as bytes, which avoids a web-stream bridge per request.
 */
export async function toBufferedRequest(req: IncomingMessage, res: ServerResponse): Promise<Request> {
  const { headers, signal, url } = requestInit(req, res);
  return new Request(url, { method: req.method, headers, body: await readNodeBody(req), signal });
}

/** Whether a request declares a body small enough for {@link toBufferedRequest}. */
export function canBuffer(req: IncomingMessage): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length <= BUFFER_LIMIT;
}

/**
 * Header names as node keys them (lower case). Callers ask for the same few names
 * (`MCP-Protocol-Version`, `Mcp-Method`, ...) about ten times per request: lowering each anew made
 * a fresh string, and looking a fresh string up as a key first hashes it. Bounded, as a scenario
 * can name any number of `Mcp-Param-*` headers.
 */
const lowered = new Map<string, string>();
function lowerName(name: string): string {
  let lower = lowered.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowered.size >= 256) lowered.clear();
    lowered.set(name, lower);
  }
  return lower;
}

/**
 * Case-insensitive access to node's already-lowercased headers. A class over the request, not
 * two closures per request; the journal keeps node's own header record rather than a copy.
 */
class NodeHeaders implements HeaderBag {
  constructor(private readonly req: IncomingMessage) {}

  get(name: string): string | null {
    const v = this.req.headers[lowerName(name)];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }

  forEach(callback: (value: string, key: string) => void): void {
    const h = this.req.headers;
    for (const k in h) {
      const v = h[k];
      if (v !== undefined) callback(Array.isArray(v) ? v.join(', ') : v, k);
    }
  }

  /** node's record itself when every value is a string (a repeated `set-cookie` is an array). */
  record(): Record<string, string> | undefined {
    const h = this.req.headers;
    for (const k in h) if (typeof h[k] !== 'string') return undefined;
    return h as Record<string, string>;
  }
}

/**
 * The request as the engine's transport-neutral input (no web Request, no header copy). Most
 * MCP requests answer before anything would listen for a disconnect: the controller and its
 * 'close' listener are made only when something asks for the signal (streams, delays).
 */
class NodeHttpInput implements HttpInput {
  readonly method: string;
  readonly headers: NodeHeaders;
  private disconnect: AbortSignal | undefined;
  // Made when read: a direct MCP request is routed by its path and checked by its Host header.
  private absolute: string | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method ?? 'GET';
    this.headers = new NodeHeaders(req);
  }

  get url(): string {
    this.absolute ??= absoluteUrl(this.req);
    return this.absolute;
  }

  get signal(): AbortSignal {
    this.disconnect ??= disconnectSignal(this.res);
    return this.disconnect;
  }

  readBody(max: number): Promise<string | undefined> {
    return readNodeBodyText(this.req, max);
  }
}

/** The request as the engine's transport-neutral input (its URL made only if read). */
export function toNodeHttpInput(req: IncomingMessage, res: ServerResponse): HttpInput {
  return new NodeHttpInput(req, res);
}
