import type { Recorder } from './recorder';
import { serializeRecording } from './schema';
import { recordingBlobInSlices } from './recording-blob';
import { asRecord } from '../shared/records';
import { ReplayStartedSchema } from '../protocol/loupe-api';
import { loupeFetch } from '../client/api-key';

/**
 * Autosave of the current session: after each change (debounced) the recording is written
 * under a name fixed when the session started, `<timestamp>.loupe.json`. The writer is
 * injected: the browser writes through the control API (`PUT /api/recordings/<name>`), the
 * node side writes the file under `.loupe/recordings/` directly. The browser's other call to the
 * recordings API lives here too: asking the running Loupe to replay a recording as a mock.
 */

/** Recording file names: a timestamp or any safe name, always ending in `.loupe.json`. */
export const RECORDING_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.loupe\.json$/;

/** `2026-07-28T10-15-30-123Z.loupe.json` for a date (colons and dots are not portable in file names). */
export function autosaveName(date: Date = new Date()): string {
  return `${date.toISOString().replace(/[:.]/g, '-')}.loupe.json`;
}

/** Writes one recording document (its JSON text, or that text in a Blob) under a name. */
type RecordingWriter = (name: string, body: string | Blob) => Promise<void>;

/** How and where {@link startAutosave} saves. */
interface AutosaveOptions {
  write: RecordingWriter;
  /** File name (default: the start time). */
  name?: string;
  /** Quiet period before a save (ms, default 2000). */
  delayMs?: number;
  /** Clock for measuring a save's cost (ms; default performance.now). */
  now?: () => number;
  /** Told about failed saves (the session goes on). */
  onError?: (error: Error) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** A running autosave. */
interface Autosave {
  readonly name: string;
  /** Save now (e.g. before the page unloads). */
  flush(): Promise<void>;
  stop(): void;
}

/**
 * A save builds and serializes the whole session on the main thread, which for a huge session
 * (100,000 tools, a stream cut at its budget) takes a second or more: the next save then waits
 * this many times as long as the last one took, so saving never holds more than ~5% of the page.
 */
const SAVE_COST_FACTOR = 20;
/** Sessions carrying more payload than this are serialized in slices (recording-blob.ts). */
const SLICED_FROM = 1024 * 1024;

/** Save the recorder's session whenever it changes, debounced (and spaced out by what saving costs). */
export function startAutosave(recorder: Recorder, options: AutosaveOptions): Autosave {
  const name = options.name ?? autosaveName();
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const delay = options.delayMs ?? 2_000;
  const now = options.now ?? (() => performance.now());
  let nextDelay = delay;
  let timer: unknown;
  let saving: Promise<void> = Promise.resolve();
  let dirty = false;

  const save = (): Promise<void> => {
    timer = undefined;
    if (!dirty) return saving;
    dirty = false;
    const started = now();
    const recording = recorder.build();
    const failed = (e: unknown) => options.onError?.(e instanceof Error ? e : new Error(String(e)));
    if (recording.frames.reduce((n, f) => n + f.bytes, 0) < SLICED_FROM) {
      // Into a Blob at once: while the save waits and uploads, its bytes sit outside the JS heap.
      const body = new Blob([serializeRecording(recording)], { type: 'application/json' });
      nextDelay = Math.max(delay, (now() - started) * SAVE_COST_FACTOR);
      saving = saving.then(() => options.write(name, body)).catch(failed);
      return saving;
    }
    // A big session (a stream cut at its budget is 16 MiB of events) is built in slices.
    const builtMs = now() - started;
    saving = saving
      .then(async () => {
        const { blob, busyMs } = await recordingBlobInSlices(recording);
        nextDelay = Math.max(delay, (builtMs + busyMs) * SAVE_COST_FACTOR);
        await options.write(name, blob);
      })
      .catch(failed);
    return saving;
  };
  const off = recorder.onChange(() => {
    dirty = true;
    if (timer === undefined) timer = setTimer(() => void save(), nextDelay);
  });
  return {
    name,
    flush() {
      if (timer !== undefined) clearTimer(timer);
      return save();
    },
    stop() {
      off();
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
    },
  };
}

/** A writer that saves through Loupe's control API (the page's cookie or an explicit token). */
export function recordingsApiWriter(options: { base?: string; token?: string; fetch?: typeof fetch } = {}): RecordingWriter {
  const doFetch = (input: string, init: RequestInit) => loupeFetch(input, init, options.fetch);
  return async (name, body) => {
    const res = await doFetch(`${options.base ?? ''}/api/recordings/${encodeURIComponent(name)}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
      body,
    });
    if (!res.ok) throw new Error(`Failed to save recording ${name}: HTTP ${res.status} ${await res.text().catch(() => '')}`);
  };
}

/** Where a recording replayed by the running Loupe is served, or why it is not. */
type ServerReplay = { ok: true; id: string; path: string; exchanges: number } | { ok: false; status: number; error: string };

/** Ask the running Loupe to serve a recording as a mock (`POST /api/recordings/replay`, token-gated). */
export async function startServerReplay(
  recordingText: string,
  options: { base?: string; token?: string; fetch?: typeof fetch; loose?: boolean } = {},
): Promise<ServerReplay> {
  const doFetch = (input: string, init: RequestInit) => loupeFetch(input, init, options.fetch);
  try {
    const res = await doFetch(`${options.base ?? ''}/api/recordings/replay${options.loose ? '?loose=1' : ''}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
      body: recordingText,
    });
    const body: unknown = await res.json().catch(() => ({}));
    const started = ReplayStartedSchema.safeParse(body);
    if (!res.ok || !started.success) {
      const error = asRecord(body)?.error;
      return { ok: false, status: res.status, error: typeof error === 'string' ? error : `HTTP ${res.status}` };
    }
    return { ok: true, ...started.data };
  } catch (e) {
    return { ok: false, status: 0, error: `Cannot reach Loupe: ${(e as Error).message}` };
  }
}
