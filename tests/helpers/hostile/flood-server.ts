import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A hostile MCP server (2026-07-28, stateless, plain node:http on 127.0.0.1, no CORS so the
 * inspector goes through its proxy) that tries to freeze the page by volume:
 * - `tools/list` holds `toolCount` tools (100,000 by default), `pageSize` per page, and
 *   `resources/list` and `prompts/list` as many resources and prompts as asked for;
 * - `flood_app` has an MCP App whose view, once initialized, posts `count` bridge messages in one
 *   burst (`mode: "burst"`) or keeps posting `perTick` every 10 ms for `forMs` (`mode: "sustained"`),
 *   each padded with `padBytes` of text; `flood_app_sustained` (2,000 a second for 5 s) and
 *   `flood_app_huge` (100 messages of 1 MiB at once) are the same view with those as defaults, and
 *   `flood_app_direct` posts its burst to the top window itself, around the sandbox proxy;
 * - `endless_stream` answers with an SSE stream of ~60 KiB progress notifications that never ends;
 *   the server counts what it wrote and notices when the reader closes it.
 */

const VERSION = '2026-07-28';
const SERVER_INFO = { name: 'hostile-flood', version: '1.0.0' };
const APP_URI = 'ui://flood/view.html';
const APP_MIME = 'text/html;profile=mcp-app';
/** Bytes of padding in each endless-stream event (the JSON around it adds ~150): 16 MiB is ~270 events. */
const EVENT_PADDING = 60_000;

interface FloodServerOptions {
  toolCount?: number;
  /** Resources listed by resources/list (default 0), `pageSize` per page. */
  resourceCount?: number;
  /** Prompts listed by prompts/list (default 0; the prompts capability is declared only when some are). */
  promptCount?: number;
  pageSize?: number;
}

/** What the latest endless stream did: bytes written, and whether (and after how many bytes) the reader closed it. */
export interface EndlessStreamStats {
  /** Endless streams opened so far (the other figures are the latest one's). */
  opened: number;
  bytesWritten: number;
  closedByReader: boolean;
  bytesAtClose?: number;
}

export interface FloodServer {
  url: string;
  toolCount: number;
  resourceCount: number;
  promptCount: number;
  /** Requests of each method received so far. */
  counts: Map<string, number>;
  endless(): EndlessStreamStats;
  stop(): Promise<void>;
}

/** The flood views by URI, each with the defaults its tool's input may override. */
const FLOOD_VIEWS: Record<string, Record<string, unknown>> = {
  [APP_URI]: {},
  'ui://flood/sustained.html': { mode: 'sustained', perTick: 20, forMs: 5000 },
  'ui://flood/huge.html': { count: 100, padBytes: 1024 * 1024 },
  'ui://flood/direct.html': { direct: true },
};

/** The view: handshake, then flood the host as the tool input says. */
const viewHtml = (defaults: Record<string, unknown>) => `<!doctype html><html><head><meta charset="utf-8"><title>flood</title></head><body>
<p id="status">starting</p>
<script>
(() => {
  const post = (m) => window.parent.postMessage(m, '*');
  const status = (t) => { document.getElementById('status').textContent = t; };
  let flooding = false;
  function flood(input) {
    if (flooding) return;
    flooding = true;
    const args = Object.assign(${JSON.stringify(defaults)}, input);
    const count = Number(args.count) || 20000;
    const pad = 'x'.repeat(Number(args.padBytes) || 0);
    const note = (i) => ({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 300, height: 100 + (i % 50) }, pad });
    const ask = (i) => ({ jsonrpc: '2.0', id: 'flood-' + i, method: 'ui/update-model-context', params: { content: [{ type: 'text', text: 'flood ' + i + pad }] } });
    // direct: around the sandbox proxy, straight to the inspector's page.
    const send = args.direct ? (m) => window.top.postMessage(m, '*') : post;
    const one = (i) => send(i % 2 ? note(i) : ask(i));
    if (args.mode === 'sustained') {
      let i = 0;
      const per = Number(args.perTick) || 20;
      const until = Date.now() + (Number(args.forMs) || 5000);
      const timer = setInterval(() => { for (let k = 0; k < per; k++) one(i++); status('sent ' + i); if (Date.now() > until) clearInterval(timer); }, 10);
      return;
    }
    for (let i = 0; i < count; i++) one(i);
    status('sent ' + count);
  }
  window.addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.jsonrpc !== '2.0') return;
    if (d.id === 'init' && d.result) {
      post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
      status('initialized');
    }
    if (d.method === 'ui/notifications/tool-input') flood((d.params && d.params.arguments) || {});
  });
  post({ jsonrpc: '2.0', id: 'init', method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'flood', version: '1' }, appCapabilities: {} } });
})();
</script></body></html>`;

function toolAt(i: number): Record<string, unknown> {
  const n = String(i).padStart(6, '0');
  return {
    name: `tool_${n}`,
    title: `Tool ${n}`,
    description: `Generated tool number ${n} of a server that lists far too many tools.`,
    inputSchema: { type: 'object', properties: { value: { type: 'string', description: 'any text' } } },
  };
}

/** The hand-written tools first, then generated ones up to `total`. */
function toolsPage(cursor: number, size: number, total: number): Record<string, unknown>[] {
  const special = [
    {
      name: 'endless_stream',
      description: 'Answers with an SSE stream that never ends.',
      inputSchema: { type: 'object', properties: {} },
    },
    {
      name: 'flood_app',
      description: 'An MCP App that floods the host with bridge messages.',
      inputSchema: {
        type: 'object',
        properties: { mode: { type: 'string', enum: ['burst', 'sustained'] }, count: { type: 'integer' }, perTick: { type: 'integer' } },
      },
      _meta: { ui: { resourceUri: APP_URI } },
    },
    {
      name: 'flood_app_sustained',
      description: 'An MCP App that sends 2,000 bridge messages a second for 5 s.',
      inputSchema: { type: 'object', properties: {} },
      _meta: { ui: { resourceUri: 'ui://flood/sustained.html' } },
    },
    {
      name: 'flood_app_direct',
      description: 'An MCP App that posts 20,000 messages at once to the top window, around its sandbox proxy.',
      inputSchema: { type: 'object', properties: {} },
      _meta: { ui: { resourceUri: 'ui://flood/direct.html' } },
    },
    {
      name: 'flood_app_huge',
      description: 'An MCP App that sends 100 bridge messages of 1 MiB at once.',
      inputSchema: { type: 'object', properties: {} },
      _meta: { ui: { resourceUri: 'ui://flood/huge.html' } },
    },
  ];
  const out: Record<string, unknown>[] = [];
  for (let i = cursor; i < Math.min(cursor + size, total); i++) out.push(i < special.length ? special[i]! : toolAt(i));
  return out;
}

/** Generated entries `cursor` to `cursor + size` (below `total`) of a list. */
function pageOf(cursor: number, size: number, total: number, make: (n: string) => Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = cursor; i < Math.min(cursor + size, total); i++) out.push(make(String(i).padStart(6, '0')));
  return out;
}

const resourceAt = (n: string) => ({
  uri: `flood://resources/${n}`,
  name: `resource_${n}`,
  title: `Resource ${n}`,
  description: `Generated resource number ${n} of a server that lists far too many resources.`,
  mimeType: 'text/plain',
});
const promptAt = (n: string) => ({
  name: `prompt_${n}`,
  title: `Prompt ${n}`,
  description: `Generated prompt number ${n} of a server that lists far too many prompts.`,
  arguments: [{ name: 'topic', required: false }],
});

const complete = (extra: Record<string, unknown>) => ({ resultType: 'complete', ...extra, _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } });

/** Start the server on a free loopback port. */
export async function startFloodServer(options: FloodServerOptions = {}): Promise<FloodServer> {
  const toolCount = options.toolCount ?? 100_000;
  const resourceCount = options.resourceCount ?? 0;
  const promptCount = options.promptCount ?? 0;
  const pageSize = options.pageSize ?? 1000;
  const counts = new Map<string, number>();
  const stats: EndlessStreamStats = { opened: 0, bytesWritten: 0, closedByReader: false };
  const open = new Set<http.ServerResponse>();

  function answer(res: http.ServerResponse, id: unknown, result: Record<string, unknown>) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  }

  function endless(res: http.ServerResponse, id: unknown) {
    stats.opened++;
    // The figures start over: a test that calls it again measures the new stream.
    stats.bytesWritten = 0;
    stats.closedByReader = false;
    stats.bytesAtClose = undefined;
    const mine = stats.opened;
    open.add(res);
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    let n = 0;
    const pad = 'x'.repeat(EVENT_PADDING);
    const write = () => {
      // Writes as fast as the reader takes them (backpressure), forever.
      while (!res.destroyed) {
        const data = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: String(id), progress: ++n, message: pad } });
        const chunk = `id: ${n}\ndata: ${data}\n\n`;
        if (mine === stats.opened) stats.bytesWritten += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
    };
    res.on('close', () => {
      open.delete(res);
      if (mine !== stats.opened) return; // an earlier stream's late close
      stats.closedByReader = true;
      stats.bytesAtClose = stats.bytesWritten;
    });
    write();
  }

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      let msg: { id?: unknown; method?: string; params?: Record<string, unknown> };
      try {
        msg = JSON.parse(body);
      } catch {
        res
          .writeHead(400, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        return;
      }
      const method = String(msg.method);
      counts.set(method, (counts.get(method) ?? 0) + 1);
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const params = msg.params ?? {};
      switch (method) {
        case 'server/discover':
          return answer(
            res,
            msg.id,
            complete({
              supportedVersions: [VERSION],
              capabilities: { tools: {}, resources: {}, ...(promptCount ? { prompts: {} } : {}), extensions: { 'io.modelcontextprotocol/ui': {} } },
              ttlMs: 0,
              cacheScope: 'public',
            }),
          );
        case 'tools/list': {
          const cursor = Number(params.cursor ?? 0) || 0;
          const tools = toolsPage(cursor, pageSize, toolCount);
          const next = cursor + pageSize < toolCount ? { nextCursor: String(cursor + pageSize) } : {};
          return answer(res, msg.id, complete({ tools, ...next, ttlMs: 0, cacheScope: 'public' }));
        }
        case 'resources/list':
        case 'prompts/list': {
          const cursor = Number(params.cursor ?? 0) || 0;
          const [key, total, make] =
            method === 'prompts/list' ? (['prompts', promptCount, promptAt] as const) : (['resources', resourceCount, resourceAt] as const);
          const next = cursor + pageSize < total ? { nextCursor: String(cursor + pageSize) } : {};
          return answer(res, msg.id, complete({ [key]: pageOf(cursor, pageSize, total, make), ...next, ttlMs: 0, cacheScope: 'public' }));
        }
        case 'resources/templates/list':
          return answer(res, msg.id, complete({ resourceTemplates: [], ttlMs: 0, cacheScope: 'public' }));
        case 'resources/read': {
          const uri = String(params.uri);
          const defaults = Object.hasOwn(FLOOD_VIEWS, uri) ? FLOOD_VIEWS[uri]! : {};
          return answer(res, msg.id, complete({ contents: [{ uri, mimeType: APP_MIME, text: viewHtml(defaults) }], ttlMs: 0, cacheScope: 'public' }));
        }
        case 'tools/call':
          if (params.name === 'endless_stream') return endless(res, msg.id);
          return answer(res, msg.id, complete({ content: [{ type: 'text', text: `called ${String(params.name)}` }] }));
        default:
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${method}` } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    toolCount,
    resourceCount,
    promptCount,
    counts,
    endless: () => ({ ...stats }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
