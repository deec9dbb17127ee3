import type { Lint, LintSeverity, Report } from './model';

/**
 * Every live lint: its severity, which peer it blames and the spec section it enforces.
 * Spec references are paths under the 2026-07-28 specification (`basic/index#result-type`);
 * `ext/tasks#...` and `ext/apps#...` point into the tasks and apps extension specs.
 */

/** A catalogued rule. */
interface LintRule {
  severity: LintSeverity;
  /** The peer whose message breaks the rule. */
  party: 'client' | 'server';
  specRef: string;
  title: string;
}

const r = (severity: LintSeverity, party: LintRule['party'], specRef: string, title: string): LintRule => ({ severity, party, specRef, title });

/** Every rule by id, grouped by area. */
export const LINT_RULES = {
  // JSON-RPC envelope and results
  'request-jsonrpc-invalid': r('error', 'client', 'basic/index#json-rpc-messages', "Client's message is not a valid JSON-RPC 2.0 message"),
  'client-response-sent': r(
    'warning',
    'client',
    'basic/transports/streamable-http#sending-messages',
    'Client sent a response; 2026-07-28 servers send no requests',
  ),
  'text-not-utf8': r('warning', 'server', 'basic/transports', 'Text holds U+FFFD: bytes that were not UTF-8'),
  'text-bidi-control': r('warning', 'server', 'server/tools#tool-names', 'Name holds bidirectional controls or invisible characters'),
  'jsonrpc-invalid': r('error', 'server', 'basic/index#json-rpc-messages', 'Response is not a valid JSON-RPC 2.0 message'),
  'response-id-mismatch': r('error', 'server', 'basic/index#responses', 'Response id answers no pending request'),
  'result-type-missing': r('error', 'server', 'basic/index#result-type', 'Result without resultType'),
  'result-type-unknown': r('error', 'server', 'basic/index#result-type', 'resultType not defined by the core or an advertised extension'),
  'result-type-task-method': r('error', 'server', 'ext/tasks#supported-methods', 'Task returned to a method other than tools/call'),
  'removed-method': r('warning', 'client', 'changelog#removed', 'Method removed in 2026-07-28'),
  'tasks-removed-method': r('error', 'client', 'ext/tasks#removed-methods', 'tasks/list or tasks/result used under 2026-07-28'),
  'removed-method-served': r(
    'error',
    'server',
    'basic/transports/streamable-http#http-status-codes',
    'Removed method answered with a result instead of -32601',
  ),
  'invalid-request-accepted': r('error', 'server', 'basic/index#meta', 'A request that must be rejected was served'),
  // Streamable HTTP
  'header-missing': r('error', 'client', 'basic/transports/streamable-http#protocol-headers', 'Required MCP header missing'),
  'header-mismatch': r('error', 'client', 'basic/transports/streamable-http#protocol-headers', 'Header does not match the body'),
  'header-encoding-invalid': r('error', 'client', 'basic/transports/streamable-http#header-value-encoding', 'Header value badly encoded'),
  'accept-header-missing': r('error', 'client', 'basic/transports/streamable-http#sending-messages', 'Accept must list application/json and text/event-stream'),
  'session-id-minted': r('error', 'server', 'basic/transports/streamable-http#sessions', 'Mcp-Session-Id sent by a 2026-07-28 server'),
  'last-event-id-sent': r('warning', 'client', 'basic/transports/streamable-http#resumability', 'Last-Event-ID sent; 2026-07-28 has no resumability'),
  'http-status-mismatch': r('error', 'server', 'basic/transports/streamable-http#http-status-codes', 'HTTP status does not match the JSON-RPC answer'),
  // _meta and capabilities
  'meta-required-missing': r('error', 'client', 'basic/index#meta', 'Required _meta key missing'),
  'meta-invalid': r('error', 'client', 'basic/index#meta', 'Malformed _meta value'),
  'meta-client-info-missing': r('info', 'client', 'basic/index#meta', 'clientInfo not sent'),
  'meta-reserved-key-unknown': r('warning', 'client', 'basic/index#meta-keys', 'Unknown key under a reserved _meta prefix'),
  'capability-removed-field': r('info', 'client', 'basic/index#capabilities', 'Capability field that 2026-07-28 removed'),
  'discover-invalid': r('error', 'server', 'server/discover', 'DiscoverResult missing required fields'),
  'discover-server-info-missing': r('info', 'server', 'server/discover', 'serverInfo missing from the discover result _meta'),
  'discover-legacy-tasks-capability': r('warning', 'server', 'ext/tasks#capability-negotiation', 'Legacy capabilities.tasks advertised under 2026-07-28'),
  // Error codes
  'error-code-reserved-undefined': r('error', 'server', 'basic/index#error-codes', 'Implementation-defined code in the reserved range'),
  'error-code-retired': r('error', 'server', 'basic/index#error-codes', 'Retired error code'),
  'error-code-draft': r('warning', 'server', 'basic/index#error-codes', 'Pre-renumber draft error code'),
  'error-data-invalid': r('error', 'server', 'basic/index#error-codes', 'Error data missing or wrong for its code'),
  // Loupe's replay (a recording served as a mock) says so when it holds no answer: the error is
  // the replay's, not the recorded server's, so it is flagged to keep the two apart.
  'replay-unmatched': r('warning', 'server', 'basic/index#error-codes', 'A replay had no recorded answer for this request'),
  // Caching
  'cache-hints-missing': r('error', 'server', 'server/utilities/caching#cacheable-results', 'Cacheable result without ttlMs/cacheScope'),
  'cache-hints-invalid': r('error', 'server', 'server/utilities/caching#cacheable-results', 'Invalid ttlMs or cacheScope'),
  'cache-hints-uncacheable': r('info', 'server', 'server/utilities/caching#cacheable-results', 'Cache hints on an uncacheable input_required result'),
  'cache-scope-inconsistent': r('warning', 'server', 'server/utilities/caching#pagination', 'Pages of one list disagree on cacheScope'),
  // MRTR
  'input-required-method': r('error', 'server', 'basic/patterns/mrtr#supported-methods', 'input_required on a method that cannot return it'),
  'input-required-empty': r('error', 'server', 'basic/patterns/mrtr#input-required-result', 'input_required with neither inputRequests nor requestState'),
  'input-request-invalid': r('error', 'server', 'basic/patterns/mrtr#input-requests', 'Malformed input request'),
  'input-request-undeclared': r('error', 'server', 'basic/patterns/mrtr#capabilities', 'Input request kind the client did not declare'),
  'input-response-invalid': r('error', 'client', 'basic/patterns/mrtr#input-responses', 'Input response does not answer its request'),
  'mrtr-retry-state': r('error', 'client', 'basic/patterns/mrtr#client-behavior', 'requestState not echoed byte-exact'),
  'mrtr-retry-id-reused': r('error', 'client', 'basic/patterns/mrtr#client-behavior', 'MRTR retry reused the JSON-RPC id'),
  'mrtr-retry-incomplete': r('warning', 'client', 'basic/patterns/mrtr#client-behavior', 'MRTR retry without an answer for every input request'),
  'mrtr-retry-params-changed': r('error', 'client', 'basic/patterns/mrtr#client-behavior', 'MRTR retry changed the original request'),
  'mrtr-state-unsolicited': r('warning', 'client', 'basic/patterns/mrtr#client-behavior', 'requestState/inputResponses that answer no input_required'),
  // Elicitation
  'elicitation-secret': r('warning', 'server', 'client/elicitation#security', 'Form mode appears to ask for a secret'),
  'elicitation-schema-invalid': r('error', 'server', 'client/elicitation#requested-schema', 'requestedSchema is not a flat primitive schema'),
  'elicitation-enum-names-deprecated': r('info', 'server', 'client/elicitation#requested-schema', 'Deprecated enumNames; use oneOf with const/title'),
  'elicitation-url-invalid': r('error', 'server', 'client/elicitation#url-mode', 'URL elicitation with an unusable URL'),
  'elicitation-legacy-field': r('warning', 'server', 'client/elicitation#url-mode', 'elicitationId is gone in 2026-07-28'),
  // Tasks extension
  'task-not-declared': r('error', 'server', 'ext/tasks#capability-negotiation', 'Task returned to a request that did not declare the extension'),
  'task-extension-not-advertised': r(
    'warning',
    'server',
    'ext/tasks#capability-negotiation',
    'Task returned by a server that does not advertise the extension',
  ),
  'task-method-undeclared': r('error', 'client', 'ext/tasks#capability-negotiation', 'Tasks request without the extension declared'),
  'task-request-state': r('error', 'server', 'ext/tasks#mrtr-composition', 'requestState on a task'),
  'task-legacy-fields': r('error', 'server', 'ext/tasks#task', 'Legacy 2025-11-25 task fields in a 2026-07-28 task'),
  'task-related-task-meta': r('error', 'server', 'ext/tasks#task-result', 'related-task _meta on an inlined task result'),
  'task-snapshot-inconsistent': r('error', 'server', 'ext/tasks#task-status', 'Task status and fields disagree'),
  'task-fields-invalid': r('error', 'server', 'ext/tasks#task', 'Task fields missing or malformed'),
  'task-result-type': r('error', 'server', 'ext/tasks#tasks-get', 'tasks/* result whose resultType is not complete'),
  'task-ack-not-empty': r('warning', 'server', 'ext/tasks#tasks-cancel', 'tasks/update or tasks/cancel ack carries task fields'),
  'task-legacy-param': r('info', 'client', 'ext/tasks#backward-compatibility', 'Legacy task param is ignored under 2026-07-28'),
  'task-failed-no-status-message': r('info', 'server', 'ext/tasks#task-status', 'Failed task without statusMessage'),
  'task-poll-too-fast': r('warning', 'client', 'ext/tasks#polling', 'tasks/get sooner than pollIntervalMs'),
  'task-poll-after-terminal': r('warning', 'client', 'ext/tasks#polling', 'Polling a task that already reached a terminal status'),
  'task-terminal-changed': r('error', 'server', 'ext/tasks#task-status', 'Terminal task status changed'),
  'task-update-unknown-key': r('warning', 'client', 'ext/tasks#tasks-update', 'tasks/update answers a key the task is not waiting for'),
  'task-lost': r('error', 'server', 'ext/tasks#create-task-result', 'tasks/get cannot find a task within its ttlMs'),
  'task-cancel-terminal-rejected': r('warning', 'server', 'ext/tasks#tasks-cancel', 'tasks/cancel of a finished task rejected instead of acknowledged'),
  'task-cancel-by-notification': r('error', 'client', 'ext/tasks#tasks-cancel', 'notifications/cancelled used for a task'),
  'task-id-guessable': r('warning', 'server', 'ext/tasks#security', 'Task id too short to be unguessable'),
  // Streams and notifications
  'stream-request-frame': r('error', 'server', 'basic/transports/streamable-http#no-server-requests', 'JSON-RPC request sent on a stream'),
  'stdio-line-invalid': r('error', 'server', 'basic/transports#stdio', 'Server stdout line is not a JSON-RPC message'),
  'stream-frame-invalid': r('error', 'server', 'basic/transports/streamable-http#sse', 'Stream frame is not a JSON-RPC notification'),
  'stream-unrelated-notification': r('warning', 'server', 'basic/transports/streamable-http#sse', 'Notification unrelated to the request on its stream'),
  'listen-ack-not-first': r('error', 'server', 'basic/patterns/subscriptions#acknowledgement', 'Frame before the subscription acknowledgement'),
  'listen-untagged': r('error', 'server', 'basic/patterns/subscriptions#subscription-id', 'Listen message without the subscriptionId tag'),
  'listen-request-scoped-notification': r(
    'error',
    'server',
    'basic/patterns/subscriptions#notification-types',
    'Progress or log notification on a listen stream',
  ),
  'listen-unrequested-notification': r('error', 'server', 'basic/patterns/subscriptions#filters', 'Notification the subscription did not ask for'),
  'log-without-level': r('error', 'server', 'server/utilities/logging#log-level', 'notifications/message without a requested logLevel'),
  'log-below-level': r('warning', 'server', 'server/utilities/logging#log-level', 'Log message below the requested logLevel'),
  'progress-unrequested': r('error', 'server', 'basic/patterns/progress', 'Progress without the request progressToken'),
  'progress-not-increasing': r('error', 'server', 'basic/patterns/progress', 'Progress did not increase'),
  'removed-notification': r('error', 'server', 'changelog#removed', 'Notification removed in 2026-07-28'),
  'cancelled-notification-misuse': r('warning', 'server', 'basic/patterns/cancellation', 'notifications/cancelled where the transport does not use it'),
  // Tools and apps
  'tool-header-annotation-invalid': r('warning', 'server', 'server/tools#x-mcp-header', 'Tool with an invalid x-mcp-header annotation'),
  'tool-arguments-schema-mismatch': r('error', 'client', 'server/tools#tool', 'Arguments do not match the tool inputSchema'),
  'tool-output-schema-mismatch': r('error', 'server', 'server/tools#output-schema', 'structuredContent does not match the tool outputSchema'),
  'tool-result-content-missing': r('error', 'server', 'server/tools#tool-result', 'Tool result without a content array'),
  'tool-structured-content-missing': r('error', 'server', 'server/tools#structured-content', 'Tool with an outputSchema returned no structuredContent'),
  'tool-schema-invalid': r('warning', 'server', 'server/tools#tool', 'Tool schema that a JSON Schema 2020-12 validator cannot compile'),
  'tool-task-support-legacy': r('info', 'server', 'ext/tasks#backward-compatibility', 'execution.taskSupport is gone in 2026-07-28'),
  'ui-resource-uri-invalid': r('error', 'server', 'ext/apps#tool-binding', 'UI resourceUri is not a ui:// URI'),
  'ui-resource-mime': r('warning', 'server', 'ext/apps#ui-resource', 'ui:// resource with the wrong MIME type'),
  // 2025-11-25
  'legacy-related-task-missing': r('warning', 'server', 'ext/tasks#backward-compatibility', 'tasks/result without related-task _meta (2025-11-25)'),
} satisfies Record<string, LintRule>;

/** A rule id (`result-type-missing`, ...). */
export type LintId = keyof typeof LINT_RULES;

const SPEC_BASE = 'https://modelcontextprotocol.io/specification/2026-07-28/';
const EXT_BASE: Record<string, string> = {
  tasks: 'https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/draft/tasks.md',
  apps: 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/draft/apps.mdx',
};

/** A browsable URL for a spec reference (section anchors are best effort). */
export function specUrl(specRef: string): string {
  const [path = '', fragment] = specRef.split('#');
  const extension = /^ext\/(\w+)$/.exec(path)?.[1];
  const base = extension ? (EXT_BASE[extension] ?? SPEC_BASE) : `${SPEC_BASE}${path}`;
  return fragment ? `${base}#${fragment}` : base;
}

/** A reporter that appends catalogued lints to `out` (severity and spec reference from the catalogue). */
export function createReporter(out: Lint[]): Report {
  return (id, message, path) => {
    const rule: LintRule | undefined = LINT_RULES[id];
    if (!rule) throw new Error(`Failed to report lint: unknown rule "${id}"`);
    out.push(
      path === undefined
        ? { id, severity: rule.severity, message, specRef: rule.specRef }
        : { id, severity: rule.severity, message, specRef: rule.specRef, path },
    );
  };
}
