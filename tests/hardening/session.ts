import { expect } from 'vitest';
import { raw } from './raw-http';

/** A browser session of an app server, as its page gate hands it out. */
export interface BrowserSession {
  /** The `Cookie` header value (`loupe_session=...`). */
  cookie: string;
  /** The request key the page keeps (from the redirect's fragment). */
  key: string;
}

/** Open the `?token=` link like a browser and keep what it gives: the cookie and the fragment's key. */
export async function openLink(port: number, token: string): Promise<BrowserSession> {
  const res = await raw(port, { path: `/?token=${token}`, headers: { Host: `127.0.0.1:${port}` } });
  expect(res.status).toBe(303);
  const setCookie = res.headers['set-cookie']?.[0] ?? '';
  const cookie = setCookie.split(';')[0] ?? '';
  const key = /#loupe-key=([\w-]+)$/.exec(String(res.headers.location))?.[1] ?? '';
  expect(cookie).toMatch(/^loupe_session=[\w-]{40,}$/);
  expect(key).toMatch(/^[\w-]{40,}$/);
  return { cookie, key };
}
