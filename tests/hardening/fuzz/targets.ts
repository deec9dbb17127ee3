import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, startCliMock, type Started } from '../../helpers/processes';
import type { Credentials } from './requests';

/**
 * The servers under fire, each a real process the suite can watch for exits and RSS:
 * `mcp-loupe mock` and the app server (startAppServer from the bundle, with a stub page export
 * so the page gate and static files are in play without a Next build).
 */

/** A running target: where it listens, its credentials, and its process to watch. */
export interface Target {
  name: string;
  port: number;
  token: string;
  pid: number;
  exits: () => number;
  output: () => string;
  stop: () => Promise<void>;
}

function watched(name: string, s: Started, token: string, cleanup: () => void): Target {
  let exits = 0;
  s.child.once('exit', () => exits++);
  return {
    name,
    port: s.port,
    token,
    pid: s.child.pid ?? 0,
    exits: () => exits,
    output: s.output,
    stop: async () => {
      await s.stop();
      cleanup();
    },
  };
}

/** `mcp-loupe mock demo` on its own SQLite file. */
export async function startMockTarget(): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fuzz-mock-'));
  const s = await startCliMock(['demo', '--data-dir', dataDir]);
  if (!s.token) throw new Error(`the mock printed no control token:\n${s.output()}`);
  return watched('mcp-loupe mock', s, s.token, () => fs.rmSync(dataDir, { recursive: true, force: true }));
}

/** The app server in its own process, with a one-page stub export. */
export async function startAppTarget(): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fuzz-app-'));
  const pages = path.join(dataDir, 'pages');
  fs.mkdirSync(path.join(pages, '_next', 'static'), { recursive: true });
  fs.writeFileSync(path.join(pages, 'index.html'), '<!doctype html><title>stub</title>');
  const token = `fuzz-${Math.random().toString(36).slice(2)}`;
  const script = [
    `const { startAppServer } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'app-server.mjs'))});`,
    `const s = await startAppServer({ port: 0, dataDir: ${JSON.stringify(path.join(dataDir, 'data'))}, pagesDir: ${JSON.stringify(pages)}, token: ${JSON.stringify(token)}, reusableLink: true });`,
    "console.log('READY ' + s.url + '/mcp');",
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app server did not start:\n${out}`)), 30_000);
    child.stdout.on('data', () => {
      const m = /READY (\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the app server exited with ${code}:\n${out}`)));
  });
  const started: Started = {
    child,
    url,
    port: Number(new URL(url).port),
    token,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(-(child.pid ?? 0), 'SIGTERM');
      }),
  };
  return watched('app server', started, token, () => fs.rmSync(dataDir, { recursive: true, force: true }));
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

/** The credential variants: none, the launch token as a bearer, and the cookie a browser gets for `?token=`. */
export async function credentialsFor(t: Target): Promise<Credentials[]> {
  const base = `http://127.0.0.1:${t.port}`;
  // Sent in every authorized variant: the custom request header a form or a redirect cannot carry.
  const marker: [string, string] = ['X-Loupe-Request', '1'];
  const variants: Credentials[] = [
    { name: 'anonymous', headers: [] },
    { name: 'bearer', headers: [['Authorization', `Bearer ${t.token}`], marker] },
  ];
  const r = await fetch(`${base}/?token=${encodeURIComponent(t.token)}`, { redirect: 'manual' });
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  // The page gate hands the page its request key in the redirect's fragment (lib/server/launch-access.ts).
  const key = /[#&]loupe-key=([\w-]+)/.exec(r.headers.get('location') ?? '')?.[1];
  if (cookie && !key) throw new Error(`the token exchange gave no request key (Location: ${r.headers.get('location')})`);
  if (cookie && key)
    variants.push({
      name: 'cookie',
      headers: [
        ['Cookie', cookie],
        ['Origin', base],
        ['X-Loupe-Request', key],
      ],
    });
  return variants;
}
