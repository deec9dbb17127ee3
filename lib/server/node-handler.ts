import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpInput, HttpOutput } from '../engine/http-types';
import { canBuffer, toBufferedRequest, toNodeHttpInput, toWebRequest } from './node-request';
import { writeHttpOutput, writeWebResponse } from './node-response';

/**
 * A web fetch handler as a node:http request listener: the request becomes a `Request` whose
 * signal aborts when the client goes away, and the `Response` body is piped with back-pressure.
 * Paths with a fast path (the MCP endpoints, the proxy) skip web Request/Response objects.
 */

/** A web fetch handler (the mock router's `fetch`, an engine's). */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Where a request can skip web Request/Response objects: a function for its path, or undefined. */
export type FastPath = (pathname: string) => ((input: HttpInput) => Promise<HttpOutput>) | undefined;

const internalError = (e: unknown) => JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${(e as Error).message}` } });

/** Serve a request through an engine's transport-neutral face (no web stream bridges). */
async function serveFast(handle: (input: HttpInput) => Promise<HttpOutput>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const out = await handle(toNodeHttpInput(req, res));
  return writeHttpOutput(out, res);
}

/** A node:http request listener serving a fetch handler (with an optional fast path for MCP routes). */
export function toNodeHandler(handler: FetchHandler, fast?: FastPath): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const [pathname = ''] = (req.url ?? '/').split('?');
    const direct = fast?.(pathname);
    if (direct) {
      res.once('finish', () => {
        if (!req.readableEnded) req.resume();
      });
      serveFast(direct, req, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(internalError(e));
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
        res.end(internalError(e));
      });
  };
}
