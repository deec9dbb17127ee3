import fs from 'node:fs';
import path from 'node:path';
import { fsReason } from '../shared/fs-reasons';
import { makeDir } from '../store/sqlite/make-dir';

/**
 * Write a file atomically (a temp file renamed over the target). A failure names the target, not
 * the temp file, and leaves no temp file behind (`export --out /tmp` left `/tmp.<pid>.<ms>.tmp` in `/`).
 */
export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    makeDir(path.dirname(file));
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (error) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Its directory does not exist or is a file: no temp file was made there.
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw Object.assign(new Error(`cannot write ${file}: ${fsReason(error).replaceAll(tmp, file)}`), { code });
  }
}
