import type { IncomingMessage, ServerResponse } from 'node:http';
import { loupeServer } from './loupe-server';
import { toNodeHandler } from './node-handler';

/**
 * The app server's own routes (`npm start`, scripts/serve.mjs): `/mcp/**` and `/api/**` go to
 * the process's mock router straight on node:http, as in `mcp-loupe mock` (engine routes take
 * the fast path); pages and assets go to Next. A Next route handler costs ~2-3 ms of latency
 * per request here, which would be all of the proxy's budget. The router is the same object
 * the Next route files use (`loupeServer()`), so either door reaches the same state and the
 * same access checks; a path this does not claim (odd case, percent-encoding) still reaches
 * the router through Next's route files.
 */

const OWN = /^\/(?:mcp|api)(?:\/|$)/;

/** A request listener front: handles Loupe's routes and returns true, or returns false for Next. */
export function createAppRoutes(): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { router } = loupeServer();
  const handle = toNodeHandler(router.fetch, (pathname) => router.fastFor(pathname));
  return (req, res) => {
    const [pathname = ''] = (req.url ?? '/').split('?');
    if (!OWN.test(pathname)) return false;
    handle(req, res);
    return true;
  };
}
