import fs from 'node:fs';
import path from 'node:path';
import { RECORDING_NAME } from '../recording/autosave';
import { redactRecording } from '../recording/redact';
import { parseRecording, serializeRecording } from '../recording/schema';
import type { RecordingFileSummary } from '../protocol/loupe-api';
import { makeDataDir } from '../store/sqlite/make-dir';
import { writeAtomic } from './write-atomic';

/**
 * Saved recordings (node only): `<dataDir>/recordings/<name>.loupe.json`. Every write is
 * validated as a recording first, redacted and written atomically, owner-only; names are
 * restricted so a name can never leave the directory. Used by the control API (the browser's
 * autosave) and the CLI.
 */

/** Largest recording accepted through the control API. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/** Outcome of saving a recording file. */
type RecordingSave = { ok: true; name: string; frames: number } | { ok: false; reason: 'invalid-name' | 'invalid'; message: string };

/** The saved recordings of one data directory. */
interface RecordingFiles {
  readonly dir: string;
  save(name: string, text: string): RecordingSave;
  list(): RecordingFileSummary[];
  /** The text of a saved recording; undefined when the name is invalid or missing. */
  read(name: string): string | undefined;
  /** Rename a saved recording; never over another one. */
  rename(name: string, to: string): { ok: true } | { ok: false; status: 400 | 404 | 409; message: string };
  /** Delete a saved recording; false when there is none by that name. */
  remove(name: string): boolean;
}

/** Whether `name` is an acceptable recording file name. */
function isRecordingName(name: unknown): name is string {
  return typeof name === 'string' && RECORDING_NAME.test(name) && !name.includes('..');
}

/** The recordings directory of a data directory. */
export function createRecordingFiles(dataDir: string): RecordingFiles {
  const dir = path.join(dataDir, 'recordings');
  return {
    dir,
    save(name, text) {
      if (!isRecordingName(name))
        return {
          ok: false,
          reason: 'invalid-name',
          message: `Invalid recording name "${name}": use letters, digits, dots, dashes and underscores, ending in .loupe.json`,
        };
      const opened = parseRecording(text);
      if (!opened.ok) return { ok: false, reason: 'invalid', message: opened.error };
      // The inspector's autosave sends the session as it happened: Authorization and API-key
      // headers, a token response of its OAuth flow, keys typed as tool arguments. The data
      // directory keeps what an export would publish (and `--record` writes), never those; it is
      // done here, not in the page, so a session of any size costs the page nothing more.
      makeDataDir(dataDir);
      writeAtomic(path.join(dir, name), `${serializeRecording(redactRecording(opened.recording).recording)}\n`);
      return { ok: true, name, frames: opened.recording.frames.length };
    },
    list() {
      let names: string[];
      try {
        names = fs.readdirSync(dir).filter(isRecordingName);
      } catch {
        return [];
      }
      return names
        .map((name) => {
          const st = fs.statSync(path.join(dir, name));
          return { name, bytes: st.size, modifiedAt: st.mtime.toISOString() };
        })
        .sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt));
    },
    rename(name, to) {
      if (!isRecordingName(to))
        return { ok: false, status: 400, message: `Invalid recording name "${to}": use letters, digits, dots, dashes and underscores, ending in .loupe.json` };
      if (!isRecordingName(name) || !fs.existsSync(path.join(dir, name))) return { ok: false, status: 404, message: `No recording named ${name}` };
      if (fs.existsSync(path.join(dir, to))) return { ok: false, status: 409, message: `A recording named ${to} exists already` };
      fs.renameSync(path.join(dir, name), path.join(dir, to));
      return { ok: true };
    },
    remove(name) {
      if (!isRecordingName(name)) return false;
      try {
        fs.unlinkSync(path.join(dir, name));
        return true;
      } catch {
        return false;
      }
    },
    read(name) {
      if (!isRecordingName(name)) return undefined;
      try {
        return fs.readFileSync(path.join(dir, name), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}
