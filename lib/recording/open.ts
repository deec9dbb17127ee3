import { z } from 'zod';
import { FrameSchema } from '../client/frames';
import { describeConnection } from './connection';
import { importHar, type HarImportStats } from './har-import';
import { looksLikeHar } from './har-schema';
import { createRecorder } from './recorder';
import { openRecording, type Recording } from './schema';
import { parseJson } from '../shared/json';

/**
 * One entry point for whatever a user opens (file picker, drag and drop, the CLI): a Loupe
 * recording of any version, a HAR (Loupe's or a browser's), or a bare frame list as early
 * CLI builds wrote it (`{ kind: "mcp-loupe-frames", frames }`).
 */

export type OpenedFile =
  | { ok: true; recording: Recording; source: 'recording' | 'har' | 'frames'; migratedFrom?: number; har?: HarImportStats }
  | { ok: false; error: string };

const FrameListSchema = z.object({ kind: z.literal('mcp-loupe-frames'), frames: z.array(FrameSchema), target: z.string().optional() });

/** Open parsed JSON of any supported kind. */
function openDocument(doc: unknown): OpenedFile {
  if (looksLikeHar(doc)) {
    const har = importHar(doc);
    return har.ok ? { ok: true, recording: har.recording, source: 'har', har: har.stats } : har;
  }
  if (doc && typeof doc === 'object' && (doc as { kind?: unknown }).kind === 'mcp-loupe-frames') {
    const list = FrameListSchema.safeParse(doc);
    if (!list.success) return { ok: false, error: `Invalid frame list: ${list.error.issues[0]?.message ?? 'unknown problem'}` };
    const recorder = createRecorder({
      connection: describeConnection({ target: list.data.target ?? '' }),
      frames: list.data.frames,
      now: () => list.data.frames[0]?.at ?? Date.now(),
    });
    return { ok: true, recording: recorder.build(), source: 'frames' };
  }
  const opened = openRecording(doc);
  return opened.ok ? { ...opened, source: 'recording' } : opened;
}

/** Open file text (`name` only improves the error message). */
export function openRecordingText(text: string, name = 'the file'): OpenedFile {
  const doc = parseJson(text);
  if (!doc.ok) return { ok: false, error: `Cannot open ${name}: it is not JSON (${doc.message})` };
  const opened = openDocument(doc.value);
  return opened.ok ? opened : { ok: false, error: `Cannot open ${name}: ${opened.error}` };
}
