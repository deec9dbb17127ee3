import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/processes';
import { compactFrame, frameText } from '../../../lib/client/frames';
import { parseRecording, type Recording } from '../../../lib/recording/schema';
import { fromBase64Url, MAX_SHARE_FRAGMENT_BYTES, openShareFragment, shareFragment, shareLink, toBase64Url } from '../../../lib/recording/share';
import { redactRecording } from '../../../lib/recording/redact';

/** Share links: the recording compressed into `#rec=...`, under a stated size, or "export a file". */

const v2 = (): Recording => {
  const opened = parseRecording(fs.readFileSync(path.join(ROOT, 'tests/fixtures/recordings/v2.json'), 'utf8'));
  if (!opened.ok) throw new Error(opened.error);
  return opened.recording;
};

describe('share links', () => {
  it('round-trips a recording through the URL fragment, compressed', () => {
    const rec = v2();
    const out = shareLink(rec, 'http://127.0.0.1:3000/recording');
    if (!out.ok) throw new Error(out.message);
    expect(out.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/recording#rec=[A-Za-z0-9_-]+$/);
    expect(out.bytes).toBeLessThan(JSON.stringify(rec).length / 3);
    const back = openShareFragment(new URL(out.url!).hash);
    if (!back.ok) throw new Error(back.error);
    // The link carries the recording as files store it: each message once (raw only where it differs).
    expect(back.recording).toEqual({ ...rec, frames: rec.frames.map(compactFrame) });
    expect(back.recording.frames.map(frameText)).toEqual(rec.frames.map(frameText));
  });

  it('refuses to share a recording that was not redacted, unless the user chose to', () => {
    const raw = { ...v2(), redaction: undefined };
    expect(shareFragment(raw)).toMatchObject({ ok: false, reason: 'not-redacted' });
    expect(shareFragment(raw, { allowUnredacted: true }).ok).toBe(true);
    expect(shareFragment(redactRecording(raw).recording).ok).toBe(true);
  });

  it('says "too large, export a file" above the stated limit', () => {
    const rec = v2();
    // Incompressible padding: random bytes as base64 text in a frame's raw field.
    const noise = randomBytes(1_300_000).toString('base64');
    const big = { ...rec, frames: [...rec.frames, { ...rec.frames[0], seq: 99_999, raw: noise, bytes: noise.length }] };
    const out = shareFragment(big);
    expect(out).toMatchObject({ ok: false, reason: 'too-large', limit: MAX_SHARE_FRAGMENT_BYTES });
    if (out.ok || out.reason !== 'too-large') return;
    expect(out.bytes).toBeGreaterThan(MAX_SHARE_FRAGMENT_BYTES);
    expect(out.message).toContain('export a file');
    expect(out.message).toContain('1.5 MB');
  });

  it('reports a damaged or foreign link instead of throwing', () => {
    expect(openShareFragment('#other=1')).toMatchObject({ ok: false, error: expect.stringContaining('no #rec=') });
    // A link cut right after `#rec=` has the fragment, empty: saying it has none would mislead.
    for (const cut of ['#rec=', 'rec=', '#rec'])
      expect(openShareFragment(cut)).toMatchObject({ ok: false, error: expect.stringContaining('#rec= fragment is empty') });
    expect(openShareFragment('#rec=***')).toMatchObject({ ok: false, error: expect.stringContaining('base64url') });
    expect(openShareFragment(`#rec=${toBase64Url(new Uint8Array([1, 2, 3, 4, 5]))}`)).toMatchObject({ ok: false });
    expect(openShareFragment(`#rec=${toBase64Url(deflateSync(new TextEncoder().encode('{"version":1}')))}`)).toMatchObject({
      ok: false,
      error: expect.stringContaining('Invalid version 1'),
    });
  });

  it('refuses a decompression bomb instead of inflating it', () => {
    const bomb = deflateSync(new Uint8Array(80 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(MAX_SHARE_FRAGMENT_BYTES);
    expect(openShareFragment(`#rec=${toBase64Url(bomb)}`)).toMatchObject({ ok: false, error: expect.stringContaining('larger than 64 MB') });
  });

  it('encodes base64url exactly like Node does', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 255, 1000]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect(Buffer.from(fromBase64Url(toBase64Url(bytes))!)).toEqual(Buffer.from(bytes));
    }
  });
});
