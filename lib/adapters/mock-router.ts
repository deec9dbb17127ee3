import { randomToken } from '../engine/runtime';
import { isAllowedHost, isAllowedOrigin } from '../engine/guards';
import type { ControlAction } from '../engine';
import type { MockHost } from './mock-host';

/**
 * One fetch handler for a process: `/mcp` (the default scenario), `/mcp/<id>`, and the
 * token-gated control API under `/api/`. Used by the CLI's node:http server and by Next routes.
 */

export interface MockRouter {
  fetch(request: Request): Promise<Response>;
  /** The per-launch control token. */
  readonly token: string;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });

function presentedToken(req: Request): string | undefined {
  const auth = req.headers.get('authorization');
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  if (m) return m[1];
  const header = req.headers.get('x-loupe-token');
  if (header) return header;
  const cookie = req.headers.get('cookie') ?? '';
  const c = /(?:^|;\s*)loupe_token=([^;]+)/.exec(cookie);
  return c ? decodeURIComponent(c[1]) : undefined;
}

/** Constant-time string comparison. */
export function sameToken(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const ACTIONS = new Set(['advance', 'complete', 'fail', 'cancel', 'expire', 'require-input']);

export function createMockRouter(host: MockHost, defaultScenario: string, options: { token?: string; allowedHosts?: string[] } = {}): MockRouter {
  const token = options.token ?? randomToken(24);

  async function control(req: Request, parts: string[]): Promise<Response> {
    if (!isAllowedHost(req.headers.get('host'), options.allowedHosts)) return json(403, { error: 'Host is not a loopback name or an allowed host' });
    if (!isAllowedOrigin(req.headers.get('origin'), req.headers.get('host'))) return json(403, { error: 'Origin is not allowed' });
    if (!sameToken(presentedToken(req), token)) return json(401, { error: 'A valid Loupe token is required (Authorization: Bearer <token>)' });
    // /api/scenarios/:id/...
    if (parts[0] !== 'scenarios' || !parts[1]) return json(404, { error: `No control route /api/${parts.join('/')}` });
    const engine = host.engine(parts[1]);
    if (!engine) return json(404, { error: `Unknown scenario: ${parts[1]}` });
    if (parts.length === 2 && req.method === 'GET') {
      return json(200, { id: engine.scenario.id, name: engine.scenario.name, tools: engine.scenario.tools.map((t) => t.name), ledgerExecutions: host.stores.ledger.executions(engine.scenario.id) });
    }
    if (parts[2] === 'reset' && req.method === 'POST') {
      engine.reset();
      return json(200, { reset: engine.scenario.id });
    }
    if (parts[2] === 'journal' && req.method === 'GET') return json(200, { entries: engine.journal.entries(Number(new URL(req.url).searchParams.get('since') ?? 0)) });
    if (parts[2] === 'tasks') {
      if (parts.length === 3 && req.method === 'GET') return json(200, { tasks: engine.tasks.list() });
      const taskId = parts[3];
      if (parts.length === 4 && req.method === 'GET') {
        const t = engine.tasks.get(taskId);
        return t ? json(200, { task: t }) : json(404, { error: 'Unknown task' });
      }
      const action = parts[4];
      if (parts.length === 5 && req.method === 'POST' && ACTIONS.has(action)) {
        let body: Record<string, unknown> = {};
        try {
          const text = await req.text();
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          return json(400, { error: 'Body must be JSON' });
        }
        const act = { kind: action, ...(body.result ? { result: body.result } : {}), ...(body.error ? { error: body.error } : {}), ...(body.inputRequests ? { inputRequests: body.inputRequests } : {}) } as ControlAction;
        const rec = engine.tasks.control(taskId, act);
        return rec ? json(200, { task: rec }) : json(404, { error: 'Unknown task' });
      }
    }
    return json(404, { error: `No control route ${req.method} /api/${parts.join('/')}` });
  }

  return {
    token,
    async fetch(req) {
      const url = new URL(req.url);
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (parts[0] === 'mcp' && parts.length <= 2) {
        const engine = host.engine(parts[1] ?? defaultScenario);
        if (!engine) return json(404, { jsonrpc: '2.0', id: null, error: { code: -32601, message: `Unknown scenario: ${parts[1]}` } });
        return engine.fetch(req);
      }
      if (parts[0] === 'api') return control(req, parts.slice(1));
      return json(404, { error: `Not found: ${url.pathname}` });
    },
  };
}
