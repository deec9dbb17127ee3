import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, sha256Hex } from '../../../lib/shared/fingerprint';

describe('task fingerprint', () => {
  it('is SHA-256 of the UTF-8 text, the same as node:crypto, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('shows 8 hex characters that are not a prefix of the id', () => {
    const id = 'Qm9vbGVhbnNBcmVGdW5fX2lkXzE2MGJpdHNvZnJhbmRvbQ';
    expect(fingerprint(id)).toMatch(/^[0-9a-f]{8}$/);
    expect(id.startsWith(fingerprint(id))).toBe(false);
    expect(fingerprint(id)).toBe(createHash('sha256').update(id).digest('hex').slice(0, 8));
  });
});
