import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { ConnectionMeta } from '../recording/schema';
import type { TapFrame as Frame } from '../recording/tap-api';
import { serializeRecording, type Recording } from '../recording/schema';
import { createRecorder } from '../recording/recorder';
import { redactRecording } from '../recording/redact';
import { createTapObserver, type TapObserver } from '../recording/tap-frames';
import { buildSessionReport, reportToJUnit } from '../recording/tap-report';
import { writeAtomic } from './write-atomic';

/**
 * One tapped session: the observer the relay reports to, the frames as events (`frame`: what a
 * live view of the tap would subscribe to), the recording kept in memory and, with a file,
 * written redacted every `flushMs` while frames arrive and once more when the tap ends, so a
 * killed tap loses at most the last interval. At the end the lint report is written too.
 */

interface TapSessionOptions {
  connection: ConnectionMeta;
  /** `--record FILE`. */
  recordFile?: string;
  /** `--report FILE`: `.xml` writes JUnit XML, anything else JSON. */
  reportFile?: string;
  /** Keep secrets in the recording (default: redacted, like every export). */
  keepSecrets?: boolean;
  flushMs?: number;
  now?: () => number;
}

export interface TapSession {
  readonly observer: TapObserver;
  /** Emits `frame` (a Frame) for every frame the tap observes. */
  readonly events: EventEmitter;
  /** The session so far, unredacted. */
  recording(): Recording;
  /** The frames so far (what a live view that attaches late is sent first). */
  frames(): readonly Frame[];
  /** Write the recording now (if there is a file and anything changed). */
  flush(): void;
  /** Stop flushing and write the recording and the report one last time. */
  finish(): { recordFile?: string; reportFile?: string; frames: number };
}

/** Start a tapped session's bookkeeping. */
export function createTapSession(options: TapSessionOptions): TapSession {
  // Interim flushes skip the lints (they grow with the session); the final file carries them.
  const recorder = createRecorder({ connection: options.connection, lint: false, ...(options.now ? { now: options.now } : {}) });
  const linted = (): Recording => {
    const built = recorder.build();
    return { ...built, lints: createRecorder({ connection: built.connection, frames: built.frames }).build().lints };
  };
  const events = new EventEmitter();
  const observer = createTapObserver({
    sink: (frame) => {
      recorder.sink(frame);
      events.emit('frame', frame);
    },
    ...(options.now ? { now: options.now } : {}),
  });
  let dirty = true;
  recorder.onChange(() => {
    dirty = true;
  });
  const file = options.recordFile ? path.resolve(options.recordFile) : undefined;
  const forDisk = (r: Recording) => (options.keepSecrets ? r : redactRecording(r).recording);

  // A flush blocks the relay while it serializes the whole session, so it takes at most about a
  // twentieth of the time: the next one waits twenty times as long as the last one took.
  let notBefore = 0;
  function flush(): void {
    if (!file || !dirty || performance.now() < notBefore) return;
    dirty = false;
    const started = performance.now();
    writeAtomic(file, `${serializeRecording(forDisk(recorder.build()))}\n`);
    notBefore = performance.now() + 20 * (performance.now() - started);
  }
  const timer = file ? setInterval(flush, options.flushMs ?? 1000) : undefined;
  timer?.unref();

  return {
    observer,
    events,
    recording: linted,
    frames: () => recorder.frames(),
    flush,
    finish() {
      if (timer) clearInterval(timer);
      const built = linted();
      if (file) {
        writeAtomic(file, `${serializeRecording(forDisk(built))}\n`);
        dirty = false;
      }
      const reportFile = options.reportFile ? path.resolve(options.reportFile) : undefined;
      if (reportFile) {
        // The report names exchanges and rules, never header values; its target is already stripped.
        const report = buildSessionReport(forDisk(built));
        writeAtomic(reportFile, reportFile.endsWith('.xml') ? reportToJUnit(report) : `${JSON.stringify(report, null, 2)}\n`);
      }
      return { ...(file ? { recordFile: file } : {}), ...(reportFile ? { reportFile } : {}), frames: built.frames.length };
    },
  };
}
