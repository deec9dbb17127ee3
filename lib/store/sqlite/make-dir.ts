import fs from 'node:fs';
import path from 'node:path';

/**
 * `mkdir -p` that always ends. Node's own `{ recursive: true }` loops forever on some paths under
 * /proc (`/proc/1/nope` keeps answering ENOENT to the parent it just "made"), which left
 * `mcp-loupe mock --data-dir /proc/1/nope` silent forever. Here each missing level is made once,
 * from the deepest one that exists, and the first failure is thrown as is (ENOENT, ENOTDIR,
 * EACCES), naming the path.
 */
export function makeDir(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing) {
    try {
      fs.mkdirSync(level, { mode });
    } catch (e) {
      // Made meanwhile by another process: fine. Anything else: the caller says what failed.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** What a data directory Loupe creates ignores: everything in it. */
const GITIGNORE = "# Loupe's data: recordings, the task store and its secret. Never committed.\n*\n";

/**
 * Make Loupe's data directory (0700) and, when this call creates it, a `.gitignore` of `*`
 * inside: the default is `.loupe` in the working directory, often a repository, where `git add .`
 * would otherwise commit recordings, the store and `secret`. A directory that exists is left as
 * it is, and so is a `.gitignore` someone else wrote first.
 */
export function makeDataDir(dir: string): void {
  const existed = fs.existsSync(dir);
  makeDir(dir);
  if (existed) return;
  try {
    fs.writeFileSync(path.join(dir, '.gitignore'), GITIGNORE, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}
