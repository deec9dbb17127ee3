import { compactFrame } from '../client/frames';
import type { Recording } from './schema';

/**
 * A recording's JSON text (exactly what `serializeRecording` writes) built as a Blob a slice of
 * frames at a time, yielding to the page between slices: a session holding a stream cut at its
 * budget (16 MiB of events) took over a second to serialize and encode in one go on the main
 * thread, and the whole text would sit in the JS heap for as long as its upload took.
 */

/** Busy time of one slice before the page gets its turn (ms). */
const SLICE_MS = 8;

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The recording's text as a Blob, and the main-thread time spent building it (ms). */
export async function recordingBlobInSlices(recording: Recording, now: () => number = () => performance.now()): Promise<{ blob: Blob; busyMs: number }> {
  // Everything but the frames at once, with a token where the frames go: a string value no
  // server can forge, since JSON escapes the NUL it starts with and the rest is random.
  const token = `\u0000loupe-frames-${Math.random().toString(36).slice(2)}`;
  const shell = JSON.stringify({ ...recording, frames: token });
  const marker = JSON.stringify(token);
  const at = shell.indexOf(marker);
  const parts: BlobPart[] = [shell.slice(0, at), '['];
  let chunk: string[] = [];
  let busy = 0;
  let started = now();
  const { frames } = recording;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i];
    if (frame) chunk.push(`${i ? ',' : ''}${JSON.stringify(compactFrame(frame))}`);
    if (now() - started >= SLICE_MS) {
      // Encoded into the Blob now: the slice's strings do not outlive it.
      parts.push(new Blob(chunk));
      chunk = [];
      busy += now() - started;
      await yieldToPage();
      started = now();
    }
  }
  parts.push(new Blob(chunk), ']', shell.slice(at + marker.length));
  const blob = new Blob(parts, { type: 'application/json' });
  return { blob, busyMs: busy + now() - started };
}
