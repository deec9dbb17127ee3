import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockHost } from '../../../lib/server/mock-host';
import { recordingRoutes } from '../../../lib/server/recording-routes';
import { ROOT } from '../../helpers/processes';

/** The saved-sessions list's routes: rename and delete, inside the recordings directory only. */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-rec-routes-'));
  dirs.push(dataDir);
  fs.mkdirSync(path.join(dataDir, 'recordings'));
  const text = fs.readFileSync(path.join(ROOT, 'tests/fixtures/recordings/v2.json'), 'utf8');
  for (const n of ['a.loupe.json', 'b.loupe.json']) fs.writeFileSync(path.join(dataDir, 'recordings', n), text);
  fs.writeFileSync(path.join(dataDir, 'outside.loupe.json'), text);
  const host = { dataDir } as MockHost;
  const call = async (method: string, rest: string[], body?: unknown) => {
    const res = await recordingRoutes(
      new Request('http://127.0.0.1/api/recordings', { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
      host,
      rest,
    );
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const names = () => fs.readdirSync(path.join(dataDir, 'recordings')).sort();
  return { dataDir, call, names };
}

describe('recording routes: rename and delete', () => {
  it('renames a saved recording, never over another one, and only to a recording name', async () => {
    const { call, names } = setup();
    expect(await call('POST', ['a.loupe.json', 'rename'], { to: 'mine.loupe.json' })).toEqual({ status: 200, json: { renamed: 'mine.loupe.json' } });
    expect(names()).toEqual(['b.loupe.json', 'mine.loupe.json']);
    expect((await call('POST', ['mine.loupe.json', 'rename'], { to: 'b.loupe.json' })).status).toBe(409);
    expect((await call('POST', ['mine.loupe.json', 'rename'], { to: '../outside.loupe.json' })).status).toBe(400);
    expect((await call('POST', ['mine.loupe.json', 'rename'], { to: 'x.txt' })).status).toBe(400);
    expect((await call('POST', ['gone.loupe.json', 'rename'], { to: 'c.loupe.json' })).status).toBe(404);
    expect((await call('POST', ['mine.loupe.json', 'rename'], 'not an object')).status).toBe(400);
    expect(names()).toEqual(['b.loupe.json', 'mine.loupe.json']);
  });

  it('deletes a saved recording and nothing outside the directory', async () => {
    const { dataDir, call, names } = setup();
    expect(await call('DELETE', ['b.loupe.json'])).toEqual({ status: 200, json: { deleted: 'b.loupe.json' } });
    expect(names()).toEqual(['a.loupe.json']);
    expect((await call('DELETE', ['b.loupe.json'])).status).toBe(404);
    expect((await call('DELETE', ['../outside.loupe.json'])).status).toBe(404);
    expect(fs.existsSync(path.join(dataDir, 'outside.loupe.json'))).toBe(true);
  });
});
