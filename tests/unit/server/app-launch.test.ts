import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchConnection } from '../../../lib/protocol/launch-link';
import { loadScenarioFile } from '../../../lib/scenario/files';
import { startAppServer, type AppServer } from '../../../lib/server/app-server';
import { raw } from '../../hardening/raw-http';
import { openLink } from '../../hardening/session';
import { rpc } from '../../helpers/rpc';

/**
 * What `mcp-loupe --url … --header …` and `--scenario FILE` hand the app server: the launch's
 * connection behind the token (`GET /api/launch`, the only place header values live), and the
 * user's scenario served at `/mcp/<its id>`, listed, and read-only beside the built-ins.
 */

const SCENARIO = `id: my-notes
name: My notes
server: { name: my-notes-server, version: 1.0.0 }
tools:
  - name: echo
    result: { content: [{ type: text, text: hi }] }
`;
const LAUNCH: LaunchConnection = { transport: 'proxy', url: 'http://upstream.test/mcp', era: 'auto', headers: { 'X-Test': 'secret-value' } };

let tmp: string;
let app: AppServer;
let host: string;
const get = (p: string, headers: Record<string, string> = {}) => raw(app.port, { path: p, headers: { Host: host, ...headers } });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-app-launch-'));
  fs.mkdirSync(path.join(tmp, 'pages'));
  fs.writeFileSync(path.join(tmp, 'pages', 'index.html'), '<!doctype html><title>home</title>');
  const file = path.join(tmp, 'my-notes.yaml');
  fs.writeFileSync(file, SCENARIO);
  const parsed = loadScenarioFile(file);
  if (!parsed.ok) throw new Error('fixture scenario is invalid');
  app = await startAppServer({
    port: 0,
    dataDir: path.join(tmp, 'data'),
    token: 'tok',
    reusableLink: true,
    pagesDir: path.join(tmp, 'pages'),
    scenarios: [{ scenario: parsed.scenario, file }],
    launch: LAUNCH,
  });
  host = `127.0.0.1:${app.port}`;
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the launch connection', () => {
  it('keeps the connection in the page URL through the token exchange, the token dropped', async () => {
    const r = await get('/?token=tok&transport=proxy&url=http%3A%2F%2Fupstream.test%2Fmcp&era=auto&header=X-Test');
    expect(r.status).toBe(303);
    expect(r.headers.location).toMatch(/^\/\?transport=proxy&url=http%3A%2F%2Fupstream\.test%2Fmcp&era=auto&header=X-Test#loupe-key=[\w-]+$/);
  });

  it('answers the header values only to the cookie holder, on this origin', async () => {
    expect((await get('/api/launch')).status).toBe(401);
    const { cookie, key } = await openLink(app.port, 'tok');
    expect((await get('/api/launch', { Cookie: cookie, 'X-Loupe-Request': key, Origin: 'http://evil.test' })).status).toBe(403);
    expect((await get('/api/launch', { Cookie: cookie })).status).toBe(401);
    const r = await get('/api/launch', { Cookie: cookie, 'X-Loupe-Request': key });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(r.text)).toEqual({ connection: LAUNCH });
  });

  it('answers null when the command line named no connection', async () => {
    const bare = await startAppServer({ port: 0, dataDir: path.join(tmp, 'data2'), token: 'tok2', pagesDir: path.join(tmp, 'pages') });
    try {
      const r = await raw(bare.port, { path: '/api/launch', headers: { Host: `127.0.0.1:${bare.port}`, Authorization: 'Bearer tok2' } });
      expect(JSON.parse(r.text)).toEqual({ connection: null });
    } finally {
      await bare.close();
    }
  });
});

describe('a scenario file from the command line', () => {
  it('is served at /mcp/<its id>', async () => {
    const reply = await rpc({ fetch: (req) => fetch(req) }, 'server/discover', {}, { url: `${app.url}/mcp/my-notes` });
    expect(reply.status).toBe(200);
    expect(reply.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('my-notes-server');
  });

  it('is listed with its file beside the built-ins, and read-only', async () => {
    const { cookie, key } = await openLink(app.port, 'tok');
    const auth = { Cookie: cookie, 'X-Loupe-Request': key };
    const list = JSON.parse((await get('/api/scenarios', auth)).text) as { scenarios: { id: string; file?: string; builtin: boolean }[] };
    expect(list.scenarios.find((s) => s.id === 'my-notes')).toEqual({
      id: 'my-notes',
      name: 'My notes',
      builtin: true,
      valid: true,
      file: path.join(tmp, 'my-notes.yaml'),
    });
    const source = await get('/api/scenarios/my-notes/source', auth);
    expect(source.text).toBe(SCENARIO);
    expect(source.headers['x-loupe-builtin']).toBe('true');
    const save = await raw(app.port, {
      method: 'PUT',
      path: '/api/scenarios/my-notes/source',
      headers: { Host: host, Authorization: 'Bearer tok', 'Content-Type': 'application/yaml' },
      body: SCENARIO.replace('My notes', 'Changed'),
    });
    expect(save.status).toBe(409);
    expect(JSON.parse(save.text).error).toMatch(/comes from .*my-notes\.yaml \(given on the command line\)/);
    expect(fs.readFileSync(path.join(tmp, 'my-notes.yaml'), 'utf8')).toBe(SCENARIO);
  });
});
