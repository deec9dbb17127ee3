import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../../lib/client/frames';

/** Frame sizes are UTF-8 bytes: ASCII counted without encoding, anything else as encoded. */
describe('utf8Bytes', () => {
  it('counts ASCII, two-, three- and four-byte characters and lone surrogates as UTF-8 would', () => {
    expect(utf8Bytes(undefined)).toBe(0);
    expect(utf8Bytes('')).toBe(0);
    expect(utf8Bytes('{"a":1}'.repeat(1000))).toBe(7000);
    expect(utf8Bytes('é')).toBe(2);
    expect(utf8Bytes('€')).toBe(3);
    expect(utf8Bytes('😀')).toBe(4);
    expect(utf8Bytes('\ud800')).toBe(3); // encoded as U+FFFD
    expect(utf8Bytes(`${'x'.repeat(10)}é`)).toBe(12);
  });
});
