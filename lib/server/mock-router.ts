import { randomToken } from '../engine/runtime';
import { PROXY_PATH } from '../protocol/loupe-api';
import { createControlApi } from './control-api';
import { checkControlAccess } from './control-auth';
import { createLaunchAccess, type LaunchAccess } from './launch-access';
import { createProxy } from './proxy';
import { createStdioProxy } from './proxy-stdio';
import { HEALTH_PATH, healthResponse } from './healthz';
import { replaysOf } from './replay-registry';
import type { MockHost } from './mock-host';
import type { MockEngine } from '../engine';
import { toHttpInput, toResponse, type HttpInput, type HttpOutput } from '../engine/http-types';
import { json } from './respond';
import type { LaunchConnection } from '../protocol/launch-link';

/**
 * One fetch handler for a process: `/mcp` (the default scenario), `/mcp/<id>`, the token-gated
 * control API under `/api/` (see control-api.ts) and `/healthz`. Used by the CLI's node:http
 * server and by the app server.
 */

/** The process's one handler: MCP endpoints, replays, the proxies and the control API. */
export interface MockRouter {
  fetch(request: Request): Promise<Response>;
  /** The engine behind an MCP path (`/mcp`, `/mcp/<id>`), for hosts that call `engine.handle` directly. */
  engineFor(pathname: string): MockEngine | undefined;
  /**
   * The transport-neutral handler of a path node:http may serve without web Request/Response
   * objects (the MCP endpoints and the proxy, with the same access check), or undefined.
   */
  fastFor(pathname: string): ((input: HttpInput) => Promise<HttpOutput>) | undefined;
  /** The per-launch control token. */
  readonly token: string;
}

interface MockRouterOptions {
  token?: string;
  /** The launch's browser sessions (the app server's page gate hands them out); default: none, token only. */
  access?: LaunchAccess;
  allowedHosts?: string[];
  /** Keep-alive comment interval of the control API's event streams. */
  keepAliveMs?: number;
  /** The connection the command line asked for (`GET /api/launch`). */
  launch?: LaunchConnection;
}

/**
 * Path segments, decoded; undefined when one is not valid percent-encoding. Every MCP request
 * asks for its path's, nearly always one of a few paths: the last ones are remembered (bounded,
 * so paths a client makes up cannot grow it). Callers only read the array.
 */
function segments(pathname: string): readonly string[] | undefined {
  const known = recentSegments.get(pathname);
  if (known !== undefined || recentSegments.has(pathname)) return known;
  let parts: string[] | undefined;
  try {
    parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    parts = undefined;
  }
  if (recentSegments.size >= 64) recentSegments.clear();
  recentSegments.set(pathname, parts);
  return parts;
}
const recentSegments = new Map<string, readonly string[] | undefined>();

/** Create the router over a host; `/mcp` serves `defaultScenario`. */
export function createMockRouter(host: MockHost, defaultScenario: string, options: MockRouterOptions = {}): MockRouter {
  const access = options.access ?? createLaunchAccess(options.token ?? randomToken(24));
  const { token } = access;
  const control = createControlApi(host, { access, allowedHosts: options.allowedHosts, keepAliveMs: options.keepAliveMs, launch: options.launch });
  const proxy = createProxy();
  const guardedProxy = async (input: HttpInput): Promise<HttpOutput> => {
    const denied = checkControlAccess(input, access, options.allowedHosts);
    return denied
      ? { status: denied.status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }, body: JSON.stringify({ error: denied.error }) }
      : proxy.handle(input);
  };
  const stdio = createStdioProxy();

  const engineFor = (pathname: string): MockEngine | undefined => {
    const parts = segments(pathname);
    if (parts?.[0] !== 'mcp' || parts.length > 2) return undefined;
    return host.engine(parts[1] ?? defaultScenario);
  };

  /**
   * A scenario's authorization side (engine/auth): `/.well-known/<document>` followed by the
   * resource or issuer path it describes (`/mcp` and the root mean the default scenario), and
   * `/mcp/<id>/<more>` (its authorization server and custom metadata path).
   */
  const authFor = (pathname: string): ((input: HttpInput) => Promise<HttpOutput>) | undefined => {
    const parts = segments(pathname);
    if (!parts) return undefined;
    const [area, name, scoped, id] = parts;
    if (area === '.well-known' && name !== undefined && (scoped === undefined || scoped === 'mcp')) return host.engine(id ?? defaultScenario)?.handleAuth;
    if (area === 'mcp' && name !== undefined && name !== 'replay' && parts.length > 2) return host.engine(name)?.handleAuth;
    return undefined;
  };

  return {
    token,
    engineFor,
    fastFor: (pathname) => (pathname === PROXY_PATH ? guardedProxy : (engineFor(pathname)?.handle ?? authFor(pathname))),
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === HEALTH_PATH) return healthResponse(req, options.allowedHosts) ?? json(405, { error: 'GET /healthz only' });
      const parts = segments(url.pathname);
      if (!parts) return json(400, { error: `Malformed path: ${url.pathname}` });
      const [area, name, sub] = parts;
      if (area === 'mcp' && parts.length <= 2) {
        const engine = host.engine(name ?? defaultScenario);
        if (!engine) return json(404, { jsonrpc: '2.0', id: null, error: { code: -32601, message: `Unknown scenario: ${name}` } });
        return engine.fetch(req);
      }
      if (area === 'mcp' && name === 'replay' && sub !== undefined && parts.length === 3) {
        const replayed = replaysOf(host, options.allowedHosts).fetch(sub, req);
        return replayed ?? json(404, { jsonrpc: '2.0', id: null, error: { code: -32601, message: `Unknown replay: ${sub}` } });
      }
      if (area === 'api' && name === 'proxy' && parts.length === 2) {
        const denied = checkControlAccess(req, access, options.allowedHosts);
        return denied ? json(denied.status, { error: denied.error }) : proxy.fetch(req);
      }
      if (area === 'api' && name === 'proxy' && sub === 'stdio') {
        const denied = checkControlAccess(req, access, options.allowedHosts);
        return denied ? json(denied.status, { error: denied.error }) : stdio.handle(req, parts.slice(3));
      }
      if (area === 'api') return control(req, parts.slice(1));
      const auth = authFor(url.pathname);
      if (auth) return toResponse(await auth(toHttpInput(req)));
      return json(404, { error: `Not found: ${url.pathname}` });
    },
  };
}
