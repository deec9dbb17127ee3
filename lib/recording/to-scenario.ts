import { stringify } from 'yaml';
import { META } from '../protocol';
import { groupExchanges, type RecordedExchange } from './exchanges';
import type { Recording } from './schema';
import { inferTaskSpec, resultSpec } from './task-lifecycle';
import { asRecord } from '../shared/records';
import { SCENARIO_SCHEMA_NOTE } from '../shared/scenario-schema-note';

/**
 * Recording → editable scenario: server identity from discovery (or the handshake), the tools
 * of the last tools/list, each tool's behaviour from its recorded calls (a task script
 * inferred from the polls, MRTR rounds from input_required answers, the result, or the
 * JSON-RPC error), resources and prompts with what was read. The output is YAML that
 * `parseScenario` validates and the control room opens for editing.
 */

interface ToScenarioOptions {
  /** Scenario id (default: from the server name, e.g. `loupe-demo-recorded`). */
  id?: string;
  name?: string;
}

const resultOf = (x: RecordedExchange) => asRecord(x.response?.result);
const errorOf = (x: RecordedExchange) => asRecord(x.response?.error);

/** A scenario id from free text. */
function scenarioIdFrom(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return /^[a-z0-9]/.test(slug) ? slug : `recorded${slug ? `-${slug}` : ''}`;
}

function serverInfo(
  recording: Recording,
  xs: RecordedExchange[],
): { name: string; version: string; title?: string; instructions?: string; supportedVersions?: string[] } {
  const discover = xs.filter((x) => x.method === 'server/discover' && resultOf(x)).pop();
  const init = xs.filter((x) => x.method === 'initialize' && resultOf(x)).pop();
  const r = resultOf(discover ?? init ?? ({} as RecordedExchange));
  const info = asRecord(asRecord(r?._meta)?.[META.serverInfo]) ?? asRecord(r?.serverInfo) ?? recording.connection.serverInfo;
  const versions = Array.isArray(r?.supportedVersions)
    ? (r.supportedVersions as string[])
    : typeof r?.protocolVersion === 'string'
      ? [r.protocolVersion]
      : undefined;
  return {
    name: typeof info?.name === 'string' ? info.name : 'recorded-server',
    version: typeof info?.version === 'string' ? info.version : '0.0.0',
    ...(typeof info?.title === 'string' ? { title: info.title } : {}),
    ...(typeof r?.instructions === 'string' ? { instructions: r.instructions } : {}),
    ...(versions?.length ? { supportedVersions: versions } : {}),
  };
}

/** Items of every page of a list method, the last occurrence of each key winning. */
function listed(xs: RecordedExchange[], method: string, field: string, key: string): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const x of xs) {
    if (x.method !== method) continue;
    const items = resultOf(x)?.[field];
    if (!Array.isArray(items)) continue;
    for (const item of items) if (asRecord(item) && typeof asRecord(item)![key] === 'string') byKey.set(asRecord(item)![key] as string, asRecord(item)!);
  }
  return [...byKey.values()];
}

/** The behaviour of one tool from its recorded calls. */
function behaviour(recording: Recording, xs: RecordedExchange[], name: string): Record<string, unknown> {
  const calls = xs.filter((x) => x.method === 'tools/call' && x.params?.name === name && x.response);
  const needsTasks = calls.some((x) => errorOf(x)?.code === -32021 && JSON.stringify(errorOf(x)).includes('tasks'));
  const taskCall = calls.find((x) => resultOf(x)?.resultType === 'task' || asRecord(resultOf(x)?.task));
  if (taskCall) {
    const r = resultOf(taskCall)!;
    const taskId = (typeof r.taskId === 'string' ? r.taskId : asRecord(r.task)?.taskId) as string;
    return { task: inferTaskSpec(recording.frames, taskId, needsTasks ? 'required' : 'declared') };
  }
  // MRTR: input_required answers, then a final answer in the same conversation.
  const asked = calls.find((x) => resultOf(x)?.resultType === 'input_required');
  if (asked) {
    const conversation = asked.request.conversationId;
    const rounds = calls.filter(
      (x) => (conversation ? x.request.conversationId === conversation : x === asked) && resultOf(x)?.resultType === 'input_required',
    );
    const final = calls.find(
      (x) => x.startAt > asked.startAt && (!conversation || x.request.conversationId === conversation) && resultOf(x)?.resultType !== 'input_required',
    );
    const end =
      final && errorOf(final)
        ? { error: pickError(errorOf(final)!) }
        : { result: resultSpec(final ? resultOf(final)! : { content: [{ type: 'text', text: 'The recording ended before the final answer.' }] }) };
    return { mrtr: { rounds: rounds.map((x) => ({ inputRequests: normaliseRequests(resultOf(x)!.inputRequests) })) }, ...end };
  }
  const done = calls.find((x) => resultOf(x));
  if (done) return { result: resultSpec(resultOf(done)!) };
  const failed = calls.find((x) => errorOf(x) && errorOf(x)!.code !== -32021);
  if (failed) return { error: pickError(errorOf(failed)!) };
  return { result: { content: [{ type: 'text', text: `No call to ${name} was recorded; edit this result.` }] } };
}

function pickError(e: Record<string, unknown>): Record<string, unknown> {
  return {
    code: typeof e.code === 'number' ? e.code : -32603,
    message: typeof e.message === 'string' ? e.message : 'Error',
    ...(e.data !== undefined ? { data: e.data } : {}),
  };
}

function normaliseRequests(v: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, r] of Object.entries(asRecord(v) ?? {})) out[k] = { method: asRecord(r)?.method, params: asRecord(asRecord(r)?.params) ?? {} };
  return out;
}

/** A tool as listed, turned into a scenario tool (ui binding lifted out of `_meta`). */
function toolSpec(recording: Recording, xs: RecordedExchange[], tool: Record<string, unknown>): Record<string, unknown> {
  const { name, title, description, inputSchema, outputSchema, annotations, _meta } = tool;
  const meta = { ...(asRecord(_meta) ?? {}) };
  const ui = asRecord(meta.ui);
  delete meta.ui;
  return {
    name,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    inputSchema: asRecord(inputSchema) ?? { type: 'object' },
    ...(asRecord(outputSchema) ? { outputSchema } : {}),
    ...(asRecord(annotations) ? { annotations } : {}),
    ...(Object.keys(meta).length ? { _meta: meta } : {}),
    ...(typeof ui?.resourceUri === 'string' && ui.resourceUri.startsWith('ui://')
      ? { ui: { resourceUri: ui.resourceUri, ...(Array.isArray(ui.visibility) ? { visibility: ui.visibility } : {}) } }
      : {}),
    ...behaviour(recording, xs, name as string),
  };
}

function resources(recording: Recording, xs: RecordedExchange[]): Record<string, unknown>[] {
  const byUri = new Map<string, Record<string, unknown>>();
  for (const r of listed(xs, 'resources/list', 'resources', 'uri'))
    byUri.set(r.uri as string, { uri: r.uri, name: r.name ?? r.uri, ...pick(r, ['title', 'description', 'mimeType']) });
  for (const x of xs) {
    if (x.method !== 'resources/read') continue;
    for (const c of (resultOf(x)?.contents as unknown[]) ?? []) {
      const item = asRecord(c);
      if (typeof item?.uri !== 'string') continue;
      const base = byUri.get(item.uri) ?? { uri: item.uri, name: item.uri };
      byUri.set(item.uri, { ...base, ...pick(item, ['mimeType', 'text', 'blob']), ...(asRecord(item._meta) ? { _meta: item._meta } : {}) });
    }
  }
  for (const v of recording.views) {
    const html = recording.apps[v.digest];
    if (html !== undefined && !byUri.has(v.uri)) byUri.set(v.uri, { uri: v.uri, name: v.uri, mimeType: 'text/html;profile=mcp-app', text: html });
  }
  return [...byUri.values()];
}

function prompts(xs: RecordedExchange[]): Record<string, unknown>[] {
  return listed(xs, 'prompts/list', 'prompts', 'name').map((p) => {
    const got = xs.filter((x) => x.method === 'prompts/get' && x.params?.name === p.name && Array.isArray(resultOf(x)?.messages)).pop();
    const messages = (
      got
        ? resultOf(got)!.messages
        : [{ role: 'user', content: { type: 'text', text: typeof p.description === 'string' ? p.description : `Prompt ${String(p.name)}` } }]
    ) as unknown[];
    // Scenario prompt arguments are strict: keep the fields the format knows, drop any extension data.
    const args = Array.isArray(p.arguments)
      ? p.arguments.flatMap((a) => (asRecord(a) ? [pick(asRecord(a)!, ['name', 'title', 'description', 'required'])] : []))
      : undefined;
    return { name: p.name, ...pick(p, ['title', 'description']), ...(args ? { arguments: args } : {}), messages };
  });
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

/** The scenario (as plain data) a recording describes. */
export function recordingToScenario(recording: Recording, options: ToScenarioOptions = {}): Record<string, unknown> {
  const xs = groupExchanges(recording.frames);
  const server = serverInfo(recording, xs);
  const { supportedVersions, instructions, ...identity } = server;
  const tools = listed(xs, 'tools/list', 'tools', 'name').map((t) => toolSpec(recording, xs, t));
  const created = xs.map((x) => resultOf(x)).find((r) => r?.resultType === 'task' && typeof r.pollIntervalMs === 'number');
  return {
    id: options.id ?? scenarioIdFrom(`${server.name}-recorded`),
    name: options.name ?? `${server.title ?? server.name} (recorded)`,
    description: `Converted from a Loupe recording of ${recording.connection.target || 'a session'} made ${recording.createdAt}.`,
    server: { ...identity, ...(instructions ? { instructions } : {}) },
    ...(supportedVersions ? { supportedVersions } : {}),
    ...(created ? { settings: { pollIntervalMs: created.pollIntervalMs } } : {}),
    tools,
    resources: resources(recording, xs),
    prompts: prompts(xs),
  };
}

/** The scenario as YAML text, ready for the control room's editor. */
export function recordingToScenarioYaml(recording: Recording, options: ToScenarioOptions = {}): string {
  const header = [
    '# Loupe scenario converted from a recording.',
    `# ${SCENARIO_SCHEMA_NOTE}.`,
    '# Tools, results and task lifecycles are what the recording saw; edit freely.',
  ].join('\n');
  return `${header}\n${stringify(recordingToScenario(recording, options), { lineWidth: 100, aliasDuplicateObjects: false })}`;
}
