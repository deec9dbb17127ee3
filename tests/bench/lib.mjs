// Shared helpers for the benchmark sections: process start/stop, percentiles, MCP requests.
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { freePort } from '../../scripts/free-port.mjs';

export { freePort };

export const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: { form: {} } },
};

export function headers(method, name) {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(name ? { 'Mcp-Name': name } : {}),
  };
}

export function body(id, method, params = {}) {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });
}

export async function rpc(url, method, params = {}, name) {
  const res = await fetch(url, { method: 'POST', headers: headers(method, name), body: body(Math.floor(Math.random() * 1e9), method, params) });
  return res.json();
}

export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Spawn a server process and wait for a READY line (or for `ready(url)` to resolve). */
export async function startProcess(cmd, args, { env = {}, readyPattern = /READY (http:\/\/\S+)/, cwd } = {}) {
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no READY from ${args.join(' ')}:\n${out}`)), 60_000);
    const on = (d) => {
      out += d;
      const m = readyPattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', on);
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (c) => reject(new Error(`exited ${c}:\n${out}`)));
  });
  const readyMs = performance.now() - t0;
  return {
    url,
    pid: child.pid,
    readyMs,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          resolve();
        }
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
        }, 5000).unref();
      }),
  };
}

/** The app server as `npm start` runs it (scripts/serve.mjs: Loupe's routes and the exported pages) on a free port. */
export async function startApp({ root, dataDir, token = 'bench-token' }) {
  const port = await freePort();
  const p = await startProcess(process.execPath, [`${root}/scripts/serve.mjs`], {
    cwd: root,
    env: { HOST: '127.0.0.1', PORT: String(port), LOUPE_DATA_DIR: dataDir, LOUPE_TOKEN: token },
    readyPattern: /Loupe is (running)/,
  });
  return { port, stop: p.stop };
}

/** Debian's Chromium, headless, with the flags this machine needs (as the e2e tests launch it). */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}
