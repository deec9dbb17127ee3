import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer } from '../../lib/server/app-server';
import { runCli, startCliOpen, type Started } from '../helpers/processes';

/**
 * The app server owns `localhost` on its port. The inspector on 127.0.0.1:P frames the MCP App
 * sandbox from localhost:P, which browsers try on [::1] first: a process squatting [::1]:P would
 * get the app's HTML, its tool results and a bridge to the server. So Loupe listens on [::1]:P
 * too, takes another port when it picked one that is squatted there, and refuses a port the user
 * named with a message saying why. The squatters are real sockets on [::1]. Needs
 * `npm run build` (dist/cli.mjs and the exported pages in dist/app).
 */

const env = { PORT: '', HOST: '', LOUPE_TOKEN: '', LOUPE_DATA_DIR: '', CI: '1' };
let dataDir: string;
let hasIpv6 = false;
let started: Started | undefined;
const squatters: net.Server[] = [];

/** Listen on host:port; resolves with the port, or undefined when it is taken (or the address missing). */
function listenOn(server: net.Server, port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
  });
}

/** A process-like squatter on [::1]:port; undefined when it could not take it. */
async function squat(port: number): Promise<{ port: number } | undefined> {
  const s = net.createServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nSQUAT!'));
  const got = await listenOn(s, port, '::1');
  if (got === undefined) return undefined;
  squatters.push(s);
  return { port: got };
}

/** Whether a TCP connect to host:port succeeds. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether nothing listens on host:port (checked by listening, briefly). */
async function isFree(port: number, host: string): Promise<boolean> {
  const probe = net.createServer();
  const got = await listenOn(probe, port, host);
  if (got !== undefined) await new Promise((r) => probe.close(r));
  return got !== undefined;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ipv6-'));
  const probe = net.createServer();
  hasIpv6 = (await listenOn(probe, 0, '::1')) !== undefined;
  if (hasIpv6) await new Promise((r) => probe.close(r));
});
afterEach(async () => {
  await started?.stop();
  started = undefined;
  for (const s of squatters.splice(0)) await new Promise((r) => s.close(r));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the app server on [::1]', () => {
  it('listens on [::1] at its port too, so no other process can take localhost there, and stops both on close', async (ctx) => {
    if (!hasIpv6) ctx.skip(); // This machine has no IPv6 loopback, so nothing can listen on [::1] at all.
    started = await startCliOpen(['--port', '0', '--data-dir', path.join(dataDir, 'a'), '--store', 'memory'], env);
    const health = await fetch(`http://[::1]:${started.port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(await squat(started.port)).toBeUndefined();
    await started.stop();
    started = undefined;

    // In process, to see that close() itself lets go of [::1], a kept-alive connection there included.
    const app = await startAppServer({ port: 0, dataDir: path.join(dataDir, 'b'), store: 'memory', pages: (_req, res) => res.end('page') });
    const kept = net.connect(app.port, '::1');
    await new Promise((r) => kept.once('connect', r));
    kept.write(`GET /healthz HTTP/1.1\r\nHost: localhost:${app.port}\r\n\r\n`);
    await new Promise((r) => kept.once('data', r));
    await app.close();
    expect(await connects('::1', app.port)).toBe(false);
    expect(await connects('127.0.0.1', app.port)).toBe(false);
    kept.destroy();
  });

  it('refuses a --port whose [::1] side another process holds, saying why and what to do (exit 1)', async (ctx) => {
    if (!hasIpv6) ctx.skip(); // No IPv6 loopback: no squatter can exist.
    let squatted: { port: number } | undefined;
    // A port free on 127.0.0.1 whose [::1] side we take.
    for (let i = 0; i < 10 && !squatted; i++) {
      const s = await squat(0);
      if (s && (await isFree(s.port, '127.0.0.1'))) squatted = s;
    }
    if (!squatted) throw new Error('found no port free on 127.0.0.1 to squat on [::1]');
    const r = await runCli(['--no-open', '--port', String(squatted.port), '--data-dir', path.join(dataDir, 'c'), '--store', 'memory'], {
      env,
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`mcp-loupe: port ${squatted.port} is free on 127.0.0.1 but another process listens on [::1]:${squatted.port}`);
    expect(r.stderr).toContain('pass another --port');
    expect(r.stdout).not.toContain('Loupe is running');
  });

  it('without --port, passes over a port whose [::1] side is taken and says so', async (ctx) => {
    if (!hasIpv6) ctx.skip(); // No IPv6 loopback: no squatter can exist.
    // The first port of the search (3000...) that is free on both sides: Loupe would take it.
    let first: number | undefined;
    for (let p = 3000; p < 3019 && first === undefined; p++) if ((await isFree(p, '127.0.0.1')) && (await isFree(p, '::1'))) first = p;
    if (first === undefined) throw new Error('ports 3000 to 3018 are all in use on this machine');
    expect(await squat(first)).toEqual({ port: first });
    started = await startCliOpen(['--data-dir', path.join(dataDir, 'd'), '--store', 'memory'], env);
    expect(started.port).not.toBe(first);
    expect(started.output()).toContain(`loupe: port 3000 is in use, so Loupe took ${started.port}`);
    const health = await fetch(`http://[::1]:${started.port}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});
