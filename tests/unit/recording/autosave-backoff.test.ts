import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { startAutosave } from '../../../lib/recording/autosave';
import { describeConnection } from '../../../lib/recording/connection';
import { createRecorder } from '../../../lib/recording/recorder';

/** Saving a huge session blocks the page while it is serialized: the next save waits twenty times as long as the last took. */

const frame = (seq: number): Frame => ({ seq, connectionId: 'c1', at: seq, direction: 'in', kind: 'message', exchangeId: 'c1:1', bytes: 2, raw: '{}' });

describe('autosave spacing', () => {
  it('waits the quiet period after a cheap save, and twenty times the cost after an expensive one', async () => {
    const recorder = createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1/mcp' }), lint: false });
    const delays: number[] = [];
    const due: (() => void)[] = [];
    let clock = 0;
    let cost = 10;
    const autosave = startAutosave(recorder, {
      write: async () => undefined,
      delayMs: 2000,
      // Each reading of the clock moves it on by the cost of the save it measures.
      now: () => (clock += cost),
      setTimer: (fn, ms) => {
        delays.push(ms);
        due.push(fn);
        return due.length;
      },
      clearTimer: () => undefined,
    });
    recorder.sink(frame(0));
    due.shift()!(); // a save costing 10 ms
    recorder.sink(frame(1));
    cost = 1500;
    due.shift()!(); // a save costing 1.5 s
    recorder.sink(frame(2));
    autosave.stop();
    expect(delays).toEqual([2000, 2000, 30_000]);
  });
});
