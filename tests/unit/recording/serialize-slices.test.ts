import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { createRecorder } from '../../../lib/recording/recorder';
import { parseRecording, serializeRecording } from '../../../lib/recording/schema';
import { serializeRecordingInSlices } from '../../../lib/recording/serialize-slices';

/**
 * Autosave's serializer: the same document `serializeRecording` writes (frames compacted),
 * made a frame at a time with the event loop given back whenever a slice used its time.
 */

const page = (seq: number): Frame => {
  const body = {
    jsonrpc: '2.0',
    id: seq,
    result: { tools: Array.from({ length: 50 }, (_, i) => ({ name: `t${seq}_${i}`, inputSchema: { type: 'object' } })) },
  };
  const raw = JSON.stringify(body);
  return { seq, connectionId: 'c1', at: 1000 + seq, direction: 'in', kind: 'message', exchangeId: `c1:${seq}`, bytes: raw.length, body, raw };
};

describe('serializeRecordingInSlices', () => {
  it('writes the document serializeRecording writes, yielding between slices', async () => {
    const recorder = createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1/mcp' }), lint: false });
    for (let i = 0; i < 40; i++) recorder.sink(page(i));
    // A frame whose raw text is not its body's JSON keeps both.
    recorder.sink({ ...page(40), raw: '{ "spaced": true }', body: { spaced: true } });
    const recording = recorder.build();
    let clock = 0;
    let yields = 0;
    const { blob, busyMs } = await serializeRecordingInSlices(recording, {
      // Every reading of the clock is 3 ms later: a slice of 8 ms holds a few frames.
      now: () => (clock += 3),
      yieldNow: async () => {
        yields++;
      },
    });
    const text = await blob.text();
    expect(JSON.parse(text)).toEqual(JSON.parse(serializeRecording(recording)));
    const opened = parseRecording(text);
    const reference = parseRecording(serializeRecording(recording));
    expect(opened.ok && reference.ok && opened.recording.frames).toEqual(reference.ok && reference.recording.frames);
    expect(opened.ok && opened.recording.frames).toHaveLength(41);
    expect(yields).toBeGreaterThan(10);
    expect(busyMs).toBeGreaterThan(0);
    expect(blob.type).toBe('application/json');
  });
});
