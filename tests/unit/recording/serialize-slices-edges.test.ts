import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { createRecorder } from '../../../lib/recording/recorder';
import { parseRecording, serializeRecording } from '../../../lib/recording/schema';
import { serializeRecordingInSlices } from '../../../lib/recording/serialize-slices';

/** A big session is saved in slices: the document must be the one the one-go writer writes, whatever the server names its fields. */

const progress = (seq: number, pad: number): Frame => {
  const body = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: seq, message: 'x'.repeat(pad) } };
  return {
    seq,
    connectionId: 'c1',
    at: 1000 + seq,
    direction: 'in',
    kind: 'sse-frame',
    exchangeId: 'c1:1',
    streamId: 's1',
    body,
    raw: JSON.stringify(body),
    bytes: pad + 90,
  };
};

describe('recording in slices (edge cases)', () => {
  it('writes serializeRecording’s document, over many slices, even when the server info holds a "frames" key', async () => {
    // A server that names things "frames" cannot move where the frames go.
    const recorder = createRecorder({
      connection: describeConnection({ target: 'http://127.0.0.1/mcp', serverInfo: { name: 'frames', version: '1', frames: [] } as never }),
      lint: false,
    });
    for (let i = 0; i < 60; i++) recorder.sink(progress(i, 2_000));
    // A frame whose raw text differs from its body's JSON keeps its raw (compactFrame).
    recorder.sink({ ...progress(60, 10), raw: '{ "jsonrpc": "2.0" }' });
    const recording = recorder.build();
    let clock = 0;
    // Each reading of the clock moves it 5 ms: a slice ends every other frame.
    const { blob, busyMs } = await serializeRecordingInSlices(recording, { now: () => (clock += 5), yieldNow: async () => {} });
    const text = await blob.text();
    // The same document (key order aside: a compacted frame writes its body first).
    expect(JSON.parse(text)).toEqual(JSON.parse(serializeRecording(recording)));
    expect(busyMs).toBeGreaterThan(0);
    const opened = parseRecording(text);
    expect(opened.ok ? opened.recording.frames.length : opened.error).toBe(61);
  });

  it('cuts a 1 MiB message into small Blobs with slices between them, never between the halves of a surrogate pair', async () => {
    const recorder = createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1/mcp' }), lint: false });
    // Emoji (surrogate pairs) all through, at odd offsets, so cuts land on pairs.
    const frame = progress(0, 0);
    const text = `a${'😀é'.repeat(350_000)}`;
    const body = { ...frame.body, params: { progressToken: 't', progress: 0, message: text } };
    recorder.sink({ ...frame, body, raw: JSON.stringify(body) });
    const recording = recorder.build();
    let clock = 0;
    let yields = 0;
    const { blob } = await serializeRecordingInSlices(recording, {
      now: () => (clock += 5),
      yieldNow: async () => {
        yields++;
      },
    });
    const written = await blob.text();
    // The same document (key order aside), the text whole: no pair split into two replacement characters.
    expect(isDeepStrictEqual(JSON.parse(written), JSON.parse(serializeRecording(recording)))).toBe(true);
    expect(written.includes('\uFFFD')).toBe(false);
    expect(written.includes(text)).toBe(true);
    // More than a megabyte of text went into Blobs a slice at a time (64 KiB each), not in one go.
    expect(yields).toBeGreaterThan(10);
  });

  it('writes an empty session', async () => {
    const recording = createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1/mcp' }) }).build();
    expect(await (await serializeRecordingInSlices(recording, { yieldNow: async () => {} })).blob.text()).toBe(serializeRecording(recording));
  });
});
