import type { Duplex } from 'node:stream';
import http, { type IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAllowedHost } from '../engine/guards';
import { randomToken } from '../engine/runtime';
import type { LaunchConnection } from '../protocol/launch-link';
import { SANDBOX_PROXY_PATH } from '../protocol/loupe-api';
import { HEALTH_PATH } from './healthz';
import { allowedHostNames } from './launch';
import { createLaunchAccess } from './launch-access';
import { createMockHost } from './mock-host';
import { createMockRouter } from './mock-router';
import { parseStoreKind } from './open-stores';
import { refuseTunnels, toNodeHandler } from './node-handler';
import { toWebRequest } from './node-request';
import { writeWebResponse } from './node-response';
import { withPageGate, type NodeListener } from './page-gate';
import { inspectorNames, sandboxProxyResponse, type ServedInspector } from './sandbox-proxy';
import type { PinnedScenario } from './scenario-files';
import { listenLoopback } from './loopback-listen';
import { createStaticPages } from './static-pages';
import { advertiseLoupe } from './tap-discovery';

/**
 * The app server: the whole product on one node:http server. `/mcp/**`, `/api/**` and `/healthz`
 * go to the mock router (engine routes take the fast path, as in `mcp-loupe mock`); the sandbox
 * page and the pages go through the page gate (Host check, launch-token exchange), the pages
 * from Next's static export on disk. `mcp-loupe open` (lib/cli/open-command.ts, which `npm start`
 * runs through scripts/serve.mjs) and `npm run dev` (scripts/dev.mjs, which hands the pages to
 * Next's dev server instead) both call {@link startAppServer}.
 */

interface AppServerOptions {
  /** Interface to bind (default 127.0.0.1). Callers refuse non-loopback binds themselves. */
  host?: string;
  /** Port (default 3000; 0 lets the system choose). */
  port?: number;
  /** Where the SQLite file, saved scenarios and recordings live. */
  dataDir: string;
  /** `memory`, `sqlite` or `auto` (default): see open-stores.ts. A string, as LOUPE_STORE gives it; checked. */
  store?: string;
  /** This launch's access token (default: a random one, returned). */
  token?: string;
  /**
   * Let the `?token=` link be used more than once (default: once). Only for a token the user
   * chose (LOUPE_TOKEN), which is their standing credential rather than a printed link.
   */
  reusableLink?: boolean;
  /** Host names accepted besides loopback (LOUPE_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** The exported pages (default: `app/` beside this module's bundle, i.e. dist/app). */
  pagesDir?: string;
  /** Serves the pages instead of the export (dev: Next's request handler); still behind the gate. */
  pages?: NodeListener;
  /** WebSocket upgrades that pass the Host check (dev: Next's hot reload). Others are refused. */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** The scenario `/mcp` serves (default `demo`). */
  defaultScenario?: string;
  /** Scenario files given on the command line, served at `/mcp/<id>` beside the built-ins. */
  scenarios?: readonly PinnedScenario[];
  /** The connection the command line asked for; `GET /api/launch` answers it, header values included. */
  launch?: LaunchConnection;
}

/** A running app server. */
export interface AppServer {
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  /** The control token (the CLI's `Authorization: Bearer`); it never signs a browser in unless reusable. */
  token: string;
  /** A new one-time value for a sign-in link `<url>/?token=<value>`. */
  link(): string;
  /** Another running Loupe that already advertises this data directory (so `mcp-loupe link` and `tasks` reach it, not this one). */
  advertHeldBy?: { url: string; pid: number };
  server: http.Server;
  close(): Promise<void>;
}

// The mock's OAuth discovery documents live under /.well-known (RFC 9728, RFC 8414, OpenID Discovery).
const OWN = /^\/(?:mcp|api|\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration))(?:\/|$)/;

/** The exported pages beside the bundle this code runs from (dist/cli.mjs, dist/app-server.mjs): dist/app. */
export function defaultPagesDir(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'app');
}

/** Start the app server; resolves once it listens. */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const token = options.token ?? randomToken(24);
  const allowedHosts = allowedHostNames(options.allowedHosts);
  const pages = options.pages ?? createStaticPages(options.pagesDir ?? defaultPagesDir()).handle;
  const mockHost = createMockHost({
    dataDir: options.dataDir,
    allowedHosts,
    store: parseStoreKind(options.store, 'LOUPE_STORE (--store)'),
    pinned: options.scenarios,
  });
  const access = createLaunchAccess(token, { reusableLink: options.reusableLink });
  const router = createMockRouter(mockHost, options.defaultScenario ?? 'demo', { access, allowedHosts, launch: options.launch });
  const api = toNodeHandler(router.fetch, (pathname) => router.fastFor(pathname));
  const gate = { access, allowedHosts };
  // Where this Loupe serves its inspector, known once it listens (no request arrives before).
  let served: ServedInspector = { port: -1, names: [] };
  const sandbox = withPageGate((req, res) => {
    // A web Request cannot carry TRACE or TRACK (its constructor throws), and the page is GET only.
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('GET only');
    void writeWebResponse(sandboxProxyResponse(toWebRequest(req, res), served, allowedHosts), res).catch(() => res.destroy());
  }, gate);
  const pagesBehindGate = withPageGate(pages, gate);
  // Loupe's pages hold a session: no other page may frame them (clickjacking). Only the sandbox
  // page is framed, by the inspector alone (its frame-ancestors, sandbox-proxy.ts).
  const gatedPages: NodeListener = (req, res) => {
    res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    res.setHeader('X-Frame-Options', 'DENY');
    pagesBehindGate(req, res);
  };

  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    // The error boundary of the pages and the sandbox (the API has its own in node-handler.ts):
    // a throw here would otherwise end the process.
    try {
      if (OWN.test(pathname) || pathname === HEALTH_PATH) api(req, res);
      else if (pathname === SANDBOX_PROXY_PATH) sandbox(req, res);
      else gatedPages(req, res);
    } catch {
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal error');
    }
  });
  server.keepAliveTimeout = 5_000;
  refuseTunnels(server);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (options.upgrade && isAllowedHost(req.headers.host ?? null, allowedHosts)) options.upgrade(req, socket, head);
    else socket.destroy();
  });
  const host = options.host ?? '127.0.0.1';
  const listening = await listenLoopback(server, host, options.port ?? 3000).catch((e: unknown) => {
    mockHost.close();
    throw e;
  });
  const { port } = listening;
  served = { port, names: inspectorNames(listening.address, listening.ipv6Loopback) };
  const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  // `mcp-loupe tap` finds this Loupe through the data directory and pushes its session here.
  const advertised = advertiseLoupe(options.dataDir, { url: host === '0.0.0.0' || host === '::' ? `http://127.0.0.1:${port}` : url, token });
  return {
    url,
    port,
    token,
    link: () => access.mintLink(),
    advertHeldBy: advertised.heldBy && { url: advertised.heldBy.url, pid: advertised.heldBy.pid },
    server,
    close: async () => {
      advertised.remove();
      server.closeAllConnections();
      // Both listeners: a [::1] one left open would keep the port's localhost name after we are gone.
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), listening.closeTwin()]);
      mockHost.close();
    },
  };
}
