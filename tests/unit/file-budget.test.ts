import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureTrees, runChecker } from '../helpers/fixture-tree';

/**
 * The file-budget check (scripts/check-file-budget.mjs, a step of `npm run lint`) run as lint
 * runs it: a process whose exit code and `file: N lines` lines are what a developer sees.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const checker = path.join(repo, 'scripts/check-file-budget.mjs');

const run = (...args: string[]) => runChecker(checker, ...args);

const lines = (n: number) => 'export const x = 1;\n'.repeat(n);

const tree = fixtureTrees('loupe-budget-');

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
