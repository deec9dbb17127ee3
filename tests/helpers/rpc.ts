/**
 * Drive a mock engine over its Streamable HTTP face in unit tests, the way a correct
 * 2026-07-28 client would: one POST per request with the standard headers (MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name) and the required `_meta` keys (protocol version, client capabilities).
 *
 *   const engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
 *   const { status, body } = await rpc(engine, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
 *   expect(body.result.content[0].text).toBe('hi');
 *
 * SSE responses (progress, logs, listen streams) are parsed: `body` is the final JSON-RPC
 * response and `frames` every message before it.
 */

/** Anything with the engine's fetch face (MockEngine, a node adapter wrapper, ...). */
export interface FetchTarget {
  fetch(request: Request): Promise<Response>;
}

/** The protocol version the helpers speak unless told otherwise. */
export const PROTOCOL_VERSION = '2026-07-28';
/** The tasks extension's id in client capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Ready-made client capability objects. */
export const CAPS = {
  none: {},
  form: { elicitation: { form: {} } },
  url: { elicitation: { url: {} } },
  tasks: { extensions: { [TASKS_EXTENSION]: {} } },
  formAndTasks: { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } },
} as const;

/** Params field mirrored into `Mcp-Name`, per method. */
const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** How one request departs from a compliant client's defaults. */
export interface RpcOptions {
  /** Client capabilities for `_meta` (default `{}`). */
  caps?: Record<string, unknown>;
  /** Extra headers; a `null` value removes a default header (e.g. `{ 'Mcp-Name': null }`). */
  headers?: Record<string, string | null>;
  /** JSON-RPC id (default: a fresh number per call). */
  id?: string | number;
  /** Protocol version for `_meta` and the header (default 2026-07-28). */
  version?: string;
  /** Extra `_meta` entries (progressToken, logLevel, ...). */
  meta?: Record<string, unknown>;
  /** Endpoint URL (default http://127.0.0.1/mcp). */
  url?: string;
}

/** A JSON-RPC error object. */
// biome-ignore lint/suspicious/noExplicitAny: `data` is whatever the server attached; tests reach into it and assert on it at run time
export type RpcError = { code: number; message: string; data?: any };

/**
 * A JSON-RPC response as the tests see it. `result` and `error` are loosely typed on purpose so
 * assertions can reach into them directly; exactly one of them is present at runtime.
 */
// biome-ignore lint/suspicious/noExplicitAny: any method's result or error, which tests reach into and assert on at run time (a type per method would be a second copy of the protocol)
export type RpcBody = { jsonrpc: '2.0'; id: string | number | null; result?: any; error?: RpcError | any };

/** What {@link rpc} saw come back. */
export interface RpcReply {
  status: number;
  headers: Headers;
  /** The final JSON-RPC response (undefined for 202 or an empty body). */
  body: RpcBody;
  /** Messages that came before the response on an SSE stream (notifications). */
  frames: unknown[];
  /** Whether the answer came as text/event-stream. */
  streamed: boolean;
}

let nextId = 1;

/** Build the Request a compliant client would send (exposed for tests that tamper with it). */
export function buildRequest(method: string, params: Record<string, unknown> = {}, options: RpcOptions = {}): { request: Request; id: string | number } {
  const version = options.version ?? PROTOCOL_VERSION;
  const id = options.id ?? nextId++;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': options.caps ?? {},
    ...(options.meta ?? {}),
  };
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...meta, ...((params._meta as object) ?? {}) } } };
  const headers: Record<string, string> = {
    Host: '127.0.0.1',
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': version,
    'Mcp-Method': method,
  };
  const nameField = NAME_FIELD[method];
  if (nameField && typeof params[nameField] === 'string') headers['Mcp-Name'] = params[nameField] as string;
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    const existing = Object.keys(headers).find((h) => h.toLowerCase() === k.toLowerCase());
    if (existing) delete headers[existing];
    if (v !== null) headers[k] = v;
  }
  return { request: new Request(options.url ?? 'http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }), id };
}

/** Parse SSE text into the JSON payloads of its `data:` fields. */
export function parseSse(text: string): unknown[] {
  const out: unknown[] = [];
  for (const block of text.replace(/\r\n/g, '\n').split('\n\n')) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) out.push(JSON.parse(data));
  }
  return out;
}

/** Read an SSE body until the response to `id` arrives (so open listen streams do not hang), then cancel it. */
async function readSse(response: Response, id: string | number): Promise<{ body: RpcBody; frames: unknown[] }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const frames: unknown[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buffer += decoder.decode(value, { stream: true });
    const cut = buffer.lastIndexOf('\n\n');
    if (cut >= 0) {
      for (const message of parseSse(buffer.slice(0, cut + 2))) {
        const m = message as RpcBody;
        if (m && typeof m === 'object' && 'id' in m && m.id === id && ('result' in m || 'error' in m)) {
          await reader.cancel().catch(() => {});
          return { body: m, frames };
        }
        frames.push(message);
      }
      buffer = buffer.slice(cut + 2);
    }
    if (done) throw new Error(`Failed to read SSE response: the stream ended without a response to id ${String(id)}`);
  }
}

/** Send one JSON-RPC request through `engine.fetch` and return the status and the parsed response. */
export async function rpc(engine: FetchTarget, method: string, params: Record<string, unknown> = {}, options: RpcOptions = {}): Promise<RpcReply> {
  const { request, id } = buildRequest(method, params, options);
  const response = await engine.fetch(request);
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    const { body, frames } = await readSse(response, id);
    return { status: response.status, headers: response.headers, body, frames, streamed: true };
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as RpcBody, frames: [], streamed: false };
}

/** `tools/call` shorthand. */
export function callTool(
  engine: FetchTarget,
  name: string,
  args: Record<string, unknown> = {},
  options: RpcOptions & { extra?: Record<string, unknown> } = {},
): Promise<RpcReply> {
  return rpc(engine, 'tools/call', { name, arguments: args, ...(options.extra ?? {}) }, options);
}
