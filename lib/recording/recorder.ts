import type { Frame, FrameSink } from '../client/frames';
import { sha256Hex } from '../shared/fingerprint';
import { lintFrames } from '../client/lint-frames';
import type { ConnectionMeta, Recording, RecordedAppView } from './schema';
import { RECORDING_FORMAT, RECORDING_VERSION } from './schema';
import { deriveStreams } from './streams';
import { asRecord } from '../shared/records';

/**
 * The recorder: a FrameSink for the tracking decorator that keeps the session's frames, picks
 * up app HTML as it is read (ui:// resources with the MCP Apps profile), and builds a
 * {@link Recording} on demand, with streams and lints derived from the frames.
 */

/** Who wrote the recording. */
export const LOUPE_APP = { name: 'mcp-loupe', version: '0.1.0' } as const;

/** What a recorder starts with. */
interface RecorderOptions {
  connection: ConnectionMeta;
  /** Wall clock (ms); the recording's createdAt when no frame has arrived yet. */
  now?: () => number;
  /** Lint the frames when building (default true). */
  lint?: boolean;
  /** Frames to start from (an opened recording being extended). */
  frames?: readonly Frame[];
  /**
   * Memory budget (approximate bytes of frames kept). Past it the oldest tenth of the frames is
   * dropped, so a session left running for days keeps its recent part. Default: unbounded.
   */
  maxBytes?: number;
}

/** What a frame costs in memory, roughly: its payload plus the fixed fields. */
const frameCost = (f: Frame) => f.bytes * 2 + 256;

/** A session being recorded. */
export interface Recorder {
  /** Hand this to `createTrackingTransport({ sink })`. */
  readonly sink: FrameSink;
  /** Store an app's HTML (once per digest) and note that it was shown; returns the digest. */
  addApp(html: string, view: { uri: string; at?: number; exchangeId?: string; toolName?: string }): string;
  /** Update the connection metadata (era and server become known after the first exchange). */
  setConnection(patch: Partial<ConnectionMeta>): void;
  frames(): readonly Frame[];
  readonly size: number;
  /** Frames dropped from the start to stay within `maxBytes`. */
  readonly dropped: number;
  /** Called after every change (for autosave); returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** The recording so far; `lints: false` leaves the lints out (autosave: linting the whole session again each time is too costly). */
  build(options?: { lints?: boolean }): Recording;
}

/** The app resources (ui:// HTML with the MCP Apps profile) a frame's resources/read result carries. */
export function appContentsOf(frame: Frame): { uri: string; html: string }[] {
  if (frame.direction !== 'in' || frame.method !== 'resources/read') return [];
  const contents = asRecord(asRecord(frame.body)?.result)?.contents;
  if (!Array.isArray(contents)) return [];
  const out: { uri: string; html: string }[] = [];
  for (const c of contents) {
    const item = asRecord(c);
    if (typeof item?.uri !== 'string' || typeof item.text !== 'string' || !item.uri.startsWith('ui://')) continue;
    if (typeof item.mimeType === 'string' && !item.mimeType.toLowerCase().startsWith('text/html')) continue;
    out.push({ uri: item.uri, html: item.text });
  }
  return out;
}

/**
 * The digest of an app's HTML, remembered for the last few documents: the same HTML reaches the
 * recorder twice (the resources/read frame, then the view shown) and again with each read, and
 * the digest is a SHA-256 in script (25 ms for a large view on a busy page).
 */
const digests = new Map<string, string>();
function digestOf(html: string): string {
  let d = digests.get(html);
  if (d === undefined) {
    d = sha256Hex(html);
    digests.set(html, d);
    if (digests.size > 4) digests.delete(digests.keys().next().value as string);
  }
  return d;
}

/** Create a recorder for one connection. */
export function createRecorder(options: RecorderOptions): Recorder {
  const now = options.now ?? (() => Date.now());
  const started = now();
  const frames: Frame[] = [...(options.frames ?? [])];
  let kept = frames.reduce((n, f) => n + frameCost(f), 0);
  /** Frames dropped to stay within `maxBytes`. */
  let dropped = 0;
  const apps: Record<string, string> = {};
  const views: RecordedAppView[] = [];
  let connection: ConnectionMeta = { ...options.connection };
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) {
      try {
        l();
      } catch {
        /* a listener's failure must not stop recording */
      }
    }
  };

  function addApp(html: string, view: { uri: string; at?: number; exchangeId?: string; toolName?: string }): string {
    const digest = digestOf(html);
    apps[digest] = html;
    const last = views[views.length - 1];
    // The same HTML shown again for the same resource is one view, not a new one.
    if (!(last && last.uri === view.uri && last.digest === digest && last.exchangeId === view.exchangeId)) {
      views.push({
        uri: view.uri,
        digest,
        at: view.at ?? now(),
        ...(view.exchangeId ? { exchangeId: view.exchangeId } : {}),
        ...(view.toolName ? { toolName: view.toolName } : {}),
      });
    }
    changed();
    return digest;
  }

  const sink: FrameSink = (frame) => {
    frames.push(frame);
    kept += frameCost(frame);
    if (options.maxBytes !== undefined && kept > options.maxBytes && frames.length > 10) {
      const cut = frames.splice(0, Math.ceil(frames.length / 10));
      dropped += cut.length;
      kept -= cut.reduce((n, f) => n + frameCost(f), 0);
    }
    for (const app of appContentsOf(frame)) {
      const digest = digestOf(app.html);
      apps[digest] = app.html;
    }
    changed();
  };

  return {
    sink,
    addApp,
    setConnection(patch) {
      connection = { ...connection, ...patch };
      changed();
    },
    frames: () => frames,
    get size() {
      return frames.length;
    },
    get dropped() {
      return dropped;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    build(o = {}) {
      const lints = options.lint === false || o.lints === false ? {} : Object.fromEntries(lintFrames(frames));
      return {
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        createdAt: new Date(frames[0]?.at ?? started).toISOString(),
        app: { ...LOUPE_APP },
        connection,
        frames: [...frames],
        streams: deriveStreams(frames),
        lints,
        apps: { ...apps },
        views: [...views],
      };
    },
  };
}

/**
 * Join a later session onto an earlier recording (the CLI's `--record` on an existing file):
 * frames follow in time order, apps, views and lints are merged, the first connection stays.
 */
export function appendRecording(base: Recording, next: Recording): Recording {
  const frames = [...base.frames, ...next.frames];
  return {
    ...base,
    frames,
    streams: deriveStreams(frames),
    lints: { ...base.lints, ...next.lints },
    apps: { ...base.apps, ...next.apps },
    views: [...base.views, ...next.views],
  };
}
