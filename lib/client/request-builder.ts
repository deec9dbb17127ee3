import {
  EXT,
  HEADER,
  META,
  ToolSchema,
  requestHeaders,
  scanHeaderBindings,
  type ClientCapabilities,
  type HeaderBinding,
  type Implementation,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type LoggingLevel,
  type RequestId,
  type Tool,
} from '../protocol';

/**
 * Builds what a conforming client sends: the per-request `_meta` of 2026-07-28 (version,
 * capabilities, clientInfo, progressToken, logLevel) and the HTTP headers (MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name, Mcp-Param-* with the base64 sentinel), or the 2025-11-25 form (no
 * per-request capabilities, Mcp-Session-Id after initialize). Never sends Last-Event-ID.
 */

export type Era = 'modern' | 'legacy';

interface BuildRequestOptions {
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
  era: Era;
  protocolVersion: string;
  /** Declared on this request only (modern); servers must not infer them from earlier requests. */
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
  progressToken?: string | number;
  logLevel?: LoggingLevel;
  /** `x-mcp-header` bindings of the tool being called (tools/call). */
  bindings?: HeaderBinding[];
  /** Legacy session id from the initialize response. */
  sessionId?: string;
}

interface BuiltRequest {
  message: JsonRpcRequest;
  headers: Record<string, string>;
}

/** The headers of a 2025-era POST in a session (a request, a notification, or a response to the server). */
export function legacyHeaders(method: string | undefined, protocolVersion: string, sessionId?: string): Record<string, string> {
  const h: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  // 2025-06-18+: the version header follows the handshake, it is not part of it.
  if (method !== 'initialize') h[HEADER.protocolVersion] = protocolVersion;
  if (sessionId) h[HEADER.sessionId] = sessionId;
  return h;
}

/** Build one request and its headers. */
export function buildRequest(o: BuildRequestOptions): BuiltRequest {
  const { _meta: callerMeta, ...rest } = o.params ?? {};
  const extra = callerMeta && typeof callerMeta === 'object' ? (callerMeta as Record<string, unknown>) : {};
  const meta: Record<string, unknown> = { ...extra };
  if (o.era === 'modern') {
    meta[META.protocolVersion] = o.protocolVersion;
    meta[META.clientCapabilities] = o.capabilities ?? {};
    if (o.clientInfo) meta[META.clientInfo] = o.clientInfo;
    if (o.logLevel) meta[META.logLevel] = o.logLevel;
  }
  if (o.progressToken !== undefined) meta.progressToken = o.progressToken;
  const params: Record<string, unknown> = { ...rest, ...(Object.keys(meta).length ? { _meta: meta } : {}) };
  const message: JsonRpcRequest = { jsonrpc: '2.0', id: o.id, method: o.method, ...(Object.keys(params).length ? { params } : {}) };
  const headers =
    o.era === 'modern' ? requestHeaders(o.method, rest, o.protocolVersion, o.bindings ?? []) : legacyHeaders(o.method, o.protocolVersion, o.sessionId);
  return { message, headers };
}

/** Build a notification (legacy `notifications/initialized`; modern HTTP defines none). */
export function buildNotification(
  method: string,
  params: Record<string, unknown> | undefined,
  era: Era,
  protocolVersion: string,
  sessionId?: string,
): BuiltRequest & { message: JsonRpcNotification } {
  const message: JsonRpcNotification = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
  const headers = era === 'modern' ? { ...requestHeaders(method, params, protocolVersion) } : legacyHeaders(method, protocolVersion, sessionId);
  return { message, headers } as BuiltRequest & { message: JsonRpcNotification };
}

/** Capabilities plus the tasks extension (declared only for requests that can handle a task). */
export function withTasksExtension(caps: ClientCapabilities): ClientCapabilities {
  return { ...caps, extensions: { ...(caps.extensions ?? {}), [EXT.tasks]: {} } };
}

/** A tool excluded from a tools/list result, and why. */
export interface DroppedTool {
  name: string;
  reason: string;
}

interface ToolFilterResult {
  tools: Tool[];
  dropped: DroppedTool[];
  /** Header bindings per kept tool name (empty array when it has none). */
  bindings: Map<string, HeaderBinding[]>;
}

/**
 * Keep the tools of a tools/list result a client may call over HTTP: a tool whose
 * `x-mcp-header` annotations are invalid (empty, non-token characters, non-primitive,
 * duplicated, not reachable through properties) is dropped with a reason, as the spec
 * requires; a tool that is not a tool at all is dropped too. The input schemas are kept
 * verbatim (no parsing that could strip JSON Schema keywords, no $ref dereferencing).
 */
export function filterTools(tools: readonly unknown[]): ToolFilterResult {
  const kept: Tool[] = [];
  const dropped: DroppedTool[] = [];
  const bindings = new Map<string, HeaderBinding[]>();
  for (const t of tools) {
    const shape = ToolSchema.safeParse(t);
    const name = t && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string' ? (t as { name: string }).name : '(unnamed)';
    if (!shape.success) {
      dropped.push({ name, reason: `not a valid tool: ${shape.error.issues.map((i) => `${i.path.join('.') || 'tool'} ${i.message}`).join('; ')}` });
      continue;
    }
    const scan = scanHeaderBindings((t as Tool).inputSchema);
    if (!scan.ok) {
      dropped.push({ name, reason: scan.reason });
      continue;
    }
    // The original object, not zod's copy: schemas must survive byte-for-byte.
    kept.push(t as Tool);
    bindings.set(name, scan.bindings);
  }
  return { tools: kept, dropped, bindings };
}
