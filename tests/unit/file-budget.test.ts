import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The file-budget check (scripts/check-file-budget.mjs, a step of `npm run lint`) run as lint
 * runs it: a process whose exit code and `file: N lines` lines are what a developer sees.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const checker = path.join(repo, 'scripts/check-file-budget.mjs');

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [checker, ...args], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const fixtures: string[] = [];
const lines = (n: number) => 'export const x = 1;\n'.repeat(n);

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-budget-'));
  fixtures.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

afterAll(() => {
  for (const root of fixtures) fs.rmSync(root, { recursive: true, force: true });
});

describe('file budget check', () => {
  it('passes on the repository', () => {
    const r = run();
    expect(r.out).not.toMatch(/over the/);
    expect(r.code).toBe(0);
  });

  it('lists each file over its budget with its line count, and fails', () => {
    const root = tree({
      'lib/client/big.ts': lines(251),
      'lib/client/fits.ts': lines(250),
      'components/tools/Big.tsx': lines(201),
      'components/tools/Fits.tsx': lines(200),
      'app/api/thing/route.ts': lines(16),
      'docs/long.ts': lines(900),
    });
    const r = run('--root', root);
    expect(r.code).toBe(1);
    expect(r.out).toContain('lib/client/big.ts: 251 lines, over the lib file budget of 250');
    expect(r.out).toContain('components/tools/Big.tsx: 201 lines, over the component file budget of 200');
    expect(r.out).toContain('app/api/thing/route.ts: 16 lines, over the route file budget of 15');
    expect(r.out).not.toMatch(/fits|Fits|docs\/long/);
  });
});
