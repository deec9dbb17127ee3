import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/free-port.mjs';

/** Helpers to start the real servers the integration and e2e tests talk to. */

/** The repository's root directory. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A free TCP port on 127.0.0.1 (the one helper the scripts share). */
export { freePort };

/** A started server: its process, endpoint, control token (when it has one), output so far, and how to stop it. */
export interface Started {
  child: ChildProcess;
  url: string;
  port: number;
  token?: string;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

function stopper(child: ChildProcess) {
  return (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      try {
        process.kill(-child.pid!, signal);
      } catch {
        resolve();
      }
    });
}

/** A child's stdout and stderr as one text, kept as it arrives. */
function keepOutput(child: ChildProcess): () => string {
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return () => out;
}

/**
 * The first match of `pattern` in what `child` printed, checked as stdout arrives; rejects with
 * everything it printed when it exits first or `ms` pass (`what` names it in the error).
 */
function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp, what: string, ms: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${output()}`)), ms);
    child.stdout!.on('data', () => {
      const m = pattern.exec(output());
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${output()}`));
    });
  });
}

/** Which Node runs which copy of the CLI (default: this Node, the repository's bin/mcp-loupe.mjs). */
interface CliRuntime {
  node?: string;
  entry?: string;
}

/** Start `mcp-loupe mock ...` and wait for its READY line. */
export async function startCliMock(args: string[], env: Record<string, string> = {}, runtime: CliRuntime = {}): Promise<Started> {
  const { node = process.execPath, entry = path.join(ROOT, 'bin', 'mcp-loupe.mjs') } = runtime;
  const child = spawn(node, [entry, 'mock', ...args, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const ready = await waitForOutput(child, output, /READY (http:\/\/\S+)/, 'mock', 15_000);
  const url = ready[1]!;
  const token = /control token: (\S+)/.exec(output())?.[1];
  return { child, url, port: Number(new URL(url).port), token, output, stop: stopper(child) };
}

/** How `mcp-loupe` is run and where (default: this Node, the repository's bin, in the repository, with this process's environment). */
interface OpenRuntime {
  command?: string[];
  cwd?: string;
  baseEnv?: NodeJS.ProcessEnv;
}

/**
 * Start `mcp-loupe [args]` (the default command, `open`) with `--no-open` and wait for the line
 * with its URL; `url` is that whole URL (token and connection query included). `runtime` runs
 * another copy, e.g. `npx mcp-loupe` in a folder the packed tarball was installed into.
 */
export async function startCliOpen(args: string[], env: Record<string, string> = {}, runtime: OpenRuntime = {}): Promise<Started> {
  const [command = process.execPath, ...prefix] = runtime.command ?? [process.execPath, path.join(ROOT, 'bin', 'mcp-loupe.mjs')];
  const child = spawn(command, [...prefix, '--no-open', ...args], {
    cwd: runtime.cwd ?? ROOT,
    env: { ...(runtime.baseEnv ?? process.env), ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const url = (await waitForOutput(child, output, /Loupe is running: (http:\/\/\S+)/, 'mcp-loupe', 30_000))[1]!;
  const parsed = new URL(url);
  return { child, url, port: Number(parsed.port), token: parsed.searchParams.get('token') ?? undefined, output, stop: stopper(child) };
}

/**
 * The environment of a shell in another folder: without the npm_* variables an outer `npm test`
 * sets (they name this checkout: its prefix, its package.json, its lifecycle).
 */
export function shellEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'INIT_CWD'));
}

/**
 * Start the app server as `npm start` runs it (scripts/serve.mjs: Loupe's routes and the pages'
 * static export on one node:http server) on a free port with its own data directory; waits
 * until /healthz answers. Needs `npm run build` (dist/cli.mjs and dist/app).
 */
export async function startApp(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const token = `test-token-${Math.random().toString(36).slice(2)}`;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOUPE_DATA_DIR: dataDir, LOUPE_TOKEN: token, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app server exited:\n${output()}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the app server did not answer:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url: `${base}/mcp`, port, token, output, stop: stopper(child) };
}

/**
 * Start the official SDK v2 server of tests/e2e/fixtures/sdk-server.mjs on a free port (`env`:
 * e.g. LOG_HEADER) and wait for its READY line; `output` is what it printed so far.
 */
export async function startSdkServer(
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'tests/e2e/fixtures/sdk-server.mjs'), '0'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const url = (await waitForOutput(child, output, /READY (http:\/\/\S+)/, 'SDK server', 15_000))[1]!;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, child, output, stop };
}

/**
 * Start `mcp-loupe tap [args] --port 0` (HTTP: `['--upstream', url, '--data-dir', dir]`) and wait
 * for its READY line on stdout; `url` is the local endpoint a client is pointed at. `stop`
 * ends it with SIGTERM (as a client's host would) and waits for the exit.
 */
export async function startTapProcess(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'mcp-loupe.mjs'), 'tap', ...args, '--port', '0'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const url = (await waitForOutput(child, output, /READY (http:\/\/\S+)/, 'tap', 30_000))[1]!;
  return { child, url, port: Number(new URL(url).port), output, stop: stopper(child) };
}

/** `mcp-loupe replay FILE` on a free port, ready once it printed its READY line. */
export async function startReplayProcess(file: string, extra: string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'mcp-loupe.mjs'), 'replay', file, '--port', '0', ...extra], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const url = (await waitForOutput(child, output, /READY (http:\/\/\S+)/, 'replay', 15_000))[1]!;
  return { child, url, port: Number(new URL(url).port), output, stop: stopper(child) };
}

/** Pids of live (not zombie) processes whose command line contains `needle`, from /proc. */
export function pidsWith(needle: string): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8');
      const state = /^State:\s+(\w)/m.exec(fs.readFileSync(`/proc/${d}/status`, 'utf8'))?.[1];
      if (cmd.includes(needle) && state !== 'Z') out.push(Number(d));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** The built CLI (`npm run build:cli`). */
export const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');

/** How a CLI run ended: its exit code (1 when it was killed), its output, how long it took. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Run the built CLI to its end, killed after `timeoutMs`; `env` is added to this process's environment. */
export function runCli(args: string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const env = { ...process.env, ...options.env };
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: options.timeoutMs ?? 60_000, env }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
