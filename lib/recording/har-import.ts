import type { Frame } from '../client/frames';
import { lintFrames } from '../client/lint-frames';
import { parseSseText } from '../client/sse';
import { contentText, entryHeaders, isSse, parseBody } from './har-entry';
import { foreignFrames, guessConnection } from './har-foreign';
import { HarSchema, type HarEntry } from './har-schema';
import { appContentsOf, LOUPE_APP } from './recorder';
import { openRecording, RECORDING_FORMAT, RECORDING_VERSION, type OpenResult } from './schema';
import { sha256Hex } from '../shared/fingerprint';
import { deriveStreams } from './streams';

/**
 * HAR import. A HAR written by Loupe opens exactly as it was recorded (its `_loupe` extras).
 * Any other HAR, such as one saved from Chrome DevTools while a web MCP client ran, opens as
 * a session (har-foreign.ts); entries that are no MCP exchange (pages, scripts, images) are
 * skipped and counted.
 */

export interface HarImportStats {
  entries: number;
  imported: number;
  skipped: number;
}

/** The recording a HAR opened as, with how many entries were MCP exchanges, or why it did not open. */
type HarImport = (OpenResult & { ok: true; stats: HarImportStats }) | { ok: false; error: string };

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
        const { body } = parseBody(raw);
        return { ...m, headers: entryHeaders(entry.request.headers), ...(raw !== undefined ? { raw } : {}), ...(body !== undefined ? { body } : {}) };
      }
      case 'http-response':
        return { ...m, headers: entryHeaders(entry.response.headers) };
      case 'message': {
        const { body } = parseBody(text);
        return { ...m, ...(text !== undefined ? { raw: text } : {}), ...(body !== undefined ? { body } : {}) };
      }
      case 'sse-frame': {
        const ev = events.shift();
        const data = ev?.type === 'event' ? ev.event.data : undefined;
        const { body } = parseBody(data);
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
  const first = frames[0];
  if (!imported || !first) return { ok: false, error: `The HAR has ${entries.length} entries and none is an MCP exchange (a POST with a JSON-RPC body)` };
  const apps: Record<string, string> = {};
  for (const f of frames) for (const app of appContentsOf(f)) apps[sha256Hex(app.html)] = app.html;
  const opened = openRecording({
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    createdAt: new Date(first.at).toISOString(),
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
