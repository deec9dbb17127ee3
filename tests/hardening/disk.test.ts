import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../lib/client/control-client';
import { startAppServer } from '../../lib/server/app-server';
import { createMockHost } from '../../lib/server/mock-host';
import { CAPS, callTool, rpc } from '../helpers/rpc';
import { runCli, startCliMock, type Started } from '../helpers/processes';
import { httpTarget } from '../integration/http-target';
import { raw } from './raw-http';

/**
 * Disk and database faults: files created owner-only; a truncated, missing or damaged store is
 * refused with a message naming the file and the fix instead of starting empty; a secret cut
 * short by a failed first start is replaced; a task timer that meets a full disk (a real 64 KiB
 * tmpfs) fails its step, the process lives, and the task moves on once there is room.
 */

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-disk-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;
/** Open the data directory like a start does, then close it. */
const start = (dataDir: string) => createMockHost({ dataDir, store: 'sqlite' }).close();

describe('files', () => {
  it('creates the data directory 0700 and loupe.sqlite3 and secret 0600', () => {
    const dataDir = path.join(tmp(), 'data');
    start(dataDir);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'loupe.sqlite3'))).toBe(0o600);
    expect(mode(path.join(dataDir, 'secret'))).toBe(0o600);
    expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('makes a world-readable store of an older Loupe owner-only', () => {
    const dataDir = tmp();
    start(dataDir);
    fs.chmodSync(path.join(dataDir, 'loupe.sqlite3'), 0o644);
    start(dataDir);
    expect(mode(path.join(dataDir, 'loupe.sqlite3'))).toBe(0o600);
  });
});

describe('the store at start', () => {
  it('refuses a store truncated to 0 bytes, naming the file and the fix', () => {
    const dataDir = tmp();
    start(dataDir);
    const file = path.join(dataDir, 'loupe.sqlite3');
    fs.truncateSync(file, 0);
    expect(() => start(dataDir)).toThrow(`Failed to open the store: ${file} is 0 bytes long (truncated), but ${path.join(dataDir, 'secret')} exists`);
    expect(() => start(dataDir)).toThrow(/Fix: restore .* from a backup, or start over on purpose: move both/);
    expect(fs.statSync(file).size).toBe(0);
  });

  it('refuses a store that is missing where the secret says one was', () => {
    const dataDir = tmp();
    start(dataDir);
    fs.rmSync(path.join(dataDir, 'loupe.sqlite3'));
    expect(() => start(dataDir)).toThrow(/loupe\.sqlite3 is missing, but .*secret exists/);
  });

  it('refuses a damaged store (quick_check)', () => {
    const dataDir = tmp();
    start(dataDir);
    const file = path.join(dataDir, 'loupe.sqlite3');
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, 0);
    fs.closeSync(fd);
    expect(() => start(dataDir)).toThrow(new RegExp(`Failed to open the store: ${file.replace(/[.]/g, '\\.')} is damaged \\(SQLite quick_check: `));
  });

  it('replaces an empty secret left by a first start that ran out of space, and starts', () => {
    const dataDir = tmp();
    fs.writeFileSync(path.join(dataDir, 'secret'), '');
    start(dataDir);
    expect(fs.readFileSync(path.join(dataDir, 'secret'), 'utf8').length).toBeGreaterThanOrEqual(32);
    start(dataDir);
  });
});

describe('the store at the start of `mcp-loupe mock` (the CLI opens its stores itself)', () => {
  /** Run the mock on `dataDir` once with a task in its store, stop it, then do `damage` to the store file. */
  async function usedThen(damage: (file: string) => void): Promise<{ dataDir: string; file: string }> {
    const dataDir = tmp();
    const mock = await startCliMock(['demo', '--data-dir', dataDir]);
    try {
      const mcp = httpTarget(mock.url);
      const created = await callTool(mcp, 'generate_report', { size: 'small' }, mcp.opts({ caps: CAPS.formAndTasks }));
      expect(created.body.result.status).toBe('working');
    } finally {
      await mock.stop('SIGINT');
    }
    const file = path.join(dataDir, 'loupe.sqlite3');
    damage(file);
    return { dataDir, file };
  }

  it.each([
    ['truncated to 0 bytes', (file: string) => fs.truncateSync(file, 0), 'is 0 bytes long (truncated)'],
    ['deleted', (file: string) => fs.rmSync(file), 'is missing'],
  ])(
    'refuses a store %s instead of starting empty, naming the file and the fix',
    async (_what, damage, said) => {
      const { dataDir, file } = await usedThen(damage);
      const run = await runCli(['mock', 'demo', '--port', '0', '--data-dir', dataDir], { timeoutMs: 15_000 });
      expect(run.stdout).not.toContain('READY');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Failed to open the store: ${file} ${said}, but ${path.join(dataDir, 'secret')} exists`);
      expect(run.stderr).toMatch(/Fix: restore .* from a backup, or start over on purpose: move both/);
    },
    30_000,
  );
});

/** Mount a tmpfs of `size` at a new directory; false where mounting is not allowed (not root). */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
/** Whether this machine lets the test mount a tmpfs (probed once, unmounted at once). */
const canMount = (() => {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-disk-probe-'));
  const ok = mountTmpfs(probe, '64k');
  if (ok) execFileSync('umount', [probe]);
  fs.rmdirSync(probe);
  return ok;
})();

/** Fill the disk under `dir` until it refuses another byte. */
function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(4096, 1));
  } catch (e) {
    expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

describe.skipIf(!canMount)('a full disk at the first start (tmpfs)', () => {
  it('a first start on a full disk fails clearly and leaves no empty secret; the next start works', () => {
    const small = tmp();
    expect(mountTmpfs(small, '256k')).toBe(true);
    try {
      const dataDir = path.join(small, 'data');
      fs.mkdirSync(dataDir, { mode: 0o700 });
      const filler = fill(small);
      expect(() => start(dataDir)).toThrow(/Failed to (open store at|write) .*(full|ENOSPC|no space)/i);
      const secret = path.join(dataDir, 'secret');
      expect(fs.existsSync(secret) ? fs.readFileSync(secret, 'utf8').length : 'none').not.toBe(0);
      fs.rmSync(filler);
      start(dataDir);
      start(dataDir);
      expect(fs.readFileSync(secret, 'utf8').length).toBeGreaterThanOrEqual(32);
    } finally {
      execFileSync('umount', [small]);
    }
  });
});

describe.skipIf(!canMount)('a full disk under a running mock (tmpfs)', () => {
  let mock: Started;
  let disk: string;
  beforeAll(async () => {
    disk = tmp();
    expect(mountTmpfs(disk, '256k')).toBe(true);
    mock = await startCliMock(['demo', '--data-dir', path.join(disk, 'data')]);
  });
  afterAll(async () => {
    await mock?.stop();
    if (disk) execFileSync('umount', [disk]);
  });

  it('fails a task timer step, keeps the mock alive, and the task moves on once there is room', async () => {
    const mcp = httpTarget(mock.url);
    const created = await callTool(mcp, 'generate_report', { size: 'small' }, mcp.opts({ caps: CAPS.formAndTasks }));
    expect(created.body.error).toBeUndefined();
    const taskId = created.body.result.taskId as string;
    expect(created.body.result.status).toBe('working');
    const filler = fill(disk);
    // The first step is due after 1.5 s: let its timer meet the full disk.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(mock.child.exitCode).toBeNull();
    expect((await raw(mock.port, { path: '/healthz', headers: { Host: `127.0.0.1:${mock.port}` } })).status).toBe(200);
    fs.rmSync(filler);
    let status: unknown;
    for (let i = 0; i < 100 && status !== 'input_required'; i++) {
      const got = await rpc(mcp, 'tasks/get', { taskId }, mcp.opts({ caps: CAPS.formAndTasks }));
      status = got.body.result?.status;
      if (status !== 'input_required') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('input_required');
  }, 30_000);
});

describe('a write the data directory refuses, through the control API', () => {
  it("reaches the page as its reason in the API's own shape (not a JSON-RPC error read as 'HTTP 500'), naming the file, no temp file", async () => {
    const dataDir = tmp();
    const app = await startAppServer({ port: 0, dataDir, pages: (_req, res) => res.end('') });
    try {
      // Where the scenarios and recordings directories belong, files: every save fails with ENOTDIR.
      fs.writeFileSync(path.join(dataDir, 'scenarios'), '');
      fs.writeFileSync(path.join(dataDir, 'recordings'), '');
      const control = createControlClient({ baseUrl: app.url, token: app.token });
      const saved = await control.save('mine', 'id: mine\nname: Mine\nserver: { name: mine, version: "1" }\n');
      expect(saved).toMatchObject({ ok: false, status: 500 });
      expect(saved.ok ? '' : saved.error).toBe(`cannot write ${path.join(dataDir, 'scenarios', 'mine.yaml')}: a part of its path is a file, not a directory`);
      const copied = await control.duplicate('demo', 'demo-copy');
      expect(copied.ok ? '' : copied.error).toMatch(/^cannot write .*demo-copy\.yaml: a part of its path is a file, not a directory$/);
      const recording = fs.readFileSync(path.join(__dirname, '../fixtures/recordings/v3.json'), 'utf8');
      const put = await raw(app.port, {
        method: 'PUT',
        path: '/api/recordings/x.loupe.json',
        headers: { Host: `127.0.0.1:${app.port}`, Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
        body: recording,
      });
      expect(put.status).toBe(500);
      expect(JSON.parse(put.text)).toEqual({
        error: `cannot write ${path.join(dataDir, 'recordings', 'x.loupe.json')}: a part of its path is a file, not a directory`,
      });
      expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
