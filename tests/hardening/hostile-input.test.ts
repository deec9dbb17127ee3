import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes';

/** Hostile scenario files get clear errors from `mcp-loupe validate`, quickly, without a crash. */

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-hostile-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function validate(name: string, text: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const r = await run(process.execPath, [path.join(ROOT, 'bin/mcp-loupe.mjs'), 'validate', file], { timeout: 30_000 }).then(
    (o) => ({ code: 0, stdout: o.stdout, stderr: o.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
  return r;
}

describe('hostile scenario files', () => {
  it('refuses a YAML alias bomb', async () => {
    const bomb = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    const r = await validate('bomb.yaml', bomb);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bomb\.yaml:\d+/);
  });

  it('refuses deeply nested JSON with an error, not a stack overflow', async () => {
    const r = await validate('deep.json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/RangeError|Maximum call stack/);
    expect(r.stderr).toMatch(/deep\.json/);
  });

  it('names the line and field of a wrong type in a large file', async () => {
    const tools = Array.from(
      { length: 2000 },
      (_, i) => `  - name: t${i}\n    description: tool ${i}\n    inputSchema: { type: object }\n    result: { content: [] }`,
    ).join('\n');
    const r = await validate(
      'big.yaml',
      `id: big\nserver: { name: big, version: "1" }\ntools:\n${tools}\n  - name: broken\n    description: 5\n    inputSchema: { type: object }\n    task: { steps: "not a list" }\n`,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/big\.yaml:\d+:\d+ tools\[2000\]\.task\.steps/);
  });

  it('refuses binary garbage with a parse error', async () => {
    const r = await validate('garbage.yaml', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)).toString('latin1'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/garbage\.yaml/);
  });
});
