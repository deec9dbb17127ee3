import path from 'node:path';
import { createMockHost, type MockHost } from '../server/mock-host';
import { createMockRouter, type MockRouter } from '../server/mock-router';
import { allowedHostsFromEnv, launchToken } from './next-proxy';

/**
 * Next.js route handlers over the process-wide mock host: `/mcp`, `/mcp/<id>` and `/api/**`.
 * The host lives on `globalThis` so dev HMR re-evaluating this module reuses the open SQLite
 * file instead of opening it again, and it is created on the first request, never at build time.
 */

interface LoupeServer {
  host: MockHost;
  router: MockRouter;
}

const KEY = Symbol.for('mcp-loupe.next-route');
type GlobalWithLoupe = typeof globalThis & { [KEY]?: LoupeServer };

/** The one mock host and router of this process. */
export function loupeServer(): LoupeServer {
  const g = globalThis as GlobalWithLoupe;
  const existing = g[KEY];
  if (existing) return existing;
  const allowedHosts = allowedHostsFromEnv();
  const host = createMockHost({ dataDir: process.env.LOUPE_DATA_DIR ?? path.resolve('.loupe'), allowedHosts });
  const server = { host, router: createMockRouter(host, 'demo', { token: launchToken(), allowedHosts }) };
  g[KEY] = server;
  return server;
}

type RouteHandler = (request: Request) => Promise<Response>;

/** Route handlers for every method the mock router serves. */
export function toNextRoute(): { GET: RouteHandler; POST: RouteHandler; DELETE: RouteHandler; PUT: RouteHandler } {
  const handle: RouteHandler = (request) => loupeServer().router.fetch(request);
  return { GET: handle, POST: handle, DELETE: handle, PUT: handle };
}
