import { describe, expect, it } from 'vitest';
import { fsReason, isDiskFull } from '../../../lib/shared/fs-reasons';

const failure = (code: string) => Object.assign(new Error(`${code}: raw message`), { code });

describe('file-system failures in words', () => {
  it('says why in words for the codes it knows, else the error message as it came', () => {
    expect(fsReason(failure('ENOSPC'))).toBe('the disk is full');
    expect(fsReason(failure('EDQUOT'))).toBe('the disk quota is used up');
    expect(fsReason(failure('EISDIR'))).toBe('it is a directory');
    expect(fsReason(failure('EWEIRD'))).toBe('EWEIRD: raw message');
    // A code named like an Object method is no reason of ours.
    expect(fsReason(failure('toString'))).toBe('toString: raw message');
  });

  it('knows a full disk however it was reported: the file system, a quota or SQLite', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL']) expect(isDiskFull(failure(code))).toBe(true);
    for (const code of ['EACCES', 'EROFS', 'SQLITE_BUSY']) expect(isDiskFull(failure(code))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
    expect(isDiskFull('ENOSPC')).toBe(false);
  });
});
