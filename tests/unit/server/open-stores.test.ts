import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAppServer } from '../../../lib/server/app-server';
import { createMockHost } from '../../../lib/server/mock-host';
import { type OpenedStores, openMockStores, openStores, parseMockStoreKind, parseStoreKind } from '../../../lib/server/open-stores';
import type { SqliteDriverName } from '../../../lib/store/sqlite/drivers';
import { CAPS, callTool } from '../../helpers/rpc';
import { makeTask } from '../store/store-contract';

/**
 * How a process picks its stores: SQLite through better-sqlite3, else node:sqlite, else memory
 * with one warning; `--store` chooses explicitly. Drivers are made to fail here by replacing the
 * loader; tests/integration/sqlite-fallback.test.ts breaks a real install instead.
 */

const broken = new Set<SqliteDriverName>();
/** Drivers whose package is not installed at all (npm left the optional dependency out). */
const absent = new Set<SqliteDriverName>();
vi.mock('../../../lib/store/sqlite/drivers', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lib/store/sqlite/drivers')>();
  return {
    ...actual,
    loadSqliteDriver: (name: SqliteDriverName) => {
      if (absent.has(name)) return { ok: false, reason: `${name} is not installed in this test`, missing: true };
      if (broken.has(name)) return { ok: false, reason: `${name} is broken in this test` };
      // Node 20 has no node:sqlite; better-sqlite3 stands in for it under that name.
      const real = actual.loadSqliteDriver('better-sqlite3');
      return real.ok ? { ok: true, driver: { ...real.driver, name } } : real;
    },
  };
});

let dir: string;
const opened: OpenedStores[] = [];
const warnings: string[] = [];
const warn = (message: string) => warnings.push(message);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-open-stores-'));
});
afterEach(() => {
  for (const o of opened.splice(0)) o.stores.close();
  rmSync(dir, { recursive: true, force: true });
  broken.clear();
  absent.clear();
  warnings.length = 0;
});

function open(kind: Parameters<typeof openStores>[0]['kind'], dataDir = join(dir, 'data')): OpenedStores {
  const o = openStores({ kind, dataDir, warn });
  opened.push(o);
  return o;
}

describe('openStores', () => {
  it('auto uses better-sqlite3 when it loads, silently', async () => {
    expect(open('auto').backend).toBe('better-sqlite3');
    expect(existsSync(join(dir, 'data', 'loupe.sqlite3'))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('auto falls back to node:sqlite, durably and silently, when better-sqlite3 does not load', async () => {
    broken.add('better-sqlite3');
    const first = open('auto');
    expect(first.backend).toBe('node:sqlite');
    const task = makeTask();
    await first.stores.tasks.create(task);
    await first.stores.close();
    expect(await open('auto').stores.tasks.get(task.taskId)).toEqual(task);
    expect(warnings).toEqual([]);
  });

  it('auto falls back to memory when neither driver loads, and warns once with the reasons and the fix', async () => {
    broken.add('better-sqlite3').add('node:sqlite');
    const { stores, backend } = open('auto');
    expect(backend).toBe('memory');
    await stores.tasks.create(makeTask());
    expect(await stores.tasks.count()).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^SQLite is unavailable, so tasks.*will not survive a restart\./);
    expect(warnings[0]).toMatch(/better-sqlite3 is broken in this test; node:sqlite is broken in this test\./);
    expect(warnings[0]).toMatch(/npm rebuild better-sqlite3/);
    expect(warnings[0]).toMatch(/--store memory/);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('when better-sqlite3 is not installed at all, the fix is to install it, not to rebuild it', async () => {
    absent.add('better-sqlite3');
    broken.add('node:sqlite');
    expect(open('auto').backend).toBe('memory');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/better-sqlite3 is not installed in this test/);
    expect(warnings[0]).toMatch(/Fix: run `npm install better-sqlite3` where mcp-loupe is installed/);
    expect(warnings[0]).not.toMatch(/npm rebuild/);
    expect(() => open('sqlite')).toThrow(/npm install better-sqlite3/);
  });

  it('sqlite fails with the reasons and the fix when neither driver loads, without warning', async () => {
    broken.add('better-sqlite3').add('node:sqlite');
    expect(() => open('sqlite')).toThrow(/^Failed to open the SQLite store at .*loupe\.sqlite3: better-sqlite3 is broken.*\n.*npm rebuild better-sqlite3/);
    expect(warnings).toEqual([]);
  });

  it('memory never touches the disk, even when SQLite would work', async () => {
    expect(open('memory').backend).toBe('memory');
    expect(existsSync(join(dir, 'data'))).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('throws a file error instead of falling back to memory', async () => {
    writeFileSync(join(dir, 'file'), '');
    expect(() => open('auto', join(dir, 'file', 'data'))).toThrow(/^Failed to open store at .*ENOTDIR/);
    expect(warnings).toEqual([]);
  });
});

describe('parseStoreKind', () => {
  it('reads memory, sqlite and auto, treats unset as auto, and names the source of a bad value', async () => {
    expect(parseStoreKind('memory', '--store')).toBe('memory');
    expect(parseStoreKind('sqlite', '--store')).toBe('sqlite');
    expect(parseStoreKind(undefined, 'LOUPE_STORE')).toBe('auto');
    expect(parseStoreKind('', 'LOUPE_STORE')).toBe('auto');
    expect(() => parseStoreKind('disk', 'LOUPE_STORE')).toThrow('LOUPE_STORE must be memory or sqlite (or auto, the default), got "disk"');
  });
});

describe("the mock command's --store", () => {
  it('takes a postgres:// or postgresql:// URL besides the kinds, and says so when the value is neither', () => {
    expect(parseMockStoreKind('postgres://u@db.internal/loupe', '--store')).toEqual({ postgres: 'postgres://u@db.internal/loupe' });
    expect(parseMockStoreKind('postgresql://db/loupe', '--store')).toEqual({ postgres: 'postgresql://db/loupe' });
    expect(parseMockStoreKind('memory', '--store')).toBe('memory');
    expect(() => parseMockStoreKind('mysql://db', '--store')).toThrow(
      '--store must be memory, sqlite or a postgres:// URL (or auto, the default), got "mysql://db"',
    );
  });

  it('fails to open an unreachable database in one sentence naming it, password hidden', async () => {
    await expect(openMockStores({ kind: { postgres: 'postgres://me:hunter2@127.0.0.1:1/loupe' }, dataDir: tmpdir(), warn: () => {} })).rejects.toThrow(
      /^Failed to open the PostgreSQL store at postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/loupe: /,
    );
  });
});

describe('mock host stores', () => {
  it('with store memory serves tasks and writes nothing, not even its secret', async () => {
    const dataDir = join(dir, 'data');
    const host = createMockHost({ dataDir, store: 'memory' });
    try {
      expect(host.storeBackend).toBe('memory');
      const reply = await callTool(host.engine('demo')!, 'generate_report', { size: 'small' }, { caps: CAPS.formAndTasks });
      expect(reply.body.result.taskId).toEqual(expect.any(String));
      expect(await host.stores.tasks.count()).toBe(1);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      host.close();
    }
  });

  it('sends the one fallback warning to the warn option', async () => {
    broken.add('better-sqlite3').add('node:sqlite');
    const host = createMockHost({ dataDir: join(dir, 'data'), warn });
    host.engine('demo');
    host.engine('conformance');
    host.close();
    expect(host.storeBackend).toBe('memory');
    expect(warnings).toHaveLength(1);
  });
});

describe('app server stores (LOUPE_STORE)', () => {
  it('with memory serves a task and never creates the data directory', async () => {
    const dataDir = join(dir, 'data');
    const app = await startAppServer({ port: 0, dataDir, token: 'tok', pages: (_req, res) => res.end(), store: 'memory' });
    try {
      const target = { fetch: (request: Request) => fetch(request) };
      const reply = await callTool(
        target,
        'generate_report',
        { size: 'small' },
        { caps: CAPS.formAndTasks, url: `${app.url}/mcp`, headers: { Host: new URL(app.url).host } },
      );
      expect(reply.body.result.taskId).toEqual(expect.any(String));
    } finally {
      await app.close();
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses an unknown store kind, naming where it came from', async () => {
    await expect(startAppServer({ port: 0, dataDir: join(dir, 'data'), pages: (_req, res) => res.end(), store: 'disk' })).rejects.toThrow(
      /^LOUPE_STORE \(--store\) must be memory or sqlite/,
    );
  });
});
