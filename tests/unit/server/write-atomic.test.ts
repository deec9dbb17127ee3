import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAtomic } from '../../../lib/server/write-atomic';

/**
 * writeAtomic backs every file Loupe writes for a person (export --out, --record, --report, saved
 * recordings): a failure names the file asked for, never the temp file, and leaves nothing behind.
 */
describe('writeAtomic', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-write-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the file, making its directories', () => {
    const file = join(dir, 'a', 'b', 'out.json');
    writeAtomic(file, '{}\n');
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['out.json']);
  });

  it('refuses a directory as the target, saying so, and leaves no temp file beside it', () => {
    const target = join(dir, 'taken');
    mkdirSync(target);
    expect(() => writeAtomic(target, 'x')).toThrow(`cannot write ${target}: it is a directory`);
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('names the target when a part of its path is a file', () => {
    writeFileSync(join(dir, 'plain'), '');
    const target = join(dir, 'plain', 'out.json');
    expect(() => writeAtomic(target, 'x')).toThrow(`cannot write ${target}: a part of its path is a file, not a directory`);
    expect(readdirSync(dir)).toEqual(['plain']);
  });
});
