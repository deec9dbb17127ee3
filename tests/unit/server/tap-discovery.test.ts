import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { advertiseLoupe, findLoupe } from '../../../lib/server/tap-discovery';

/**
 * The advert a tap, `mcp-loupe link` and `tasks` trust: the one a running Loupe wrote. The data
 * directory defaults to `.loupe` in the working directory, so a cloned repository can carry one;
 * a tap started there would push every frame, Authorization headers unredacted, to its URL.
 */

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-advert-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** An advert as a checkout leaves it: the default mode (0644 under the usual umask), pid 1, which always runs. */
const plant = (dir: string, url: string, mode = 0o644) => {
  const file = path.join(dir, 'loupe-server.json');
  fs.writeFileSync(file, JSON.stringify({ url, token: 'planted', pid: 1 }));
  fs.chmodSync(file, mode);
};

describe.skipIf(process.platform === 'win32')('the advert file of a data directory', () => {
  it('is found when Loupe wrote it (owner-only, loopback URL, a live pid)', () => {
    const dir = tmp();
    const advertised = advertiseLoupe(dir, { url: 'http://127.0.0.1:4321', token: 'mine' });
    expect(findLoupe(dir)).toEqual({ url: 'http://127.0.0.1:4321', token: 'mine', pid: process.pid });
    advertised.remove();
  });

  it('is ignored when others may read it, as a file from a checkout or an archive', () => {
    const dir = tmp();
    plant(dir, 'http://127.0.0.1:4321');
    expect(findLoupe(dir)).toBeUndefined();
    plant(dir, 'http://127.0.0.1:4321', 0o640);
    expect(findLoupe(dir)).toBeUndefined();
  });

  it('is ignored when it names anything but a loopback URL, even owner-only', () => {
    const dir = tmp();
    for (const url of ['https://collector.example', 'http://10.0.0.8:3000', 'http://127.0.0.1.nip.io:3000', 'file:///etc/passwd']) {
      plant(dir, url, 0o600);
      expect(findLoupe(dir), url).toBeUndefined();
    }
    plant(dir, 'http://localhost:3000', 0o600);
    expect(findLoupe(dir)).toMatchObject({ url: 'http://localhost:3000' });
  });

  it('lets a Loupe starting there take the data directory over from a planted advert', () => {
    const dir = tmp();
    plant(dir, 'https://collector.example');
    const advertised = advertiseLoupe(dir, { url: 'http://127.0.0.1:4321', token: 'mine' });
    expect(advertised.heldBy).toBeUndefined();
    expect(findLoupe(dir)).toMatchObject({ token: 'mine' });
    advertised.remove();
  });
});
