import type { JsonRpcErrorObject, Tool } from '../protocol';
import { fingerprint } from '../shared/fingerprint';
import type { DroppedTool } from '../client/request-builder';
import type { RequestOutcome } from '../client/results';
import type { ObservedTask } from '../client/task-api';
import type { CliError } from './errors';
import { printable } from './terminal';

/**
 * Human output of the client commands. Task ids are bearer tokens, so they appear as
 * 8-character fingerprints unless the user asks for them (`--reveal-ids`, or `--json`).
 */

/** Write a line of human text to stdout (control characters made harmless). */
export const out = (text: string) => process.stdout.write(printable(text.endsWith('\n') ? text : `${text}\n`));
/** Write a line to stderr (progress, warnings and failures, so stdout stays the answer). */
export const err = (text: string) => process.stderr.write(printable(text.endsWith('\n') ? text : `${text}\n`));
/** Print a value as indented JSON on stdout. */
export const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** How a task is named in human output. */
export function taskLabel(taskId: string, reveal = false): string {
  return reveal ? taskId : fingerprint(taskId);
}

/**
 * How a task the user named on the command line is echoed back: the start of what they typed, so
 * the line can be matched to their own id, beside the fingerprint lists, logs and the report card
 * show. Only the start: the line may land in a CI log and an id is a bearer token (8 of a Loupe
 * id's 27 characters leave it 112 random bits; a short id shows at most a third of itself).
 */
export function typedTaskLabel(taskId: string): string {
  const typed = taskId.slice(0, Math.min(8, Math.floor(taskId.length / 3)));
  return `${typed ? `${typed}… ` : ''}(fingerprint ${fingerprint(taskId)})`;
}

/** A JSON-RPC error in one line: code, message and data (a related task's id left out). */
export function formatError(e: JsonRpcErrorObject): string {
  // data._meta names the related task in full (2025-11-25); the id stays out of human output.
  const { _meta: _m, ...rest } = e.data && typeof e.data === 'object' && !Array.isArray(e.data) ? (e.data as Record<string, unknown>) : { _meta: undefined };
  const shown = e.data && typeof e.data === 'object' && !Array.isArray(e.data) ? (Object.keys(rest).length ? rest : undefined) : e.data;
  const data = shown === undefined ? '' : ` ${JSON.stringify(shown)}`;
  return `JSON-RPC error ${e.code}: ${e.message}${data}`;
}

/** The content of a tool result, text first, other blocks summarised. */
export function formatToolResult(result: Record<string, unknown>): string {
  const lines: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  for (const block of content) {
    if (block.type === 'text') lines.push(String(block.text));
    else if (block.type === 'image' || block.type === 'audio')
      lines.push(`[${block.type} ${String(block.mimeType)}, ${String(block.data ?? '').length} base64 chars]`);
    else if (block.type === 'resource') lines.push(`[resource ${String((block.resource as { uri?: string } | undefined)?.uri)}]`);
    else if (block.type === 'resource_link') lines.push(`[link ${String(block.uri)}]`);
    else lines.push(JSON.stringify(block));
  }
  if (result.structuredContent !== undefined) lines.push(`structuredContent: ${JSON.stringify(result.structuredContent)}`);
  return lines.length ? lines.join('\n') : '(empty result)';
}

/** Human view of server/discover (or the 2025-11-25 initialize answer): identity, versions, capabilities. */
export function formatDiscover(result: Record<string, unknown>, era: string | undefined, version: string): string {
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  const info = (meta['io.modelcontextprotocol/serverInfo'] ?? result.serverInfo) as { name?: string; version?: string; title?: string } | undefined;
  const lines = [
    `Server:       ${info ? `${info.title ?? info.name} ${info.version ?? ''}`.trim() : '(no serverInfo)'}`,
    `Protocol:     ${version} (${era === 'legacy' ? '2025-11-25 handshake' : 'stateless 2026-07-28'})`,
  ];
  const versions = result.supportedVersions ?? (result.protocolVersion ? [result.protocolVersion] : undefined);
  if (versions) lines.push(`Versions:     ${(versions as string[]).join(', ')}`);
  const caps = (result.capabilities ?? {}) as Record<string, unknown>;
  lines.push(
    `Capabilities: ${
      Object.keys(caps)
        .filter((k) => k !== 'extensions')
        .join(', ') || '(none)'
    }`,
  );
  const ext = Object.keys((caps.extensions ?? {}) as object);
  if (ext.length) lines.push(`Extensions:   ${ext.join(', ')}`);
  if (result.ttlMs !== undefined) lines.push(`Cache:        ttlMs ${String(result.ttlMs)}, ${String(result.cacheScope)}`);
  if (typeof result.instructions === 'string') lines.push('', result.instructions);
  return lines.join('\n');
}

/** Human view of tools/list, with the tools dropped for invalid x-mcp-header annotations and why. */
export function formatTools(tools: Tool[], dropped: DroppedTool[]): string {
  const lines = tools.map((t) => {
    const flags = [t.annotations?.readOnlyHint ? 'read-only' : '', t.annotations?.destructiveHint ? 'destructive' : ''].filter(Boolean);
    const args = Object.keys((t.inputSchema.properties ?? {}) as object);
    return `${t.name}(${args.join(', ')})${flags.length ? ` [${flags.join(', ')}]` : ''}${t.description ? `\n    ${t.description.split('\n')[0]}` : ''}`;
  });
  if (dropped.length) lines.push('', ...dropped.map((d) => `dropped ${d.name}: ${d.reason}`));
  return lines.join('\n') || '(no tools)';
}

/** Multi-line task view, like `task get`. */
export function formatTask(t: ObservedTask, reveal = false): string {
  const lines = [
    `Task:     ${taskLabel(t.taskId, reveal)}`,
    `Status:   ${t.status}${t.statusMessage ? ` — ${t.statusMessage}` : ''}`,
    `Created:  ${t.createdAt}`,
    `Updated:  ${t.lastUpdatedAt}`,
    `TTL:      ${t.ttlMs === null ? 'unlimited' : `${t.ttlMs}ms`}`,
  ];
  if (t.pollIntervalMs !== undefined) lines.push(`Poll:     every ${t.pollIntervalMs}ms`);
  for (const [key, req] of Object.entries(t.inputRequests ?? {}))
    lines.push(
      `Input:    ${key} (${req.method})${(req.params as { message?: string } | undefined)?.message ? ` — ${(req.params as { message: string }).message}` : ''}`,
    );
  if (t.error) lines.push(`Error:    ${formatError(t.error)}`);
  if (t.result) lines.push('', formatToolResult(t.result));
  return lines.join('\n');
}

/**
 * A request that got no result, as the command reports it. `network` is why the last fetch
 * failed (see trackedFetch), when the outcome comes from a server that could not be reached.
 */
export function errorOfOutcome(o: RequestOutcome, url: string, network: string | undefined): CliError {
  if (o.type === 'error') return { code: 'rpc', message: formatFailure(o), rpc: o.error };
  if (o.type === 'invalid') return { code: 'invalid-response', message: formatFailure(o) };
  if (o.type === 'failure' && o.reason === 'timeout') return { code: 'timeout', message: formatFailure(o) };
  if (o.type === 'failure' && network && (o.reason === 'network' || o.reason === 'unsafe-not-retried' || o.reason === 'dropped'))
    return { code: 'unreachable', message: `cannot reach ${url}: ${network}` };
  // HTTP 401: a script tells "sign in first" from any other failure.
  if (o.type === 'failure' && o.reason === 'auth') return { code: 'unauthorized', message: formatFailure(o) };
  // A stdio server that could not be started (no such command, not executable) is as unreachable as a closed port.
  if (o.type === 'failure' && o.reason === 'network' && /^Failed to start /.test(o.message)) return { code: 'unreachable', message: o.message };
  return { code: 'failed', message: formatFailure(o) };
}

/** One line for an outcome that is not a result. */
export function formatFailure(o: RequestOutcome): string {
  switch (o.type) {
    case 'error':
      return formatError(o.error) + (o.httpStatus && o.httpStatus !== 200 ? ` (HTTP ${o.httpStatus})` : '');
    case 'invalid':
      return `Invalid response: ${o.reason}`;
    case 'failure':
      return `Request failed (${o.reason}): ${o.message}`;
    default:
      return `Unexpected ${o.type} result`;
  }
}

/** A server's notifications/message as one stderr line: "log warning db: disk almost full" (made printable). */
export function formatServerLog(params: unknown): string {
  const p = (params ?? {}) as { level?: unknown; logger?: unknown; data?: unknown };
  const level = typeof p.level === 'string' ? p.level : '?';
  const logger = typeof p.logger === 'string' ? ` ${p.logger}` : '';
  const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data ?? null);
  return printable(`log ${level}${logger}: ${data.length > 2000 ? `${data.slice(0, 2000)}… (${data.length} characters)` : data}`);
}
