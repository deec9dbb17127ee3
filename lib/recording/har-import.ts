import { rpcFields, taskIdOfMessage, utf8Bytes, type Frame, type FrameKind } from '../client/frames';
import { lintFrames } from '../client/lint-frames';
import { parseSseText } from '../client/sse';
import { LEGACY_VERSIONS, META } from '../protocol';
import { describeConnection } from './connection';
import { HarSchema, type HarEntry, type HarHeader } from './har-schema';
import { appContentsOf, LOUPE_APP } from './recorder';
import { openRecording, RECORDING_FORMAT, RECORDING_VERSION, type OpenResult, type Recording } from './schema';
import { sha256Hex } from '../shared/fingerprint';
import { deriveStreams } from './streams';
import { asRecord } from '../shared/records';

/**
 * HAR import. A HAR written by Loupe opens exactly as it was recorded (its `_loupe` extras).
 * Any other HAR, such as one saved from Chrome DevTools while a web MCP client ran, opens as
 * a session: entries whose request body is JSON-RPC become exchanges, JSON responses become
 * messages, `text/event-stream` responses are split into SSE frames and comments; other
 * entries (pages, scripts, images) are skipped and counted.
 */

export interface HarImportStats {
  entries: number;
  imported: number;
  skipped: number;
}

/** The recording a HAR opened as, with how many entries were MCP exchanges, or why it did not open. */
type HarImport = (OpenResult & { ok: true; stats: HarImportStats }) | { ok: false; error: string };

function parse(text: string | undefined): { body?: unknown; parseError?: string } {
  if (text === undefined || text === '') return {};
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (e) {
    return { parseError: (e as Error).message };
  }
}

/** Header list → lower-cased record (repeated names joined, as fetch's Headers does). */
function headerRecord(list: HarHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of list) {
    const k = name.toLowerCase();
    // HTTP/2 pseudo-headers (:authority, :path) are not headers a client sets.
    if (k.startsWith(':')) continue;
    out[k] = k in out ? `${out[k]}, ${value}` : value;
  }
  return out;
}

/** The response body text (HAR content may be base64-encoded). */
function contentText(entry: HarEntry): string | undefined {
  const c = entry.response.content;
  if (c.text === undefined) return undefined;
  if (c.encoding !== 'base64') return c.text;
  try {
    const bin = atob(c.text);
    return new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

const isSse = (entry: HarEntry) =>
  (entry.response.content.mimeType ?? headerRecord(entry.response.headers)['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');

/** Rebuild an exported entry's frames from its `_loupe` metadata and the HAR bodies. */
function exactFrames(entry: HarEntry): Frame[] {
  const text = contentText(entry);
  const items = isSse(entry) ? parseSseText(text ?? '') : [];
  const events = items.filter((i) => i.type === 'event');
  const comments = items.filter((i) => i.type === 'comment');
  return entry._loupe!.frames.map((m): Frame => {
    switch (m.kind) {
      case 'http-request': {
        const raw = entry.request.postData?.text;
        const { body } = parse(raw);
        return { ...m, headers: headerRecord(entry.request.headers), ...(raw !== undefined ? { raw } : {}), ...(body !== undefined ? { body } : {}) };
      }
      case 'http-response':
        return { ...m, headers: headerRecord(entry.response.headers) };
      case 'message': {
        const { body } = parse(text);
        return { ...m, ...(text !== undefined ? { raw: text } : {}), ...(body !== undefined ? { body } : {}) };
      }
      case 'sse-frame': {
        const ev = events.shift();
        const data = ev?.type === 'event' ? ev.event.data : undefined;
        const { body } = parse(data);
        return { ...m, ...(data !== undefined ? { raw: data } : {}), ...(body !== undefined ? { body } : {}) };
      }
      case 'sse-comment': {
        const c = comments.shift();
        return { ...m, ...(c?.type === 'comment' ? { raw: c.text } : {}) };
      }
      default:
        return { ...m };
    }
  });
}

/** Frames of a foreign HAR entry (a browser's), or undefined when it is not an MCP exchange. */
function foreignFrames(entry: HarEntry, connectionId: string, exchangeId: string, nextSeq: () => number): Frame[] | undefined {
  const raw = entry.request.postData?.text;
  const request = parse(raw).body;
  const rpc = asRecord(request);
  const sse = isSse(entry);
  if (!(rpc && rpc.jsonrpc === '2.0') && !(entry.request.method === 'GET' && sse)) return undefined;
  const start = Date.parse(entry.startedDateTime);
  if (Number.isNaN(start)) return undefined;
  const t = entry.timings ?? {};
  const pos = (v: number | undefined) => (v !== undefined && v > 0 ? v : 0);
  const headAt = start + pos(t.blocked) + pos(t.dns) + pos(t.connect) + pos(t.send) + pos(t.wait);
  const endAt = Math.max(headAt + pos(t.receive), start + pos(entry.time));
  const { method: reqMethod, id: rpcId } = rpcFields(request);
  const frames: Frame[] = [];
  const add = (kind: FrameKind, direction: 'in' | 'out', at: number, extra: Partial<Frame>) => {
    const own = rpcFields(extra.body);
    const taskId = taskIdOfMessage(extra.body) ?? (kind === 'http-request' ? undefined : taskIdOfMessage(request));
    const method = own.method ?? reqMethod;
    frames.push({
      seq: nextSeq(),
      at,
      connectionId,
      direction,
      kind,
      exchangeId,
      ...(rpcId !== undefined ? { rpcId } : {}),
      ...(method ? { method } : {}),
      ...(taskId ? { taskId } : {}),
      bytes: utf8Bytes(extra.raw),
      ...extra,
    });
  };
  add('http-request', 'out', start, {
    headers: headerRecord(entry.request.headers),
    ...(request !== undefined ? { body: request } : {}),
    ...(raw !== undefined ? { raw } : {}),
  });
  const error = entry.response._error ?? undefined;
  if (entry.response.status === 0) {
    add('error', 'in', endAt, { errorText: error || 'the request failed (no response in the HAR)' });
    return frames;
  }
  add('http-response', 'in', headAt, { httpStatus: entry.response.status, headers: headerRecord(entry.response.headers), durationMs: headAt - start });
  const text = contentText(entry);
  if (!sse) {
    if (text) {
      const p = parse(text);
      add('message', 'in', endAt, {
        raw: text,
        ...(p.body !== undefined ? { body: p.body } : {}),
        ...(p.parseError ? { errorText: `not JSON: ${p.parseError}` } : {}),
      });
    }
    return frames;
  }
  add('sse-open', 'in', headAt, { streamId: exchangeId });
  // A HAR has no per-event times: spread the events over the receive phase.
  const items = parseSseText(text ?? '');
  let answered = false;
  items.forEach((item, i) => {
    const at = Math.round(headAt + ((endAt - headAt) * (i + 1)) / (items.length + 1));
    if (item.type === 'comment') return add('sse-comment', 'in', at, { streamId: exchangeId, raw: item.text });
    const p = parse(item.event.data);
    const m = asRecord(p.body);
    if (m && m.id === rpcId && ('result' in m || 'error' in m)) answered = true;
    add('sse-frame', 'in', at, {
      streamId: exchangeId,
      raw: item.event.data,
      ...(p.body !== undefined ? { body: p.body } : {}),
      ...(p.parseError ? { errorText: `not JSON: ${p.parseError}` } : {}),
    });
  });
  const closeReason = text === undefined ? 'network-error' : answered ? 'complete' : 'server-closed';
  add('sse-close', 'in', endAt, {
    streamId: exchangeId,
    closeReason,
    durationMs: endAt - headAt,
    ...(text === undefined ? { errorText: 'the stream body is not in the HAR' } : {}),
  });
  return frames;
}

/** Connection metadata guessed from a foreign HAR's MCP entries. */
function guessConnection(urls: string[], frames: Frame[]): Recording['connection'] {
  const counts = new Map<string, number>();
  for (const u of urls) counts.set(u, (counts.get(u) ?? 0) + 1);
  const target = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  const first = frames.find((f) => f.kind === 'http-request' && asRecord(f.body));
  const body = asRecord(first?.body);
  const params = asRecord(body?.params);
  const meta = asRecord(params?._meta);
  const version =
    first?.headers?.['mcp-protocol-version'] ??
    (typeof meta?.[META.protocolVersion] === 'string'
      ? (meta[META.protocolVersion] as string)
      : typeof params?.protocolVersion === 'string'
        ? params.protocolVersion
        : undefined);
  const clientInfo = asRecord(meta?.[META.clientInfo]) ?? asRecord(params?.clientInfo);
  const era = body?.method === 'initialize' || (version && (LEGACY_VERSIONS as readonly string[]).includes(version)) ? 'legacy' : 'modern';
  return describeConnection({
    target,
    transport: 'http',
    era,
    ...(version ? { protocolVersion: version } : {}),
    ...(typeof clientInfo?.name === 'string' && typeof clientInfo.version === 'string'
      ? { clientInfo: { name: clientInfo.name, version: clientInfo.version } }
      : {}),
  });
}

/** Order frames: by seq for one connection; by time across several. */
function ordered(frames: Frame[]): Frame[] {
  const single = frames.every((f) => f.connectionId === frames[0]?.connectionId);
  return frames.sort(single ? (a, b) => a.seq - b.seq : (a, b) => a.at - b.at || a.seq - b.seq);
}

/** Open a HAR document (parsed JSON) as a recording. */
export function importHar(doc: unknown): HarImport {
  const parsed = HarSchema.safeParse(doc);
  if (!parsed.success)
    return {
      ok: false,
      error: `Not a HAR file: ${parsed.error.issues
        .slice(0, 2)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    };
  const { entries, _loupe: loupe } = parsed.data.log;
  let seq = 0;
  const frames: Frame[] = [];
  const urls: string[] = [];
  let imported = 0;
  const sorted = loupe ? entries : [...entries].sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  sorted.forEach((entry, i) => {
    const got = entry._loupe ? exactFrames(entry) : foreignFrames(entry, 'har-1', `har-1:${i + 1}`, () => seq++);
    if (!got) return;
    imported++;
    urls.push(entry.request.url);
    frames.push(...got);
  });
  const stats = { entries: entries.length, imported, skipped: entries.length - imported };
  if (loupe) {
    const all = ordered([...frames, ...loupe.otherFrames]);
    const opened = openRecording({
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      createdAt: loupe.createdAt,
      app: loupe.app,
      connection: loupe.connection,
      frames: all,
      streams: deriveStreams(all),
      lints: loupe.lints,
      apps: loupe.apps,
      views: loupe.views,
      ...(loupe.redaction ? { redaction: loupe.redaction } : {}),
    });
    return opened.ok ? { ...opened, stats } : opened;
  }
  if (!imported) return { ok: false, error: `The HAR has ${entries.length} entries and none is an MCP exchange (a POST with a JSON-RPC body)` };
  const apps: Record<string, string> = {};
  for (const f of frames) for (const app of appContentsOf(f)) apps[sha256Hex(app.html)] = app.html;
  const opened = openRecording({
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    createdAt: new Date(frames[0].at).toISOString(),
    app: { ...LOUPE_APP },
    connection: guessConnection(urls, frames),
    frames,
    streams: deriveStreams(frames),
    lints: Object.fromEntries(lintFrames(frames)),
    apps,
    views: [],
  });
  return opened.ok ? { ...opened, stats } : opened;
}
