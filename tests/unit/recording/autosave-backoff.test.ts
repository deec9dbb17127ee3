import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { startAutosave } from '../../../lib/recording/autosave';
import { describeConnection } from '../../../lib/recording/connection';
import { createRecorder } from '../../../lib/recording/recorder';
import { parseRecording } from '../../../lib/recording/schema';

/**
 * Autosave of a huge session: the save is serialized in slices (never one long task), the next
 * save waits twenty times as long as the last one's work took, and while frames keep arriving
 * (a flood) the save waits for them to pause, but never more than a minute.
 */

const frame = (seq: number, body: unknown = { n: seq }): Frame => ({
  seq,
  connectionId: 'c1',
  at: seq,
  direction: 'in',
  kind: 'message',
  exchangeId: 'c1:1',
  bytes: 2,
  body,
});

/** An autosave on a fake clock and timers: `fire()` runs the next timer; `writes` holds what was saved. */
function setup() {
  const recorder = createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1/mcp' }) });
  const t = { clock: 0 };
  const delays: number[] = [];
  const due: (() => void)[] = [];
  const writes: string[] = [];
  const autosave = startAutosave(recorder, {
    write: async (_name, body) => {
      writes.push(typeof body === 'string' ? body : await body.text());
    },
    delayMs: 2000,
    now: () => t.clock,
    setTimer: (fn, ms) => {
      delays.push(ms);
      due.push(fn);
      return due.length;
    },
    clearTimer: () => undefined,
  });
  /** Run the timer that is due, then let the save finish. */
  const fire = async () => {
    due.shift()?.();
    await new Promise((r) => setTimeout(r, 10));
  };
  return { recorder, t, delays, due, writes, autosave, fire };
}

describe('autosave', () => {
  it('waits the quiet period after a cheap save, and twenty times the work after an expensive one', async () => {
    const { recorder, t, delays, writes, autosave, fire } = setup();
    recorder.sink(frame(0));
    t.clock += 2000;
    await fire(); // no work on the fake clock
    // A frame whose body takes 1.5 s of the clock to serialize.
    recorder.sink(
      frame(1, {
        toJSON() {
          t.clock += 1500;
          return { slow: true };
        },
      }),
    );
    t.clock += 2000;
    await fire();
    recorder.sink(frame(2));
    autosave.stop();
    expect(delays).toEqual([2000, 2000, 30_000]);
    expect(writes).toHaveLength(2);
    // What was written is the session's recording, without lints (the viewer lints on opening).
    const opened = parseRecording(writes[1]!);
    expect(opened.ok && opened.recording.frames.map((f) => f.body)).toEqual([{ n: 0 }, { slow: true }]);
    expect(opened.ok && opened.recording.lints).toEqual({});
  });

  it('puts a save off while frames keep arriving, saves once they pause, and never waits more than a minute', async () => {
    const { recorder, t, delays, due, writes, autosave, fire } = setup();
    // A flood: a frame every 100 ms for 5 s; each due save finds the frames still coming.
    for (let i = 0; i < 50; i++) {
      recorder.sink(frame(i));
      t.clock += 100;
      if (t.clock >= 2000) due.shift()?.();
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(writes).toHaveLength(0);
    expect(delays.slice(1).every((d) => d === 1000)).toBe(true);
    // Once they pause for half the quiet period, the save goes through, all 50 frames in it.
    t.clock += 1100;
    await fire();
    expect(writes).toHaveLength(1);
    const first = parseRecording(writes[0]!);
    expect(first.ok && first.recording.frames).toHaveLength(50);

    // A flood that never pauses is still saved after a minute. (Timers run as soon as they are
    // set: each due save looks at the clock, not at when it was meant to run.)
    let saved = false;
    for (let i = 50; !saved && i < 2000; i++) {
      recorder.sink(frame(i));
      t.clock += 50;
      const armed = delays.length;
      due.shift()?.();
      saved = delays.length === armed; // a save arms no timer
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(writes).toHaveLength(2);
    const second = parseRecording(writes[1]!);
    const frames = second.ok ? second.recording.frames.length : 0;
    // 60 s of a frame every 50 ms after the first save.
    expect(frames).toBeGreaterThan(50 + 1150);
    expect(frames).toBeLessThan(50 + 1250);
    autosave.stop();
  });
});
