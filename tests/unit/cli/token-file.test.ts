import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthorizedFetch } from '../../../lib/client/auth/authorized-fetch';
import type { StoredAuth } from '../../../lib/client/auth/stored';
import { createTokenFile } from '../../../lib/cli/token-file';

/** `--store-tokens FILE`: a 0600 file replaced whole on every save, whose tokens go only to the server they were issued for. */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-token-file-'));
  dirs.push(d);
  return d;
}

const SERVER = 'http://127.0.0.1:4100/mcp';
const state: StoredAuth = {
  version: 1,
  server: SERVER,
  issuer: 'http://127.0.0.1:4100/as',
  resource: SERVER,
  authorizationServer: { issuer: 'http://127.0.0.1:4100/as', token_endpoint: 'http://127.0.0.1:4100/as/token' },
  client: { issuer: 'http://127.0.0.1:4100/as', clientId: 'c-1', method: 'none', via: 'dcr' },
  tokens: { accessToken: 'stored-access', refreshToken: 'stored-refresh', expiresAt: Date.now() + 3_600_000 },
  scopes: ['notes:read'],
};

describe('the token file', () => {
  it('is written 0600 even over a readable file, leaves no temporary file, and reads back what was saved', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'tokens.json');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    const store = createTokenFile(file);
    await store.save(state);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['tokens.json']);
    expect(await store.load()).toEqual(state);
  });

  it('loads nothing from a missing or damaged file', async () => {
    const dir = tempDir();
    expect(await createTokenFile(path.join(dir, 'none.json')).load()).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"version":1,');
    expect(await createTokenFile(path.join(dir, 'bad.json')).load()).toBeUndefined();
  });

  it('hands the stored bearer to the server it was issued for and to no other', async () => {
    const file = path.join(tempDir(), 'tokens.json');
    await createTokenFile(file).save(state);
    const sent: (string | null)[] = [];
    const base = async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get('authorization'));
      return new Response('{}', { status: 200 });
    };
    const to = async (url: string) => {
      const auth = createAuthorizedFetch({ redirectUri: 'http://127.0.0.1:9/callback', store: createTokenFile(file), fetch: base });
      await auth.fetch(url, { method: 'POST' });
    };
    await to('http://127.0.0.1:4200/mcp');
    await to(SERVER);
    expect(sent).toEqual([null, 'Bearer stored-access']);
  });
});
