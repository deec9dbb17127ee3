import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Throwaway source trees for the repository's own checkers (boundaries, unused exports, file
 * budgets): each test writes the few files it is about, runs the checker on them as `npm run lint`
 * does (a process whose exit code and output are what a developer sees), and the trees go when
 * the file's tests end.
 */
export function fixtureTrees(prefix: string): (files: Record<string, string>) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const root of made) fs.rmSync(root, { recursive: true, force: true });
  });
  return (files) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(root);
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    return root;
  };
}

/** Run a checker script with `args`: its exit code and its stdout and stderr together. */
export function runChecker(checker: string, ...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [checker, ...args], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}
