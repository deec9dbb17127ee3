import { loupeServer } from '../server/loupe-server';

/**
 * Next.js route handlers for `/mcp`, `/mcp/<id>` and `/api/**`: each hands the request to the
 * process's mock router (see lib/server/loupe-server.ts).
 */

type RouteHandler = (request: Request) => Promise<Response>;

/** Route handlers for every method the mock router serves. */
export function toNextRoute(): { GET: RouteHandler; POST: RouteHandler; DELETE: RouteHandler; PUT: RouteHandler } {
  const handle: RouteHandler = (request) => loupeServer().router.fetch(request);
  return { GET: handle, POST: handle, DELETE: handle, PUT: handle };
}
