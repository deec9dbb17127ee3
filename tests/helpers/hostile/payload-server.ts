import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostileAppHtml } from './hostile-app';
import { ALL_IN_ONE, HOSTILE_URLS, INVALID_UTF8, SCRIPT_PAYLOADS, TRICK_TEXT, bigText, deepJsonText } from './payloads';

/**
 * A hostile MCP server over real HTTP, speaking 2026-07-28 (stateless, `server/discover`) and
 * 2025-11-25 (`initialize`, then the same methods; its results carry no `resultType`, which
 * 2025-era clients ignore),
 * for the inspector to connect to directly (it allows any origin) or through Loupe's proxy.
 * Everything it says carries a payload: names, titles, descriptions, input schemas, results
 * (text, structuredContent, resource links, images whose data is not an image), elicitation
 * messages and URLs, server info and instructions. Some tools answer with what breaks a
 * page's assumptions instead: a 50 MB result, JSON nested 10,000 levels, bytes that are not
 * UTF-8, redirects into Loupe's own API, and an MCP App that attacks its host.
 */

const VERSION = '2026-07-28';
const UI = 'io.modelcontextprotocol/ui';
const APP_URI = 'ui://hostile/app.html';
/** The size of the huge result's text, in bytes. */
export const HUGE_BYTES = 50 * 1024 * 1024;
/** How deep the deep result's structuredContent is nested. */
export const DEEP_LEVELS = 10_000;

/** The tools whose calls a test makes, by the name it uses. */
export const TOOL = {
  xss: 'xss_everywhere',
  huge: 'huge_result',
  deep: 'deep_result',
  badUtf8: 'bad_utf8',
  redirect302: 'redirect_302',
  redirect307: 'redirect_307',
  elicitForm: 'elicit_form',
  elicitJs: 'elicit_url_javascript',
  elicitData: 'elicit_url_data',
  elicitRtl: 'elicit_url_rtl',
  app: 'hostile_app',
  /** Names that read as another (a right-to-left override) or hide characters (zero-width ones). */
  rtlName: 'report_\u202Efdp.exe',
  hiddenName: 'delete_\u200Bfiles\u2066',
} as const;

/** Where the redirects point: Loupe's reset of the demo's tasks and ledger. */
const RESET_PATH = '/api/scenarios/demo/reset';

const payloadSchema = {
  type: 'object',
  properties: {
    [SCRIPT_PAYLOADS[0]]: { type: 'string', title: SCRIPT_PAYLOADS[1], description: ALL_IN_ONE, default: SCRIPT_PAYLOADS[2] },
    choice: { type: 'string', enum: [...SCRIPT_PAYLOADS], description: HOSTILE_URLS.javascript },
  },
};

function tools(): Record<string, unknown>[] {
  const plain = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });
  return [
    { name: SCRIPT_PAYLOADS[0], title: SCRIPT_PAYLOADS[1], description: ALL_IN_ONE, inputSchema: payloadSchema },
    { name: TOOL.xss, title: SCRIPT_PAYLOADS[2], description: ALL_IN_ONE, inputSchema: { type: 'object', properties: {} } },
    plain(TOOL.huge, `A ${HUGE_BYTES}-byte text result`),
    plain(TOOL.deep, `structuredContent nested ${DEEP_LEVELS} levels`),
    plain(TOOL.badUtf8, 'A result whose text is not UTF-8'),
    plain(TOOL.redirect302, `Answers 302 to ${RESET_PATH}`),
    plain(TOOL.redirect307, `Answers 307 to ${RESET_PATH}`),
    plain(TOOL.elicitForm, 'Asks a form whose every label is a payload'),
    plain(TOOL.elicitJs, 'Asks the user to open a javascript: URL'),
    plain(TOOL.elicitData, 'Asks the user to open a data:text/html URL'),
    plain(TOOL.elicitRtl, 'Asks the user to open a URL with a right-to-left override'),
    { ...plain(TOOL.app, 'An app that attacks its host'), _meta: { ui: { resourceUri: APP_URI } } },
    { ...plain('model_only_secret', 'The app must not call this'), _meta: { ui: { resourceUri: APP_URI, visibility: ['model'] } } },
    plain(TOOL.rtlName, `Reads as "report_exe.pdf": ${TRICK_TEXT.rtl}`),
    plain(TOOL.hiddenName, 'Looks like delete_files'),
  ];
}

/** The xss tool's result: every block kind a client renders, each carrying a payload. */
function xssResult(): Record<string, unknown> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__loupePwned=1"><script>window.__loupePwned=1</script></svg>`;
  return {
    content: [
      { type: 'text', text: ALL_IN_ONE },
      { type: 'resource_link', uri: HOSTILE_URLS.javascript, name: SCRIPT_PAYLOADS[0], description: SCRIPT_PAYLOADS[1] },
      { type: 'resource_link', uri: HOSTILE_URLS.dataHtml, name: TRICK_TEXT.rtl, mimeType: 'text/html' },
      { type: 'image', data: `not base64 ${SCRIPT_PAYLOADS[0]}`, mimeType: 'image/png' },
      { type: 'image', data: Buffer.from(svg).toString('base64'), mimeType: 'image/svg+xml' },
      { type: 'image', data: Buffer.from('<script>x</script>').toString('base64'), mimeType: 'text/html' },
      { type: 'resource', resource: { uri: HOSTILE_URLS.dataHtml, mimeType: 'text/html', text: SCRIPT_PAYLOADS.join('\n') } },
      { type: SCRIPT_PAYLOADS[0], text: SCRIPT_PAYLOADS[1] },
    ],
    structuredContent: { html: SCRIPT_PAYLOADS[0], url: HOSTILE_URLS.javascript, [SCRIPT_PAYLOADS[1]]: TRICK_TEXT.zeroWidth },
  };
}

function elicitation(name: string): Record<string, unknown> {
  if (name === TOOL.elicitForm) return { method: 'elicitation/create', params: { mode: 'form', message: ALL_IN_ONE, requestedSchema: payloadSchema } };
  const url = name === TOOL.elicitJs ? HOSTILE_URLS.javascript : name === TOOL.elicitData ? HOSTILE_URLS.dataHtml : `https://example.com/${TRICK_TEXT.rtl}`;
  return { method: 'elicitation/create', params: { mode: 'url', message: ALL_IN_ONE, url } };
}

const complete = (result: Record<string, unknown>) => ({ resultType: 'complete', ...result });
const text = (t: string) => complete({ content: [{ type: 'text', text: t }] });

type Answer = { json: unknown } | { redirect: number } | { status: number; json: unknown };

function callTool(params: Record<string, unknown>): Answer {
  const name = String(params.name);
  if (name === TOOL.xss) return { json: complete(xssResult()) };
  if (name === TOOL.huge) return { json: text(bigText(HUGE_BYTES)) };
  if (name === TOOL.redirect302) return { redirect: 302 };
  if (name === TOOL.redirect307) return { redirect: 307 };
  if (name === TOOL.app) return { json: text('the app is starting') };
  if (name === TOOL.elicitForm || name === TOOL.elicitJs || name === TOOL.elicitData || name === TOOL.elicitRtl) {
    if (params.inputResponses) return { json: text(`answered: ${JSON.stringify(params.inputResponses)}`) };
    return { json: { resultType: 'input_required', inputRequests: { ask: elicitation(name) }, requestState: SCRIPT_PAYLOADS[0] } };
  }
  return { json: text(ALL_IN_ONE) };
}

function resources(): Record<string, unknown>[] {
  return [
    { uri: APP_URI, name: 'hostile app', mimeType: 'text/html;profile=mcp-app' },
    { uri: 'hostile://page', name: SCRIPT_PAYLOADS[0], title: SCRIPT_PAYLOADS[1], description: ALL_IN_ONE, mimeType: 'text/html' },
    { uri: HOSTILE_URLS.javascript, name: 'javascript-uri', description: HOSTILE_URLS.dataHtml },
  ];
}

function readResource(uri: string, loupeOrigin: string): Record<string, unknown> {
  if (uri === APP_URI) return complete({ contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: hostileAppHtml(loupeOrigin) }] });
  return complete({ contents: [{ uri, mimeType: 'text/html', text: SCRIPT_PAYLOADS.join('\n') }] });
}

function prompts(): Record<string, unknown>[] {
  return [
    {
      name: 'hostile_prompt',
      title: SCRIPT_PAYLOADS[0],
      description: ALL_IN_ONE,
      arguments: [{ name: 'topic', title: SCRIPT_PAYLOADS[1], description: HOSTILE_URLS.javascript }],
    },
  ];
}

function getPrompt(): Record<string, unknown> {
  return complete({
    description: ALL_IN_ONE,
    messages: [
      { role: 'user', content: { type: 'text', text: ALL_IN_ONE } },
      { role: 'assistant', content: { type: 'resource_link', uri: HOSTILE_URLS.javascript, name: SCRIPT_PAYLOADS[0] } },
      { role: 'assistant', content: { type: 'image', data: '%%%', mimeType: 'image/png' } },
    ],
  });
}

const SERVER_INFO = {
  name: SCRIPT_PAYLOADS[0],
  title: SCRIPT_PAYLOADS[1],
  version: TRICK_TEXT.rtl,
  websiteUrl: HOSTILE_URLS.javascript,
  icons: [{ src: HOSTILE_URLS.javascript }, { src: HOSTILE_URLS.dataHtml }],
};

function answer(method: string, params: Record<string, unknown>, loupeOrigin: string): Answer {
  const list = (key: string, items: unknown[]) => ({ json: complete({ [key]: items, ttlMs: 0, cacheScope: 'private' }) });
  switch (method) {
    case 'server/discover':
      return {
        json: complete({
          supportedVersions: [VERSION],
          capabilities: { tools: {}, resources: {}, prompts: {}, extensions: { [UI]: {} } },
          instructions: ALL_IN_ONE,
          ttlMs: 0,
          cacheScope: 'private',
        }),
      };
    case 'initialize':
      // The 2025-11-25 handshake: the same payloads in serverInfo and instructions.
      return {
        json: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: SERVER_INFO,
          instructions: ALL_IN_ONE,
        },
      };
    case 'tools/list':
      return list('tools', tools());
    case 'tools/call':
      return callTool(params);
    case 'resources/list':
      return list('resources', resources());
    case 'resources/templates/list':
      return list('resourceTemplates', [{ uriTemplate: `${HOSTILE_URLS.javascript}{x}`, name: SCRIPT_PAYLOADS[0], description: ALL_IN_ONE }]);
    case 'resources/read':
      return { json: readResource(String(params.uri), loupeOrigin) };
    case 'prompts/list':
      return list('prompts', prompts());
    case 'prompts/get':
      return { json: getPrompt() };
    default:
      return { status: 404, json: { error: { code: -32601, message: `Method not found: ${SCRIPT_PAYLOADS[0]}` } } };
  }
}

/** A running payload server. */
export interface PayloadServer {
  /** Its MCP endpoint. */
  url: string;
  /** Every JSON-RPC method it was asked, in order (tools/call as `tools/call <name>`). */
  calls: string[];
  close(): Promise<void>;
}

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': '*' };

/** Start it on a free loopback port; `loupeOrigin` is where its redirects and its app aim. */
export async function startPayloadServer(loupeOrigin: string): Promise<PayloadServer> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'Access-Control-Allow-Methods': 'POST, GET', 'Access-Control-Allow-Headers': '*', 'Access-Control-Max-Age': '600' });
      return void res.end();
    }
    if (req.method !== 'POST') return void res.writeHead(405, CORS).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let msg: { id?: unknown; method?: unknown; params?: Record<string, unknown> };
      try {
        msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400, CORS).end();
      }
      const method = String(msg.method);
      const params = msg.params ?? {};
      calls.push(method === 'tools/call' ? `tools/call ${String(params.name)}` : method);
      if (msg.id === undefined) return void res.writeHead(202, CORS).end();
      const out = answer(method, params, loupeOrigin);
      if (method === 'initialize') res.setHeader('Mcp-Session-Id', 'hostile-session');
      if ('redirect' in out) return void res.writeHead(out.redirect, { ...CORS, Location: `${loupeOrigin}${RESET_PATH}` }).end();
      const head = { ...CORS, 'Content-Type': 'application/json' };
      const json = out.json;
      const status = 'status' in out ? out.status : 200;
      const meta = { _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } };
      const body = (json as { error?: unknown }).error
        ? { jsonrpc: '2.0', id: msg.id, ...(json as object) }
        : { jsonrpc: '2.0', id: msg.id, result: { ...(json as object), ...meta } };
      if (method === 'tools/call' && params.name === TOOL.deep) return void res.writeHead(200, head).end(deepBody(msg.id));
      if (method === 'tools/call' && params.name === TOOL.badUtf8) return void res.writeHead(200, head).end(badUtf8Body(msg.id));
      res.writeHead(status, head).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The deep result, written as text: JSON.stringify would recurse 10,000 times. */
function deepBody(id: unknown): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[{"type":"text","text":"deep"}],"structuredContent":${deepJsonText(DEEP_LEVELS)}}}`;
}

/** A text result with bytes that are not UTF-8 in the middle of its string. */
function badUtf8Body(id: unknown): Buffer {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[{"type":"text","text":"before `;
  return Buffer.concat([Buffer.from(head), INVALID_UTF8, Buffer.from(' after"}]}}')]);
}
