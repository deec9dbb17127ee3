import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCliMock } from '../helpers/processes';

/**
 * The data directory (default `.loupe` in the working directory, often a repository) holds
 * recordings, the task store and `secret`. When Loupe creates it, it writes a `.gitignore` of
 * `*` there, so `git add .` in the project commits none of it; a directory that exists, and its
 * own `.gitignore`, are left as they are.
 */

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-gitignore-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });

describe('the data directory Loupe creates', () => {
  it('is ignored by git: `git add .` in the project stages nothing of it', async () => {
    const repo = tmp();
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'README.md'), 'a project\n');
    const dataDir = path.join(repo, '.loupe');
    const mock = await startCliMock(['demo', '--data-dir', dataDir]);
    try {
      expect(fs.existsSync(path.join(dataDir, 'secret'))).toBe(true);
      expect(fs.readFileSync(path.join(dataDir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
      git(repo, 'add', '.');
      expect(git(repo, 'diff', '--cached', '--name-only').trim().split('\n')).toEqual(['README.md']);
    } finally {
      await mock.stop();
    }
  });

  it('gets one from a bare `call --record` too, the first command that makes it', async () => {
    const mockDir = tmp();
    const mock = await startCliMock(['demo', '--data-dir', path.join(mockDir, 'mock')]);
    try {
      const dataDir = path.join(tmp(), 'fresh', '.loupe');
      const run = await runCli(['call', 'search_notes', '--url', `${mock.url}/demo`, '--record'], { env: { LOUPE_DATA_DIR: dataDir } });
      expect(run.code, run.stderr).toBe(0);
      expect(fs.readdirSync(path.join(dataDir, 'recordings'))).toHaveLength(1);
      expect(fs.readFileSync(path.join(dataDir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    } finally {
      await mock.stop();
    }
  });

  it('leaves a directory that exists, and its own .gitignore, as they are', async () => {
    const existing = tmp();
    const mine = path.join(tmp(), 'mine');
    fs.mkdirSync(mine);
    fs.writeFileSync(path.join(mine, '.gitignore'), 'loupe.sqlite3*\n');
    const a = await startCliMock(['demo', '--data-dir', existing]);
    const b = await startCliMock(['demo', '--data-dir', mine]);
    await Promise.all([a.stop(), b.stop()]);
    expect(fs.existsSync(path.join(existing, 'secret'))).toBe(true);
    expect(fs.existsSync(path.join(existing, '.gitignore'))).toBe(false);
    expect(fs.readFileSync(path.join(mine, '.gitignore'), 'utf8')).toBe('loupe.sqlite3*\n');
  });
});
