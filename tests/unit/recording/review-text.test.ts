import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { createRecorder } from '../../../lib/recording/recorder';
import { redactRecording } from '../../../lib/recording/redact';
import { nothingToReplaceText } from '../../../lib/recording/review-text';

/**
 * The review's words when redaction replaced nothing: why (nothing recognised, or a recording
 * redacted before), and never that the file is clean, since a secret with no known name or
 * shape is not found.
 */

const frame = (text: string): Frame => ({
  seq: 0,
  connectionId: 'c1',
  at: 1_000,
  direction: 'in',
  kind: 'http-response',
  exchangeId: 'c1:1',
  rpcId: 1,
  method: 'tools/call',
  bytes: 10,
  body: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } },
});
const recordingOf = (text: string) => createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1:3/mcp' }), frames: [frame(text)] }).build();

describe('the review when nothing is replaced', () => {
  it('says nothing was recognised, not that the file is clean', () => {
    const text = nothingToReplaceText(recordingOf('a bare random string: q8Zr2LmVx0'));
    expect(text).toMatch(/^Nothing to replace: no Authorization value, cookie, token/);
    expect(text).toContain('That does not make it clean');
    expect(text).not.toMatch(/no secrets/i);
  });

  it('says a recording redacted before has nothing left that redaction recognises', () => {
    const once = redactRecording(recordingOf('token: LEAKTOKEN7890ab')).recording;
    expect(redactRecording(once).items).toEqual([]);
    expect(nothingToReplaceText(once)).toMatch(/^Nothing to replace: this recording was redacted before \(\d{4}-.*\), so nothing it recognises is left\./);
    const { redaction: _, ...unmarked } = once;
    expect(nothingToReplaceText(unmarked)).toMatch(/^Nothing to replace: this recording holds pseudonyms from an earlier redaction/);
  });
});
