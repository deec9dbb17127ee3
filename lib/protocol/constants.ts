/** Protocol revisions, reserved `_meta` keys, extension ids and header names of MCP 2026-07-28. */

/** The modern, stateless revision. */
export const MODERN_VERSION = '2026-07-28';
/** The last handshake-based revision, served for older clients. */
export const LEGACY_VERSION = '2025-11-25';
/** Revisions that use the `initialize` handshake. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** Reserved `_meta` keys. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  relatedTask: 'io.modelcontextprotocol/related-task',
  modelImmediateResponse: 'io.modelcontextprotocol/model-immediate-response',
} as const;

/** Extension identifiers. */
export const EXT = {
  tasks: 'io.modelcontextprotocol/tasks',
  ui: 'io.modelcontextprotocol/ui',
} as const;

/** HTTP header names (compare case-insensitively; `Headers` does that for us). */
export const HEADER = {
  protocolVersion: 'MCP-Protocol-Version',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  paramPrefix: 'Mcp-Param-',
  sessionId: 'Mcp-Session-Id',
  lastEventId: 'Last-Event-ID',
} as const;

/** `resultType` values: core plus the tasks extension. */
export const RESULT_TYPE = {
  complete: 'complete',
  inputRequired: 'input_required',
  task: 'task',
} as const;

/** Methods a 2026-07-28 server answers (core). */
export const MODERN_METHODS = [
  'server/discover',
  'completion/complete',
  'prompts/get',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'subscriptions/listen',
  'tools/call',
  'tools/list',
] as const;

/** Tasks extension methods. */
export const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;

/** Methods removed in 2026-07-28: 404 with -32601. */
export const REMOVED_METHODS = [
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'tasks/result',
  'tasks/list',
  'tasks/status',
] as const;

/** Results that must carry `ttlMs` and `cacheScope`. */
export const CACHEABLE_METHODS = ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'] as const;

/** The only methods that may answer `input_required`. */
export const MRTR_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;

/** Which body field `Mcp-Name` mirrors, per method. */
export const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
