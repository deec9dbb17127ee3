import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKey, loupeFetch } from '@/lib/client/api-key';

/**
 * The page's request key against a page that rewrites it: a key from the address bar's fragment
 * waits as a candidate until Loupe accepts it, so `/#loupe-key=garbage` cannot lock a working
 * session out, while a new link opened in a browser with an older session still takes over.
 */

class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

const g = globalThis as unknown as { localStorage?: MemoryStorage; sessionStorage?: MemoryStorage };

/** Loupe as far as the key goes: it accepts one key, answers 401 to any other, and logs what it saw. */
function loupe(valid: string) {
  const seen: { key: string | null; redirect?: RequestRedirect; credentials?: RequestCredentials }[] = [];
  const send = async (_input: string, init: RequestInit) => {
    const key = new Headers(init.headers).get('x-loupe-request');
    seen.push({ key, redirect: init.redirect, credentials: init.credentials });
    return new Response(null, { status: key === valid ? 200 : 401 });
  };
  return { seen, send };
}

beforeEach(() => {
  g.localStorage = new MemoryStorage();
  g.sessionStorage = new MemoryStorage();
});
afterEach(() => {
  delete g.localStorage;
  delete g.sessionStorage;
});

describe('loupeFetch and the request key', () => {
  it('sends the stored key, the cookie of this origin only, and refuses to follow redirects', async () => {
    g.localStorage!.setItem('loupe-api-key', 'good');
    const server = loupe('good');
    const res = await loupeFetch('/api/scenarios', {}, server.send);
    expect(res.status).toBe(200);
    expect(server.seen).toEqual([{ key: 'good', redirect: 'error', credentials: 'same-origin' }]);
  });

  it('keeps a working key when a page plants garbage in the fragment, and drops the garbage', async () => {
    g.localStorage!.setItem('loupe-api-key', 'good');
    g.sessionStorage!.setItem('loupe-api-key-candidate', 'garbage');
    const server = loupe('good');
    expect((await loupeFetch('/api/scenarios', {}, server.send)).status).toBe(200);
    expect(server.seen.map((s) => s.key)).toEqual(['good']);
    expect(apiKey()).toBe('good');
    expect(g.sessionStorage!.getItem('loupe-api-key-candidate')).toBeNull();
  });

  it('takes the new key of a link opened in a browser whose stored key belongs to an older session', async () => {
    g.localStorage!.setItem('loupe-api-key', 'old');
    g.sessionStorage!.setItem('loupe-api-key-candidate', 'new');
    const server = loupe('new');
    const res = await loupeFetch('/api/recordings', { method: 'PUT', body: '{}' }, server.send);
    expect(res.status).toBe(200);
    expect(server.seen.map((s) => s.key)).toEqual(['old', 'new']);
    expect(apiKey()).toBe('new');
    // The next call goes straight with the adopted key.
    await loupeFetch('/api/recordings', {}, server.send);
    expect(server.seen.map((s) => s.key)).toEqual(['old', 'new', 'new']);
  });

  it('leaves both keys as they are when neither is accepted (no session at all)', async () => {
    g.localStorage!.setItem('loupe-api-key', 'old');
    g.sessionStorage!.setItem('loupe-api-key-candidate', 'garbage');
    const server = loupe('other');
    expect((await loupeFetch('/api/scenarios', {}, server.send)).status).toBe(401);
    expect(apiKey()).toBe('old');
  });

  it('does not send a streamed body twice', async () => {
    g.localStorage!.setItem('loupe-api-key', 'old');
    g.sessionStorage!.setItem('loupe-api-key-candidate', 'new');
    const server = loupe('new');
    const body = new ReadableStream({ start: (c) => c.close() });
    expect((await loupeFetch('/api/proxy', { method: 'POST', body, duplex: 'half' } as RequestInit, server.send)).status).toBe(401);
    expect(server.seen).toHaveLength(1);
  });
});
