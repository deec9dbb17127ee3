import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../../lib/server/app-server';
import { createStaticPages } from '../../../lib/server/static-pages';
import { raw } from '../../hardening/raw-http';
import { openLink } from '../../hardening/session';

/**
 * The app server over a small fake export: the pages' files with their content types and cache
 * headers, the placeholder behind every dynamic id, the 404 page, HEAD, refused paths, the page
 * gate in front of every file, /healthz and /api/session.
 */

const FILES: Record<string, string> = {
  'index.html': '<!doctype html><title>home</title>',
  'index.txt': 'home payload',
  '404.html': '<!doctype html><title>not found page</title>',
  'recording.html': '<!doctype html><title>recording</title>',
  'scenarios.html': '<!doctype html><title>scenario list</title>',
  'scenarios/__next._tree.txt': 'list tree',
  'scenarios/_.html': '<!doctype html><title>control room placeholder</title>',
  'scenarios/_.txt': 'control room payload',
  'scenarios/_/__next._tree.txt': 'control room tree',
  'scenarios/_/__next.scenarios.$d$id.__PAGE__.txt': 'control room page segment',
  'replay/_.html': '<!doctype html><title>replay placeholder</title>',
  '_next/static/chunks/main-abc123.js': 'console.log(1)',
  '_next/static/css/app-abc123.css': 'body{}',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
};
const SECRET = 'the-secret-beside-the-pages';

let tmp: string;
let app: AppServer;
let host: string;
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => raw(app.port, { method, path: p, headers: { Host: host, ...headers } });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-app-server-'));
  const pagesDir = path.join(tmp, 'pages');
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(pagesDir, file)), { recursive: true });
    fs.writeFileSync(path.join(pagesDir, file), text);
  }
  fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
  app = await startAppServer({ port: 0, dataDir: path.join(tmp, 'data'), token: 'tok', pagesDir, reusableLink: true });
  host = `127.0.0.1:${app.port}`;
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('static pages', () => {
  it('serves each file with its content type; build assets immutable, pages never cached', async () => {
    const home = await get('/');
    expect(home).toMatchObject({ status: 200, text: FILES['index.html'] });
    expect(home.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const js = await get('/_next/static/chunks/main-abc123.js');
    expect(js.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
    expect((await get('/_next/static/css/app-abc123.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await get('/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
    const payload = await get('/index.txt');
    expect(payload.headers).toMatchObject({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
    expect(await get('/scenarios')).toMatchObject({ status: 200, text: FILES['scenarios.html'] });
    expect(await get('/scenarios/')).toMatchObject({ status: 200, text: FILES['scenarios.html'] });
    expect(await get('/recording?x=1')).toMatchObject({ status: 200, text: FILES['recording.html'] });
  });

  it('answers every id of a dynamic route with its placeholder, payloads included', async () => {
    expect(await get('/scenarios/demo')).toMatchObject({ status: 200, text: FILES['scenarios/_.html'] });
    expect(await get('/scenarios/my-copy-2?tab=journal')).toMatchObject({ status: 200, text: FILES['scenarios/_.html'] });
    expect(await get('/scenarios/demo.txt')).toMatchObject({ status: 200, text: FILES['scenarios/_.txt'] });
    expect(await get('/scenarios/demo/__next._tree.txt')).toMatchObject({ status: 200, text: FILES['scenarios/_/__next._tree.txt'] });
    expect(await get('/scenarios/demo/__next.scenarios.$d$id.__PAGE__.txt')).toMatchObject({ status: 200 });
    // The list's own payload is a file, not an id.
    expect(await get('/scenarios/__next._tree.txt')).toMatchObject({ status: 200, text: FILES['scenarios/__next._tree.txt'] });
    expect(await get('/replay/k3x9q2')).toMatchObject({ status: 200, text: FILES['replay/_.html'] });
    expect((await get('/scenarios/demo/unknown.txt')).status).toBe(404);
    expect((await get('/recording/anything')).status).toBe(404);
  });

  it('answers an unknown path with the 404 page, never cached', async () => {
    const missing = await get('/no/such/page');
    expect(missing).toMatchObject({ status: 404, text: FILES['404.html'] });
    expect(missing.headers['cache-control']).toBe('no-store');
    expect((await get('/_next/static/chunks/gone.js')).status).toBe(404);
  });

  it('supports HEAD and refuses other methods', async () => {
    const head = await get('/scenarios/demo', {}, 'HEAD');
    expect(head).toMatchObject({ status: 200, text: '' });
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(FILES['scenarios/_.html']!)));
    const post = await get('/', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('never leaves the folder: dot segments, encoded separators and NUL are refused', async () => {
    for (const p of [
      '/../secret.txt',
      '/scenarios/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/..\\secret.txt',
      '/scenarios%2f_.html',
      '/index.html%00.txt',
      '/%ff',
      '/./index.html',
    ]) {
      const r = await get(p);
      expect(r.status, p).toBe(400);
      expect(r.text, p).not.toContain(SECRET);
    }
  });

  it('reads the export once, by name; a folder with no export is an error at start', () => {
    const pages = createStaticPages(path.join(tmp, 'pages'));
    expect(pages.resolve('/')).toEqual({ kind: 'file', file: 'index.html' });
    expect(pages.resolve('/replay/abc.txt')).toEqual({ kind: 'not-found' });
    expect(pages.resolve('/scenarios/abc.txt')).toEqual({ kind: 'file', file: 'scenarios/_.txt' });
    expect(pages.resolve('/secret.txt')).toEqual({ kind: 'not-found' });
    expect(() => createStaticPages(path.join(tmp, 'data'))).toThrow(/No exported pages/);
  });
});

describe('the page gate in front of every page and file', () => {
  it('refuses a foreign Host on pages, assets and the sandbox page', async () => {
    for (const p of ['/', '/scenarios/demo', '/_next/static/chunks/main-abc123.js', '/no/such/page', '/sandbox/proxy.html']) {
      const r = await get(p, { Host: 'evil.example.com' });
      expect(r.status, p).toBe(403);
      expect(r.text, p).toContain('Host not allowed');
    }
  });

  it('swaps the launch token for an HttpOnly cookie and sends the browser to the clean URL', async () => {
    const r = await get('/scenarios/demo?token=tok&tab=1');
    expect(r.status).toBe(303);
    expect(r.headers.location).toMatch(/^\/scenarios\/demo\?tab=1#loupe-key=[\w-]+$/);
    expect(r.headers['set-cookie']).toEqual([expect.stringMatching(/^loupe_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/)]);
    expect((await get('/?token=nope')).status).toBe(401);
    // A path that reads as another host once resolved still redirects on this one.
    expect((await get('/.//evil.example/?token=tok')).headers.location).toMatch(/^\/evil\.example\/#loupe-key=/);
  });

  it('serves the sandbox page on the other loopback name with its CSP', async () => {
    const r = await get(`/sandbox/proxy.html?host=${encodeURIComponent(`http://localhost:${app.port}`)}&csp=%7B%7D`);
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toContain(`frame-ancestors http://localhost:${app.port}`);
    expect(r.headers['cache-control']).toBe('no-store');
  });
});

describe('/healthz and /api/session', () => {
  it('answers /healthz without a token, after the Host check', async () => {
    const r = await get('/healthz');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.text)).toEqual({ status: 'ok' });
    expect((await get('/healthz', { Host: 'evil.example.com' })).status).toBe(403);
  });

  it('tells a page whether it holds the launch token', async () => {
    expect(JSON.parse((await get('/api/session')).text)).toEqual({ authenticated: false });
    const { cookie, key } = await openLink(app.port, 'tok');
    expect(JSON.parse((await get('/api/session', { Cookie: cookie, 'X-Loupe-Request': key })).text)).toEqual({ authenticated: true });
    expect(JSON.parse((await get('/api/session', { Cookie: cookie })).text)).toEqual({ authenticated: false });
    expect(JSON.parse((await get('/api/session', { Authorization: 'Bearer nope' })).text)).toEqual({ authenticated: false });
    expect((await get('/api/session', { Origin: 'http://evil.example.com', Cookie: cookie, 'X-Loupe-Request': key })).status).toBe(403);
    expect((await get('/api/scenarios')).status).toBe(401);
  });
});

describe('OAuth discovery of a scenario with auth:', () => {
  it('serves /.well-known metadata from the mock, not the page gate', async () => {
    const prm = await get('/.well-known/oauth-protected-resource/mcp/oauth');
    expect(prm.status).toBe(200);
    expect(JSON.parse(prm.text)).toMatchObject({ resource: `${app.url}/mcp/oauth`, authorization_servers: [`${app.url}/mcp/oauth/as`] });
    const meta = await get('/.well-known/oauth-authorization-server/mcp/oauth/as');
    expect(JSON.parse(meta.text)).toMatchObject({ issuer: `${app.url}/mcp/oauth/as`, token_endpoint: `${app.url}/mcp/oauth/as/token` });
  });
});
