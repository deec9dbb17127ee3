import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpInput, HttpOutput } from '../engine/http-types';
import { canBuffer, formsUrl, toBufferedRequest, toNodeHttpInput, toWebRequest } from './node-request';
import { writeHttpOutput, writeWebResponse } from './node-response';

/**
 * A web fetch handler as a node:http request listener: the request becomes a `Request` whose
 * signal aborts when the client goes away, and the `Response` body is piped with back-pressure.
 * Paths with a fast path (the MCP endpoints, the proxy) skip web Request/Response objects.
 * This is the error boundary of every route: whatever a handler throws becomes a JSON-RPC
 * error answer on this request, never an exception that reaches the process.
 */

/** A web fetch handler (the mock router's `fetch`, an engine's). */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Where a request can skip web Request/Response objects: a function for its path, or undefined. */
export type FastPath = (pathname: string) => ((input: HttpInput) => Promise<HttpOutput>) | undefined;

const rpcError = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });

/** The last resort: an answer if none has started, else the connection is cut. */
function answerFailure(res: ServerResponse, e: unknown): void {
  if (!res.req.readableEnded) res.req.resume();
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'content-type': 'application/json' }).end(rpcError(-32603, `Internal error: ${e instanceof Error ? e.message : 'unknown'}`));
}

/** Serve a request through an engine's transport-neutral face (no web stream bridges). */
async function serveFast(handle: (input: HttpInput) => Promise<HttpOutput>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const out = await handle(toNodeHttpInput(req, res));
  const written = writeHttpOutput(out, res);
  // An early answer (400, 403, 413, 415) leaves the body unread: drain it so the connection can
  // be reused. Checked here rather than by a 'finish' listener per response: the fast path knows
  // when it has answered (node dumps a body nobody started reading by itself; this covers one
  // whose reading stopped midway).
  if (!req.readableEnded) req.resume();
  // Awaited only when there is a stream to wait for: returning a promise from an async function
  // costs two more microtask turns than returning nothing.
  if (written) await written;
}

/**
 * An early answer (400, 403, 413, 415) leaves the body unread: drain it so the connection can
 * be reused instead of stalling until the keep-alive timeout resets it. One function for every
 * response (`this` is the response), not a closure per request.
 */
function drainUnread(this: ServerResponse): void {
  if (!this.req.readableEnded) this.req.resume();
}

/** A node:http request listener serving a fetch handler (with an optional fast path for MCP routes). */
export function toNodeHandler(handler: FetchHandler, fast?: FastPath): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (!formsUrl(req)) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(rpcError(-32600, 'Bad Request: the Host header and the request target do not form a URL'));
      req.resume();
      return;
    }
    try {
      const target = req.url ?? '/';
      const query = target.indexOf('?');
      const direct = fast?.(query < 0 ? target : target.slice(0, query));
      if (direct) {
        serveFast(direct, req, res).catch((e: unknown) => answerFailure(res, e));
        return;
      }
      // 'finish' comes once per response.
      res.on('finish', drainUnread);
      // A request fetch cannot represent (a CONNECT or TRACE method, a body cut short) is the client's fault.
      const request = (async () => (canBuffer(req) ? toBufferedRequest(req, res) : toWebRequest(req, res)))();
      request.then(
        // Through a promise chain, so a handler that throws or answers synchronously (a plain
        // function in a test or an embedding) still gets its answer written or its error boundary.
        (r) =>
          Promise.resolve(r)
            .then(handler)
            .then((response) => writeWebResponse(response, res))
            .catch((e: unknown) => answerFailure(res, e)),
        (e: unknown) => {
          if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' }).end(`Bad request: ${e instanceof Error ? e.message : 'unreadable'}`);
        },
      );
    } catch (e) {
      answerFailure(res, e);
    }
  };
}

/** Answer CONNECT (a tunnel request node would otherwise drop without a word) with a 405. */
export function refuseTunnels(server: Server): void {
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, DELETE\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
}
