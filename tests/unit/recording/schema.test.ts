import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/processes';
import { frameText } from '../../../lib/client/frames';
import { toHar } from '../../../lib/recording/har-export';
import {
  migrations,
  openRecording,
  parseRecording,
  RECORDING_VERSION,
  RecordingSchema,
  serializeRecording,
  type Recording,
} from '../../../lib/recording/schema';
import { openRecordingText } from '../../../lib/recording/open';
import { groupExchanges } from '../../../lib/recording/exchanges';

/** The recording format: every released version opens, migrations run in order, bad input is a value. */

const FIXTURES = path.join(ROOT, 'tests/fixtures/recordings');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('recording format versions', () => {
  it('has a fixture for every released version, and each one opens as the current version', () => {
    const versions = Array.from({ length: RECORDING_VERSION }, (_, i) => i + 1);
    for (const v of versions) {
      const opened = parseRecording(fixture(`v${v}.json`));
      expect(opened.ok, opened.ok ? '' : opened.error).toBe(true);
      if (!opened.ok) continue;
      expect(opened.recording.version).toBe(RECORDING_VERSION);
      expect(opened.migratedFrom).toBe(v === RECORDING_VERSION ? undefined : v);
      expect(RecordingSchema.safeParse(opened.recording).success).toBe(true);
      expect(opened.recording.frames.length).toBeGreaterThan(10);
    }
  });

  it('chains migrations from every old version up to the current one', () => {
    let v = 1;
    for (const m of migrations) {
      expect(m.from).toBe(v);
      expect(m.to).toBe(v + 1);
      v = m.to;
    }
    expect(v).toBe(RECORDING_VERSION);
  });

  it('writes version 3, because its frames may be fault marks and auth steps that a version 2 reader cannot read', () => {
    expect(RECORDING_VERSION).toBe(3);
    const v3 = parseRecording(fixture('v3.json'));
    if (!v3.ok) throw new Error(v3.error);
    const fault = v3.recording.frames.find((f) => f.kind === 'fault');
    expect(fault?.fault).toEqual({ kind: 'http-status', rule: 'http-503', request: 'tools/call echo' });
    const auth = v3.recording.frames.filter((f) => f.lane === 'auth');
    expect(auth.map((f) => f.auth?.step)).toEqual(['resource-metadata', 'resource-metadata']);
    // Written again, it says 3 and reads back the same.
    const text = serializeRecording(v3.recording);
    expect(JSON.parse(text)).toMatchObject({ version: 3 });
    const back = parseRecording(text);
    if (!back.ok) throw new Error(back.error);
    expect(back.recording.version).toBe(3);
    const marks = (r: Recording) => r.frames.filter((f) => f.kind === 'fault' || f.lane === 'auth');
    expect(marks(back.recording)).toEqual(marks(v3.recording));
  });

  it('opens a version 2 file that already held fault and auth frames (written before the bump) without losing them', () => {
    const doc = JSON.parse(fixture('v3.json'));
    doc.version = 2;
    const opened = openRecording(doc);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.migratedFrom).toBe(2);
    expect(opened.recording.version).toBe(3);
    expect(opened.recording.frames.filter((f) => f.kind === 'fault' || f.lane === 'auth')).toHaveLength(3);
    doc.frames[1].bytes = 'many';
    expect(openRecording(doc)).toMatchObject({ ok: false, error: expect.stringContaining('Invalid version 2 recording: frames.1.bytes') });
  });

  it('refuses a newer format with the version it found, the one it understands, and what to do', () => {
    const doc = JSON.parse(fixture('v3.json'));
    doc.version = 4;
    // A frame of a kind this build has never heard of: the version speaks first, not a field error.
    doc.frames.push({ ...doc.frames[0], seq: 999, kind: 'teleport' });
    const opened = openRecording(doc);
    expect(opened).toEqual({ ok: false, error: 'recording format 4 is newer than this Loupe understands (3); update mcp-loupe' });
    expect(openRecordingText(JSON.stringify(doc), 'new.loupe.json')).toEqual({
      ok: false,
      error: 'Cannot open new.loupe.json: recording format 4 is newer than this Loupe understands (3); update mcp-loupe',
    });
  });

  it('upgrades version 1 field by field: kinds, timings, bytes, streams, app HTML by digest, stripped target', () => {
    const v1 = JSON.parse(fixture('v1.json'));
    const opened = openRecording(v1);
    if (!opened.ok) throw new Error(opened.error);
    const r = opened.recording;
    expect(r.frames).toHaveLength(v1.frames.length);
    expect(r.frames[0]).toMatchObject({ seq: v1.frames[0].seq, at: v1.frames[0].time, kind: 'http-request', direction: 'out', method: 'server/discover' });
    expect(r.frames[0].bytes).toBe(Buffer.byteLength(v1.frames[0].raw));
    const sse = r.frames.filter((f) => f.kind === 'sse-frame');
    expect(sse.length).toBeGreaterThan(0);
    expect(r.streams.map((s) => s.method)).toContain('tools/call');
    expect(r.streams[0]).toMatchObject({ frames: 3, closeReason: 'complete' });
    const [digest] = Object.keys(r.apps);
    expect(r.apps[digest]).toContain('recorded app');
    expect(r.views).toEqual([{ uri: 'ui://test/view.html', digest, at: v1.recordedAt }]);
    expect(r.connection.target).toBe('http://127.0.0.1:3001/mcp');
    expect(JSON.stringify(r)).not.toContain('v1-fixture-launch-token');
    expect(groupExchanges(r.frames).map((x) => x.method)).toContain('tools/call');
  });

  it('refuses what it cannot read, saying why, without throwing', () => {
    expect(parseRecording('{not json')).toMatchObject({ ok: false, error: expect.stringContaining('Not JSON') });
    expect(openRecording({ hello: 1 })).toMatchObject({ ok: false, error: 'Not a Loupe recording: no "version" field' });
    // A version that is there but not a format number is named as it came, not called missing.
    expect(openRecording({ version: 1.5, frames: [] })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/"version" must be a whole number .*, not 1\.5$/),
    });
    expect(openRecording({ version: '3', frames: [] })).toMatchObject({ ok: false, error: expect.stringMatching(/, not "3"$/) });
    expect(openRecording({ version: 99 })).toMatchObject({
      ok: false,
      error: `recording format 99 is newer than this Loupe understands (${RECORDING_VERSION}); update mcp-loupe`,
    });
    const broken = JSON.parse(fixture('v1.json'));
    broken.frames[2].dir = 'sideways';
    const bad = openRecording(broken);
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining('Invalid version 1 recording: frames.2.dir') });
    for (const garbage of [
      { version: 1, recordedAt: 1, target: 'x', frames: [null] },
      { version: 1, recordedAt: 1, target: 'x', frames: [], html: 'text' },
      { version: 1, recordedAt: 'soon', target: 'x', frames: [] },
    ]) {
      expect(openRecording(garbage)).toMatchObject({ ok: false, error: expect.stringContaining('Invalid version 1 recording') });
    }
    const v2 = JSON.parse(fixture('v2.json'));
    v2.frames[0].seq = -1;
    expect(openRecording(v2)).toMatchObject({ ok: false, error: expect.stringContaining('frames.0.seq') });
  });

  it('opens every kind of file a user may drop: recordings, HARs and bare frame lists', () => {
    const v2 = JSON.parse(fixture('v2.json'));
    expect(openRecordingText(fixture('v2.json'))).toMatchObject({ ok: true, source: 'recording' });
    expect(openRecordingText(JSON.stringify({ kind: 'mcp-loupe-frames', frames: v2.frames }))).toMatchObject({ ok: true, source: 'frames' });
    expect(openRecordingText(fs.readFileSync(path.join(ROOT, 'tests/fixtures/har/chrome-devtools-mcp.har'), 'utf8'))).toMatchObject({
      ok: true,
      source: 'har',
    });
    expect(openRecordingText('[]', 'x.json')).toMatchObject({ ok: false, error: expect.stringContaining('Cannot open x.json') });
  });
});

describe('how recordings are written', () => {
  const v2 = () => parseRecording(fixture('v2.json'));

  it('writes a message once when raw is its exact JSON, and keeps raw text that differs', () => {
    const opened = v2();
    if (!opened.ok) throw new Error(opened.error);
    const rec = opened.recording;
    const body = { jsonrpc: '2.0', id: 99, result: { content: [] } };
    const spaced = { ...rec.frames[0], seq: 10_000, body, raw: '{ "jsonrpc": "2.0", "id": 99, "result": { "content": [] } }' };
    const notJson = {
      ...rec.frames[0],
      seq: 10_001,
      kind: 'sse-frame' as const,
      body: undefined,
      raw: 'data that is not JSON',
      errorText: 'not JSON: Unexpected token',
    };
    const withOdd: Recording = { ...rec, frames: [...rec.frames, spaced, notJson] };
    const text = serializeRecording(withOdd);
    expect(text.length).toBeLessThan(JSON.stringify(withOdd).length * 0.85);
    const back = parseRecording(text);
    if (!back.ok) throw new Error(back.error);
    // Every frame reads back with the same payload text, body and byte count.
    expect(back.recording.frames.map(frameText)).toEqual(withOdd.frames.map(frameText));
    expect(back.recording.frames.map((f) => [f.body, f.bytes])).toEqual(withOdd.frames.map((f) => [f.body, f.bytes]));
    expect(back.recording.frames.at(-2)?.raw).toBe(spaced.raw);
    expect(back.recording.frames.at(-1)?.raw).toBe('data that is not JSON');
    expect(back.recording.frames.filter((f) => f.raw === undefined && f.body !== undefined).length).toBeGreaterThan(10);
    // What is built from the payload text (HAR, replay answers) does not change.
    expect(toHar(back.recording)).toEqual(toHar(withOdd));
  });
});
