import type { Frame } from '../client/frames';
import { yieldToEventLoop } from '../client/yield-slices';
import type { Recording } from './schema';

/**
 * A recording's JSON text written a piece at a time, for autosave: a session with 100,000 tools
 * or a stream cut at its budget is tens of MiB, and `serializeRecording` (one JSON.stringify,
 * then one fetch copying the whole string) blocked the page for seconds. Here every element of
 * the top-level arrays (frames, streams, views) is serialized on its own, the work giving the
 * event loop back every few milliseconds, and the text goes into Blobs as it is made (about
 * 1 MiB each, kept by the browser outside the JS heap) so no full second copy of the session is
 * ever held as one string. The document is the same one `serializeRecording` writes (frames
 * compacted: a frame whose `raw` is exactly its body's JSON is stored once), key order aside.
 */

/** Work per slice before giving the event loop back (Chrome's long task is 50 ms). */
const SLICE_MS = 8;
/**
 * Text per Blob. Making a Blob of a string costs far more than making the string (Chrome:
 * ~100 ms for 1 MiB on a loaded 2-core machine, 3 ms for 64 KiB, and a Blob of Blobs is cheap),
 * so the text goes into small Blobs, a slice's check between each, and a long text (one 1 MiB
 * bridge message) is cut into several.
 */
const BLOB_CHARS = 1 << 16;

/** Where to cut `text` at most `at` characters in, not between the two halves of a surrogate pair. */
function cutAt(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const before = text.charCodeAt(at - 1);
  return before >= 0xd800 && before <= 0xdbff ? at - 1 : at;
}

/**
 * Whether a frame's `raw` is exactly its body's JSON, remembered per frame (frames never change
 * once recorded): the check costs a JSON.stringify of the body, which later saves then skip.
 */
const compactable = new WeakMap<Frame, boolean>();

function isCompactable(f: Frame): boolean {
  let known = compactable.get(f);
  if (known === undefined) {
    known = f.raw !== undefined && f.body !== undefined && f.raw === JSON.stringify(f.body);
    compactable.set(f, known);
  }
  return known;
}

/**
 * A frame's JSON, compacted like `compactFrame`: when `raw` is the body's exact JSON it is
 * written as the body itself (string concatenation, no second stringify of a large body).
 */
function frameJson(f: Frame): string {
  if (!isCompactable(f)) return JSON.stringify(f);
  const { raw, body: _body, ...rest } = f;
  const fields = JSON.stringify(rest);
  return fields === '{}' ? `{"body":${raw}}` : `{"body":${raw},${fields.slice(1)}`;
}

interface SliceOptions {
  /** Clock (ms), for slicing and measuring the work; default performance.now. */
  now?: () => number;
  /** How to give the event loop back; default {@link yieldToEventLoop}. */
  yieldNow?: () => Promise<void>;
  sliceMs?: number;
}

/** The serialized document, and the milliseconds of work it took (yields excluded). */
interface SlicedText {
  blob: Blob;
  busyMs: number;
}

/** Serialize a recording in slices that yield (see the file comment). */
export async function serializeRecordingInSlices(recording: Recording, options: SliceOptions = {}): Promise<SlicedText> {
  const now = options.now ?? (() => performance.now());
  const yieldNow = options.yieldNow ?? yieldToEventLoop;
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const blobs: Blob[] = [];
  const pending: string[] = [];
  let pendingChars = 0;
  let busyMs = 0;
  let sliceStart = now();

  const emit = (text: string) => {
    pending.push(text);
    pendingChars += text.length;
  };
  const sliceOver = async () => {
    const t = now();
    if (t - sliceStart < sliceMs) return;
    busyMs += t - sliceStart;
    await yieldNow();
    sliceStart = now();
  };
  // What was emitted goes into Blobs of about BLOB_CHARS, the slice checked after each one.
  const maybeYield = async () => {
    while (pendingChars >= BLOB_CHARS) {
      const parts: string[] = [];
      let size = 0;
      while (size < BLOB_CHARS && pending.length) {
        const text = pending[0]!; // pending.length > 0
        const take = cutAt(text, BLOB_CHARS - size);
        if (take >= text.length) {
          parts.push(text);
          pending.shift();
        } else {
          // take > 0 unless the cut falls inside a pair at its start: then the pair goes whole.
          const n = take || 2;
          parts.push(text.slice(0, n));
          pending[0] = text.slice(n);
        }
        size += Math.min(take || 2, text.length);
      }
      pendingChars -= size;
      blobs.push(new Blob(parts));
      await sliceOver();
    }
    await sliceOver();
  };

  emit('{');
  let first = true;
  for (const [key, value] of Object.entries(recording)) {
    if (value === undefined) continue;
    emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (!Array.isArray(value)) {
      emit(JSON.stringify(value));
      await maybeYield();
      continue;
    }
    emit('[');
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      emit(`${i ? ',' : ''}${key === 'frames' ? frameJson(item as Frame) : (JSON.stringify(item) ?? 'null')}`);
      await maybeYield();
    }
    emit(']');
  }
  emit('}');
  blobs.push(new Blob(pending));
  busyMs += now() - sliceStart;
  return { blob: new Blob(blobs, { type: 'application/json' }), busyMs };
}
