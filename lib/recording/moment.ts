import type { Frame } from '../client/frames';
import { groupExchanges } from './exchanges';
import { appContentsOf } from './recorder';
import type { Recording } from './schema';
import { asRecord } from '../shared/records';

/**
 * A recording at a moment, for scrubbing: the frames seen up to that time (the views rebuild
 * the timeline, tasks and streams from them, so every panel shows the state as it was), the
 * tasks' latest snapshots, which streams were open, and the app view on screen then.
 */

/** The time range of a recording (first and last frame). */
export function timeRange(recording: Recording): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  for (const f of recording.frames) {
    if (f.at < start) start = f.at;
    if (f.at > end) end = f.at;
  }
  return Number.isFinite(start) ? { start, end } : { start: 0, end: 0 };
}

/** The frames that had happened by `at` (inclusive), in recorded order (the recording's own array when that is all of them). */
export function framesUntil(recording: Recording, at: number): readonly Frame[] {
  const all = recording.frames;
  return all.every((f) => f.at <= at) ? all : all.filter((f) => f.at <= at);
}

/** The app view on screen at a moment: the HTML, its resource and when it was shown. */
interface MomentApp {
  uri: string;
  html: string;
  digest: string;
  at: number;
  exchangeId?: string;
  toolName?: string;
}

/** The latest app shown by `at`: a recorded view, else the latest ui:// resource read. */
export function appAt(recording: Recording, at: number): MomentApp | undefined {
  let best: MomentApp | undefined;
  for (const v of recording.views) {
    const html = recording.apps[v.digest];
    if (html === undefined || v.at > at || (best && best.at > v.at)) continue;
    best = {
      uri: v.uri,
      html,
      digest: v.digest,
      at: v.at,
      ...(v.exchangeId ? { exchangeId: v.exchangeId } : {}),
      ...(v.toolName ? { toolName: v.toolName } : {}),
    };
  }
  if (best) return best;
  const byDigest = new Map(Object.entries(recording.apps).map(([d, h]) => [h, d]));
  for (const f of recording.frames) {
    if (f.at > at) continue;
    for (const app of appContentsOf(f)) {
      if (!best || f.at >= best.at) best = { uri: app.uri, html: app.html, digest: byDigest.get(app.html) ?? '', at: f.at, exchangeId: f.exchangeId };
    }
  }
  return best;
}

/** Each task's latest snapshot by `at` (tasks/get results, notifications/tasks, the CreateTaskResult). */
export function tasksAt(recording: Recording, at: number): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const f of recording.frames) {
    if (f.at > at || f.direction !== 'in' || !f.taskId || !f.body || typeof f.body !== 'object') continue;
    const body = f.body as Record<string, unknown>;
    const result = body.result as Record<string, unknown> | undefined;
    const snap =
      body.method === 'notifications/tasks'
        ? (body.params as Record<string, unknown>)
        : result && typeof result.status === 'string' && result.taskId === f.taskId
          ? result
          : undefined;
    if (snap && typeof snap.status === 'string') out.set(f.taskId, snap);
  }
  return out;
}

/** Streams open at `at`, with how many frames each had carried by then. */
export function streamsAt(recording: Recording, at: number): { streamId: string; method?: string; frames: number }[] {
  return recording.streams
    .filter((s) => s.openedAt <= at && (s.closedAt === undefined || s.closedAt > at))
    .map((s) => ({
      streamId: s.streamId,
      ...(s.method ? { method: s.method } : {}),
      frames: recording.frames.filter((f) => f.streamId === s.streamId && f.kind === 'sse-frame' && f.at <= at).length,
    }));
}

/** What an app view needs to render from a recording: the tool, its call's input and result, and the resource read. */
interface RecordedAppCall {
  tool: Record<string, unknown> & { name: string };
  tools: (Record<string, unknown> & { name: string })[];
  input: Record<string, unknown>;
  /** The call's result if it had arrived by the moment. */
  result?: Record<string, unknown>;
  /** The resources/read result to hand the view (recorded, or rebuilt from the stored HTML). */
  resource: Record<string, unknown>;
}

const uiUri = (tool: Record<string, unknown>) => asRecord(asRecord(tool._meta)?.ui)?.resourceUri ?? asRecord(tool._meta)?.['ui/resourceUri'];

/** The recorded tool call behind an app view at `at`, or undefined when the recording cannot tell. */
export function recordedAppCall(recording: Recording, app: MomentApp, at: number): RecordedAppCall | undefined {
  // Only three methods matter: group their exchanges, not every poll of a long session.
  const wanted = new Set<string>();
  for (const f of recording.frames)
    if (f.direction === 'out' && (f.method === 'tools/list' || f.method === 'tools/call' || f.method === 'resources/read')) wanted.add(f.exchangeId);
  const xs = groupExchanges(recording.frames.filter((f) => wanted.has(f.exchangeId)));
  const listed = xs.filter((x) => x.method === 'tools/list' && Array.isArray(asRecord(x.response?.result)?.tools));
  const lastListed = listed.at(-1);
  const tools = (lastListed ? (asRecord(lastListed.response?.result)!.tools as unknown[]) : []).filter(
    (t): t is Record<string, unknown> & { name: string } => typeof asRecord(t)?.name === 'string',
  );
  const by = Math.max(at, app.at);
  const callsOf = (name: string) => xs.filter((x) => x.method === 'tools/call' && x.params?.name === name);
  const latest = (name: string) =>
    callsOf(name)
      .filter((x) => x.startAt <= by)
      .pop()?.startAt ?? -Infinity;
  const appOnly = (t: Record<string, unknown>) => JSON.stringify(asRecord(asRecord(t._meta)?.ui)?.visibility) === '["app"]';
  // Several tools may share a view: app-only ones are what the view itself calls, so the view
  // was shown for one the host may call, the one called last by then.
  const tool = tools
    .filter((t) => (app.toolName ? t.name === app.toolName : uiUri(t) === app.uri))
    .sort((a, b) => Number(appOnly(a)) - Number(appOnly(b)) || latest(b.name) - latest(a.name))[0];
  if (!tool) return undefined;
  const calls = callsOf(tool.name);
  const call = calls.filter((x) => x.startAt <= by).pop() ?? calls[0];
  const answered = call?.responseFrame && call.responseFrame.at <= by ? asRecord(call.response?.result) : undefined;
  const read = xs.filter((x) => x.method === 'resources/read' && x.params?.uri === app.uri && asRecord(x.response?.result)).pop();
  return {
    tool,
    tools,
    input: asRecord(call?.params?.arguments) ?? {},
    ...(answered ? { result: answered } : {}),
    resource: asRecord(read?.response?.result) ?? { contents: [{ uri: app.uri, mimeType: 'text/html;profile=mcp-app', text: app.html }] },
  };
}
