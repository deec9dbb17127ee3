import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from '../helpers/rpc';
import { ROOT, startCliOpen, type Started } from '../helpers/processes';

/**
 * `npx mcp-loupe` (the default command, also `mcp-loupe open`) as a user runs it: one process
 * serving the inspector's pages, the mock and the control API, printing the token URL. Needs
 * `npm run build` (dist/cli.mjs and the exported pages in dist/app).
 */

const run = promisify(execFile);
const env = { PORT: '', HOST: '', LOUPE_TOKEN: '', LOUPE_DATA_DIR: '', CI: '1' };
let dataDir: string;
let started: Started | undefined;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-open-'));
});
afterEach(async () => {
  await started?.stop();
  started = undefined;
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Run `mcp-loupe args` to its end; its exit code and output. */
async function runCli(args: string[], cwd = ROOT, entry = path.join(ROOT, 'bin', 'mcp-loupe.mjs')) {
  const r = await run(process.execPath, [entry, ...args], { cwd, env: { ...process.env, ...env }, timeout: 30_000 }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  return r;
}

describe('npx mcp-loupe', () => {
  it('serves /healthz, swaps the printed token for a cookie, and serves the inspector', async () => {
    started = await startCliOpen(['--port', '0', '--data-dir', dataDir], env);
    const base = `http://127.0.0.1:${started.port}`;
    expect(started.url).toMatch(new RegExp(`^${base}/\\?token=[\\w-]+$`));
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const exchange = await fetch(started.url, { redirect: 'manual' });
    expect(exchange.status).toBe(303);
    expect(exchange.headers.get('location')).toMatch(/^\/#loupe-key=[\w-]+$/);
    expect(exchange.headers.get('set-cookie')).toMatch(/^loupe_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(exchange.headers.get('set-cookie')).not.toContain(started.token);
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toContain('<title>Loupe</title>');
    // The control room and the recording viewer come from the same folder.
    for (const page of ['/scenarios', '/scenarios/demo', '/recording']) expect((await fetch(`${base}${page}`)).status, page).toBe(200);
  });

  it('prints a one-time link; `mcp-loupe link` makes another for the running Loupe; the control token is on no command line', async () => {
    started = await startCliOpen(['--port', '0', '--data-dir', dataDir], env);
    const advert = JSON.parse(fs.readFileSync(path.join(dataDir, 'loupe-server.json'), 'utf8')) as { token: string; url: string };
    expect(started.token).not.toBe(advert.token);
    expect((await fetch(started.url, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(started.url, { redirect: 'manual' })).status).toBe(410);

    const made = await runCli(['link', '--data-dir', dataDir]);
    expect(made.code).toBe(0);
    const fresh = made.stdout.trim();
    expect(fresh).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${started.port}/\\?token=[\\w-]+$`));
    expect(fresh).not.toContain(advert.token);
    expect(made.stderr).not.toContain(advert.token);
    expect((await fetch(fresh, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(fresh, { redirect: 'manual' })).status).toBe(410);
    // The token itself opens no browser session.
    expect((await fetch(`http://127.0.0.1:${started.port}/?token=${advert.token}`, { redirect: 'manual' })).status).toBe(401);

    // The control commands find the token where the link no longer carries it: the data directory.
    const listed = await runCli(['scenarios', 'list', '--url', `http://127.0.0.1:${started.port}`, '--data-dir', dataDir]);
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toMatch(/^demo\tbuilt-in/m);

    // What `ps` shows of the running Loupe: neither its command line nor its environment holds the token.
    const pid = started.child.pid!;
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toContain(advert.token);
    expect(fs.readFileSync(`/proc/${pid}/environ`, 'utf8')).not.toContain(advert.token);
  });

  it('link says where no Loupe runs instead of printing nothing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-nolink-'));
    try {
      const r = await runCli(['link', '--data-dir', empty]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no running Loupe found in ${empty}`);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a second Loupe on the same data directory leaves the first one reachable by `link`, before and after it exits', async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-twice-'));
    let second: Started | undefined;
    try {
      started = await startCliOpen(['--port', '0', '--data-dir', shared], env);
      second = await startCliOpen(['--port', '0', '--data-dir', shared], env);
      const warned = second;
      await expect.poll(() => warned.output()).toContain(`another Loupe (pid ${started.child.pid}, http://127.0.0.1:${started.port}) already uses ${shared}`);
      await second.stop();
      second = undefined;
      const made = await runCli(['link', '--data-dir', shared]);
      expect(made.stderr).toBe('');
      expect(made.stdout.trim()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${started.port}/\\?token=[\\w-]+$`));
    } finally {
      await second?.stop();
      fs.rmSync(shared, { recursive: true, force: true });
    }
  });

  it('a data directory that cannot be made fails at once, naming it, not the port (and never hangs on /proc)', async () => {
    const r = await runCli(['--no-open', '--port', '0', '--data-dir', '/proc/1/loupe-nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mcp-loupe: cannot start: .*ENOENT: no such file or directory, mkdir '\/proc\/1\/loupe-nope'/);
    const underFile = path.join(dataDir, 'a-file');
    fs.writeFileSync(underFile, '');
    const r2 = await runCli(['mock', 'demo', '--port', '0', '--data-dir', path.join(underFile, 'x')]);
    expect(r2.code).not.toBe(0);
    expect(r2.stderr).toContain('ENOTDIR');
  });

  it('takes the next free port when 3000 is busy, and says so', async () => {
    // Hold 3000 unless something already does; either way it is busy.
    const holder = net.createServer();
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve());
      holder.listen(3000, '127.0.0.1', () => resolve());
    });
    try {
      started = await startCliOpen(['--data-dir', dataDir], env);
      expect(started.port).toBeGreaterThan(3000);
      expect(started.output()).toContain(`loupe: port 3000 is in use, so Loupe took ${started.port}`);
      expect((await fetch(`http://127.0.0.1:${started.port}/healthz`)).status).toBe(200);
    } finally {
      holder.close();
    }
  });

  it('refuses a non-loopback interface without --allow-remote (exit code 2)', async () => {
    const r = await runCli(['--no-open', '--host', '0.0.0.0', '--port', '0', '--data-dir', dataDir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-loupe: refusing to listen on 0\.0\.0\.0: .*--allow-remote/);
  });

  it('names a mistyped command instead of running it as a stdio server', async () => {
    const r = await runCli(['mokc', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'mokc' (to inspect a stdio server, put its command after --)");
  });

  it('serves a --scenario file at /mcp/<its id> and prints that URL', async () => {
    const file = path.join(dataDir, 'examples-like.yaml');
    fs.writeFileSync(
      file,
      'id: examples-like\nname: Examples-like\nserver: { name: examples-like-server, version: 1.0.0 }\ntools:\n  - name: echo\n    result: { content: [{ type: text, text: hi }] }\n',
    );
    started = await startCliOpen(['--port', '0', '--data-dir', dataDir, '--scenario', file], env);
    const base = `http://127.0.0.1:${started.port}`;
    // The inspector opens on the user's scenario; the line names its endpoint.
    expect(new URL(started.url).searchParams.get('url')).toBe('/mcp/examples-like');
    await expect.poll(() => started!.output()).toContain(`scenario "examples-like" (${path.relative(ROOT, file)}) at ${base}/mcp/examples-like`);
    const reply = await rpc({ fetch: (req) => fetch(req) }, 'server/discover', {}, { url: `${base}/mcp/examples-like` });
    expect(reply.status).toBe(200);
    expect(reply.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('examples-like-server');
    // The built-ins are still there.
    expect((await rpc({ fetch: (req) => fetch(req) }, 'server/discover', {}, { url: `${base}/mcp` })).status).toBe(200);
  });

  it('prints the scenario file’s issues with their lines and exits 2 when it is invalid', async () => {
    const file = path.join(dataDir, 'broken.yaml');
    fs.writeFileSync(file, 'id: broken\nserver: { name: b, version: 1.0.0 }\ntools: 7\n');
    const r = await runCli(['--no-open', '--port', '0', '--data-dir', dataDir, '--scenario', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.yaml:3:\d+/);
  });

  it('says how to build when the pages are missing, instead of a stack trace', async () => {
    // The bundle alone in a folder of the checkout (so its dependencies resolve), without app/ beside it.
    const dir = fs.mkdtempSync(path.join(ROOT, 'dist', 'no-pages-'));
    try {
      fs.copyFileSync(path.join(ROOT, 'dist', 'cli.mjs'), path.join(dir, 'cli.mjs'));
      const r = await runCli(['--no-open', '--port', '0', '--data-dir', dataDir], ROOT, path.join(dir, 'cli.mjs'));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("mcp-loupe: the inspector's pages are not built");
      expect(r.stderr).toContain('run `npm run build`');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
