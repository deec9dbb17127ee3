import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HeaderBag, HttpInput, HttpOutput } from '../engine/http-types';
import { DRIP_HEADER } from '../engine/fault-stream';
import type { SseSink } from '../engine/sse';

/**
 * Wiring between node:http and a web fetch handler: the request becomes a `Request` whose
 * signal aborts when the client goes away, and the `Response` body is piped with back-pressure.
 */

export type FetchHandler = (request: Request) => Promise<Response>;

/** Bodies larger than this are not buffered; the handler sees a stream and applies its own cap. */
const BUFFER_LIMIT = 1024 * 1024;

/** Headers and abort signal of a request; the signal aborts when the client goes away mid-answer. */
function requestInit(req: IncomingMessage, res: ServerResponse, withHeaders = true): { headers: Headers; signal: AbortSignal; url: string } {
  const ac = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) ac.abort(new Error('client disconnected'));
  });
  const headers = new Headers();
  if (withHeaders) for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const host = (req.headers.host ?? '127.0.0.1').replace(/[^\w.:[\]-]/g, '') || '127.0.0.1';
  return { headers, signal: ac.signal, url: `http://${host}${req.url ?? '/'}` };
}

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
async function toBufferedRequest(req: IncomingMessage, res: ServerResponse): Promise<Request> {
  const { headers, signal, url } = requestInit(req, res);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request(url, { method: req.method, headers, body: Buffer.concat(chunks), signal });
}

function canBuffer(req: IncomingMessage): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length <= BUFFER_LIMIT;
}

/** Write a web Response to a ServerResponse, honouring back-pressure and client disconnects. */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length) headers['set-cookie'] = cookies;
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  // A dripped body is slow on purpose: stream it like SSE instead of buffering it.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') && !response.headers.has(DRIP_HEADER)) {
    // A complete (JSON) body: one write with its length instead of chunked pieces.
    const bytes = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(bytes.byteLength);
    res.writeHead(response.status, headers).end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  res.on('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      if (res.destroyed) break;
    }
  } catch {
    // The stream errored (a dropped-stream fault) or the client left. Node holds the last
    // write until the next tick, so cut the connection after it has gone out.
    setImmediate(() => res.destroy());
    return;
  } finally {
    res.off('close', onClose);
  }
  res.end();
}

/** Where a request can skip web Request/Response objects: a function for its path, or undefined. */
export type FastPath = (pathname: string) => ((input: HttpInput) => Promise<HttpOutput>) | undefined;

/** Case-insensitive access to node's already-lowercased headers. */
function headerBag(req: IncomingMessage): HeaderBag {
  return {
    get(name) {
      const v = req.headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
    forEach(callback) {
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) callback(Array.isArray(v) ? v.join(', ') : v, k);
    },
  };
}

/** A response as an SSE sink: events are written as they come, without a web stream between. */
function nodeSink(res: ServerResponse): SseSink {
  return {
    write: (chunk) => !res.destroyed && !res.writableEnded && res.write(chunk),
    end: () => {
      if (!res.writableEnded) res.end();
    },
    // Node holds the last write until the next tick: cut the connection after it has gone out.
    destroy: () => void setImmediate(() => res.destroy()),
    onDrain: (listener) => void res.on('drain', listener),
    onClose: (listener) => void res.once('close', listener),
  };
}

/** Serve a request through an engine's transport-neutral face (no web stream bridges). */
async function serveFast(handle: (input: HttpInput) => Promise<HttpOutput>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { signal, url } = requestInit(req, res, false);
  const input: HttpInput = {
    method: req.method ?? 'GET',
    url,
    headers: headerBag(req),
    signal,
    async readBody(max) {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of req) {
        total += (chunk as Buffer).byteLength;
        if (total > max) return undefined;
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
  };
  const out = await handle(input);
  if (out.attach) {
    res.writeHead(out.status, out.headers);
    res.flushHeaders();
    return out.attach(nodeSink(res));
  }
  if (out.stream) return writeWebResponse(new Response(out.stream, { status: out.status, headers: out.headers }), res);
  // A string body lets node send headers and body in one write.
  const body = out.body;
  res.writeHead(out.status, body !== undefined ? { ...out.headers, 'content-length': String(Buffer.byteLength(body)) } : out.headers).end(body);
}

/** A node:http request listener serving a fetch handler (with an optional fast path for MCP routes). */
export function toNodeHandler(handler: FetchHandler, fast?: FastPath): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const direct = fast?.((req.url ?? '/').split('?')[0]);
    if (direct) {
      res.once('finish', () => {
        if (!req.readableEnded) req.resume();
      });
      serveFast(direct, req, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${(e as Error).message}` } }));
      });
      return;
    }
    let request: Promise<Request>;
    try {
      request = canBuffer(req) ? toBufferedRequest(req, res) : Promise.resolve(toWebRequest(req, res));
    } catch (e) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`Bad request: ${(e as Error).message}`);
      return;
    }
    // An early answer (403, 413, 415) leaves the body unread: drain it so the connection can
    // be reused instead of stalling until the keep-alive timeout resets it.
    res.once('finish', () => {
      if (!req.readableEnded) req.resume();
    });
    request
      .then(handler)
      .then((response) => writeWebResponse(response, res))
      .catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${(e as Error).message}` } }));
      });
  };
}

/** Start an HTTP server; resolves with the bound port once it listens. */
export function listen(handler: FetchHandler, host: string, port: number, fast?: FastPath): Promise<{ server: http.Server; port: number; close: () => Promise<void> }> {
  const server = http.createServer(toNodeHandler(handler, fast));
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: bound,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
