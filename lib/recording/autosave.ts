import type { Recorder } from './recorder';
import { serializeRecordingInSlices } from './serialize-slices';
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

/** Writes one recording document (JSON text; autosave's is a Blob, built in pieces) under a name. */
type RecordingWriter = (name: string, body: string | Blob) => Promise<void>;

/** How and where {@link startAutosave} saves. */
interface AutosaveOptions {
  write: RecordingWriter;
  /** File name (default: the start time). */
  name?: string;
  /** Quiet period before a save (ms, default 2000). */
  delayMs?: number;
  /** Clock for the quiet period and a save's cost (ms; default performance.now). */
  now?: () => number;
  /** How the serializer gives the event loop back between slices (tests). */
  yieldNow?: () => Promise<void>;
  /** Told about failed saves (the session goes on). */
  onError?: (error: Error) => void;
  /** Told what each save cost: the milliseconds of main-thread work, and the bytes written. */
  onSaved?: (cost: { busyMs: number; bytes: number }) => void;
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
 * A save serializes the whole session in slices that yield (serialize-slices.ts), so it is never
 * one long task; its work still adds up for a huge session (100,000 tools: a second or more of
 * slices), so the next save waits this many times as long as the last one worked: saving never
 * takes more than ~5% of the page's time.
 */
const SAVE_COST_FACTOR = 20;
/**
 * While frames keep arriving (a server listing 100,000 tools page after page, a flooding stream)
 * a save is put off until they have paused for half the quiet period, so a flood is saved
 * once when it settles rather than again and again while it grows; but never put off longer
 * than this, so a session that never pauses is still saved.
 */
const MAX_DEFER_MS = 60_000;

/** Save the recorder's session whenever it changes, debounced (and spaced out by what saving costs). */
export function startAutosave(recorder: Recorder, options: AutosaveOptions): Autosave {
  const name = options.name ?? autosaveName();
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const delay = options.delayMs ?? 2_000;
  const settle = delay / 2;
  const now = options.now ?? (() => performance.now());
  let nextDelay = delay;
  let timer: unknown;
  let saving: Promise<void> = Promise.resolve();
  let dirty = false;
  let dirtySince = 0;
  let lastChange = 0;

  const save = (): Promise<void> => {
    timer = undefined;
    if (!dirty) return saving;
    dirty = false;
    // Built without lints (a full re-lint of the session each time): they are derived, and the
    // recording viewer lints a recording that carries none when it opens it.
    const recording = recorder.build({ lints: false });
    saving = saving
      .then(async () => {
        const { blob, busyMs } = await serializeRecordingInSlices(recording, { now, ...(options.yieldNow ? { yieldNow: options.yieldNow } : {}) });
        nextDelay = Math.max(delay, busyMs * SAVE_COST_FACTOR);
        await options.write(name, blob);
        options.onSaved?.({ busyMs, bytes: blob.size });
      })
      .catch((e: unknown) => options.onError?.(e instanceof Error ? e : new Error(String(e))));
    return saving;
  };
  const due = () => {
    const t = now();
    if (dirty && t - lastChange < settle && t - dirtySince < MAX_DEFER_MS) {
      timer = setTimer(due, Math.max(settle, 1));
      return;
    }
    void save();
  };
  const off = recorder.onChange(() => {
    lastChange = now();
    if (!dirty) dirtySince = lastChange;
    dirty = true;
    if (timer === undefined) timer = setTimer(due, nextDelay);
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
