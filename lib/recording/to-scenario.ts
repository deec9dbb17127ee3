import { stringify } from 'yaml';
import { META } from '../protocol';
import { groupExchanges, type RecordedExchange } from './exchanges';
import type { Recording } from './schema';
import { inferTaskSpec } from './task-lifecycle';
import { recordedLog, recordedProgress, streamedRounds } from './call-effects';
import { listed, prompts, resources } from './scenario-catalog';
import { defusePlaceholders, fitInputSchema, fitOutputSchema, fitResult, type Notes } from './scenario-fit';
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
  /** Receives one line per value changed to fit the scenario format (what and why). */
  notes?: Notes;
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

/** The behaviour of one tool from its recorded calls. */
function behaviour(recording: Recording, xs: RecordedExchange[], name: string, notes: Notes): Record<string, unknown> {
  const calls = xs.filter((x) => x.method === 'tools/call' && x.params?.name === name && x.response);
  const needsTasks = calls.some((x) => errorOf(x)?.code === -32021 && JSON.stringify(errorOf(x)).includes('tasks'));
  const taskCall = calls.find((x) => resultOf(x)?.resultType === 'task' || asRecord(resultOf(x)?.task));
  if (taskCall) {
    const r = resultOf(taskCall)!;
    const taskId = (typeof r.taskId === 'string' ? r.taskId : asRecord(r.task)?.taskId) as string;
    const task = inferTaskSpec(recording.frames, taskId, needsTasks ? 'required' : 'declared');
    // The task's final result is what the server sent: fitted like a direct result.
    const steps = Array.isArray(task.steps) ? (task.steps as Record<string, unknown>[]) : [];
    for (const [i, step] of steps.entries())
      if (asRecord(step.result)) step.result = fitResult(asRecord(step.result)!, `tool ${name} task step ${i + 1} result`, notes);
    return { task };
  }
  const where = `tool ${name}`;
  const ending = (final: RecordedExchange | undefined) =>
    final && errorOf(final)
      ? { error: pickError(errorOf(final)!) }
      : {
          result: final
            ? fitResult(resultOf(final)!, `${where} result`, notes)
            : { content: [{ type: 'text', text: 'The recording ended before the final answer.' }] },
        };
  // What the answering call did on its stream besides answering: progress and logs.
  const effects = (x: RecordedExchange | undefined) => {
    const progress = x && recordedProgress(x);
    const log = x && recordedLog(x);
    return { ...(progress ? { progress } : {}), ...(log ? { log } : {}) };
  };
  // 2026-07-28 MRTR: input_required answers, then a final answer in the same conversation.
  const asked = calls.find((x) => resultOf(x)?.resultType === 'input_required');
  if (asked) {
    const conversation = asked.request.conversationId;
    const same = (x: RecordedExchange) => x.connectionId === asked.connectionId && (conversation ? x.request.conversationId === conversation : x === asked);
    const rounds = calls.filter((x) => same(x) && resultOf(x)?.resultType === 'input_required');
    const final = calls.find((x) => x.startAt > asked.startAt && same(x) && resultOf(x)?.resultType !== 'input_required');
    return {
      mrtr: { rounds: rounds.map((x) => ({ inputRequests: normaliseRequests(resultOf(x)!.inputRequests) })) },
      ...ending(final),
      ...effects(final),
    };
  }
  // 2025-11-25: the server asked on the call's own stream (elicitation/create ...) before answering.
  const streamed = calls.find((x) => streamedRounds(x).length);
  if (streamed) return { mrtr: { rounds: streamedRounds(streamed) }, ...ending(streamed), ...effects(streamed) };
  const done = calls.find((x) => resultOf(x));
  if (done) return { ...ending(done), ...effects(done) };
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
function toolSpec(recording: Recording, xs: RecordedExchange[], tool: Record<string, unknown>, notes: Notes): Record<string, unknown> {
  const { name, title, description, inputSchema, outputSchema, annotations, _meta } = tool;
  const meta = { ...(asRecord(_meta) ?? {}) };
  const ui = asRecord(meta.ui);
  delete meta.ui;
  const where = `tool ${String(name)}`;
  const output = fitOutputSchema(outputSchema, where, notes);
  return {
    name,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    inputSchema: inputSchema === undefined ? { type: 'object' } : fitInputSchema(inputSchema, where, notes),
    ...(output ? { outputSchema: output } : {}),
    ...(asRecord(annotations) ? { annotations } : {}),
    ...(Object.keys(meta).length ? { _meta: meta } : {}),
    ...(typeof ui?.resourceUri === 'string' && ui.resourceUri.startsWith('ui://')
      ? { ui: { resourceUri: ui.resourceUri, ...(Array.isArray(ui.visibility) ? { visibility: ui.visibility } : {}) } }
      : {}),
    ...defusePlaceholders(behaviour(recording, xs, name as string, notes), where, notes),
  };
}

/** The scenario (as plain data) a recording describes. */
export function recordingToScenario(recording: Recording, options: ToScenarioOptions = {}): Record<string, unknown> {
  const xs = groupExchanges(recording.frames);
  const server = serverInfo(recording, xs);
  const { supportedVersions, instructions, ...identity } = server;
  const notes = options.notes ?? [];
  const tools = listed(xs, 'tools/list', 'tools', 'name').map((t) => toolSpec(recording, xs, t, notes));
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
    prompts: prompts(xs, notes),
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
