import fs from 'node:fs';
import path from 'node:path';
import { writeAtomic } from '../server/write-atomic';
import { makeDataDir } from '../store/sqlite/make-dir';
import type { Frame } from '../client/frames';
import { autosaveName } from '../recording/autosave';
import { describeConnection, type ConnectionInfo } from '../recording/connection';
import { parseRecording, serializeRecording, type Recording } from '../recording/schema';
import { appendRecording, createRecorder } from '../recording/recorder';
import { redactAuthLane, redactRecording } from '../recording/redact';
import { UsageError } from './errors';

/**
 * `--record [FILE]` of the client commands: the session's frames become a recording. With a
 * FILE that already holds a recording, this command's session is appended to it, so a script
 * of several commands records one session (and `mcp-loupe replay` serves all of it). Without a
 * FILE the recording is autosaved under `<data dir>/recordings/<timestamp>.loupe.json`.
 */

/** Where a bare `--record` saves: `$LOUPE_DATA_DIR` or `.loupe` in the working directory. */
function autosavePath(now: Date = new Date()): string {
  return path.join(autosaveDataDir(), 'recordings', autosaveName(now));
}

/** The data directory a bare `--record` saves under. */
const autosaveDataDir = () => path.resolve(process.env.LOUPE_DATA_DIR ?? '.loupe');

/** Where the recording went (and how many frames it holds now), or why it was not written. */
type RecordOutcome = { ok: true; file: string; frames: number; total: number; appended: boolean } | { ok: false; message: string };

/** What a --record that names a directory is told (reading it would fail with a bare EISDIR). */
function directoryMessage(target: string): string {
  return `--record ${target} names a directory: give a file path like ${path.join(target, 'session.json')}`;
}

/** Refuse a --record FILE that holds something other than a recording, before anything is sent. */
export function checkRecordTarget(target: string): void {
  const file = path.resolve(target);
  if (!fs.existsSync(file)) return;
  if (fs.statSync(file).isDirectory()) throw new UsageError(directoryMessage(target));
  const text = fs.readFileSync(file, 'utf8');
  const existing = text.trim() ? parseRecording(text) : undefined;
  if (existing && !existing.ok)
    throw new UsageError(`--record ${target}: not overwriting it, it is not a Loupe recording (${existing.error}). Choose another file.`);
}

/** Build the recording of a session and write (or append) it. */
/** `redact` false (`--no-redact`): the file keeps secrets as sent. */
export function writeSessionRecording(target: string | true, frames: readonly Frame[], info: ConnectionInfo, redact = true): RecordOutcome {
  const file = target === true ? autosavePath() : path.resolve(target);
  // An authorization flow's codes, verifiers and tokens never reach the disk, export or not.
  const recording = createRecorder({ connection: describeConnection(info), frames: redactAuthLane(frames) }).build();
  let out: Recording = recording;
  let appended = false;
  if (fs.existsSync(file)) {
    if (fs.statSync(file).isDirectory()) return { ok: false, message: directoryMessage(target === true ? file : target) };
    const text = fs.readFileSync(file, 'utf8');
    const existing = text.trim() ? parseRecording(text) : undefined;
    if (existing && !existing.ok)
      return { ok: false, message: `Not overwriting ${file}: it is not a Loupe recording (${existing.error}). Choose another --record file.` };
    if (existing?.ok) {
      out = appendRecording(existing.recording, recording);
      appended = true;
    }
  }
  if (target === true) makeDataDir(autosaveDataDir());
  // Redacted as the inspector's autosaves and `tap --record` are: header credentials, tokens and keys
  // in arguments never reach the disk. The part appended to is redacted already and keeps its
  // pseudonyms; this session's secrets get new ones (lib/recording/secrets.ts skips the taken).
  writeAtomic(file, `${serializeRecording(redact ? redactRecording(out).recording : out)}\n`);
  return { ok: true, file, frames: frames.length, total: out.frames.length, appended };
}
