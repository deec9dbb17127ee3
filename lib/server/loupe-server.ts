import path from 'node:path';
import { allowedHostsFromEnv, launchToken } from './launch';
import { createMockHost, type MockHost } from './mock-host';
import { createMockRouter, type MockRouter } from './mock-router';
import { parseStoreKind } from './open-stores';

/**
 * The web app's one mock host and router per process, shared by the Next route handlers and the
 * app server's node:http routes. It lives on `globalThis` so dev HMR re-evaluating a module (and
 * the separately bundled app server) reuses the open SQLite file instead of opening it again, and
 * it is created on the first request, never at build time.
 */

/** The process's mock host and the router in front of it. */
interface LoupeServer {
  host: MockHost;
  router: MockRouter;
}

// Every bundle in the process (Next's routes, dist/app-server.mjs) finds the server by this key.
const KEY = Symbol.for('mcp-loupe.next-route');
type GlobalWithLoupe = typeof globalThis & { [KEY]?: LoupeServer };

/** The one mock host and router of this process. */
export function loupeServer(): LoupeServer {
  const g = globalThis as GlobalWithLoupe;
  const existing = g[KEY];
  if (existing) return existing;
  const allowedHosts = allowedHostsFromEnv();
  const store = parseStoreKind(process.env.LOUPE_STORE, 'LOUPE_STORE');
  const host = createMockHost({ dataDir: process.env.LOUPE_DATA_DIR ?? path.resolve('.loupe'), allowedHosts, store });
  const server = { host, router: createMockRouter(host, 'demo', { token: launchToken(), allowedHosts }) };
  g[KEY] = server;
  return server;
}
