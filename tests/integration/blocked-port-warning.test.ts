import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes';

/**
 * Every command that serves on a port the user picks says so when browsers and fetch-based
 * clients refuse that port (the fetch standard's blocked ports): it still serves, since curl
 * and raw sockets reach it, but a person pointing an SDK client there would otherwise see
 * nothing arrive and not know why.
 */

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-blocked-port-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Run `mcp-loupe ...args` until its READY line, then stop it; what it printed on stderr, and the READY line. */
function serveOnce(args: string[]): Promise<{ stderr: string; ready: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no READY line:\n${stdout}\n${stderr}`));
    }, 30_000);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const ready = /READY \S+/.exec(stdout)?.[0];
      if (!ready) return;
      clearTimeout(timer);
      child.once('exit', () => resolve({ stderr, ready }));
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!/READY/.test(stdout)) reject(new Error(`exited with ${code} before READY:\n${stdout}\n${stderr}`));
    });
  });
}

const WARNING = /refuse to reach; curl and raw sockets still do/;

describe('a blocked port given to a serving command', () => {
  // Ports from the fetch standard's list that need no privileges; one per command, so the three
  // never race for the same port.
  it.each([
    ['mock', ['mock', 'demo', '--store', 'memory', '--port', '10080']],
    ['replay', ['replay', path.join(ROOT, 'tests', 'fixtures', 'recordings', 'v2.json'), '--port', '6665']],
    ['tap', ['tap', '--upstream', 'http://127.0.0.1:9/mcp', '--data-dir', dataDir, '--port', '6666']],
  ])('%s serves but warns that browsers and fetch clients refuse it', async (command, args) => {
    const { stderr, ready } = await serveOnce(args);
    expect(ready).toMatch(/READY http:\/\/127\.0\.0\.1:(10080|6665|6666)/);
    expect(stderr).toMatch(new RegExp(`mcp-loupe ${command}: port \\d+ is one that browsers \\(ERR_UNSAFE_PORT\\)`));
    expect(stderr).toMatch(WARNING);
  });

  it('says nothing on an ordinary port', async () => {
    const { stderr } = await serveOnce(['mock', 'demo', '--store', 'memory', '--port', '0']);
    expect(stderr).not.toMatch(WARNING);
  });
});
