import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPS, callTool } from '../helpers/rpc';
import { ROOT, startCliMock, type Started } from '../helpers/processes';
import { httpTarget } from './http-target';

/**
 * The CLI's stdout closed under it, as `mcp-loupe read … | head -1` does once head has its line:
 * it stops quietly (no EPIPE stack trace, exit 0), whichever command was writing.
 */

const CLI = path.join(ROOT, 'bin', 'mcp-loupe.mjs');

/** Run the CLI with its stdout (or stderr) pipe closed by this side at once, so every write to it hits EPIPE. */
function cliIntoClosedPipe(args: string[], closed: 'stdout' | 'stderr' = 'stdout'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child[closed].destroy();
    let stderr = '';
    if (closed === 'stdout') child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout', () => {
  let mock: Started;
  beforeAll(async () => {
    mock = await startCliMock(['demo', '--store', 'memory']);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('ends read, task get and --help quietly with exit 0', async () => {
    const target = httpTarget(mock.url);
    const created = await callTool(target, 'generate_report', { size: 'small' }, target.opts({ caps: CAPS.formAndTasks }));
    const taskId = created.body.result.taskId as string;
    for (const args of [['read', 'ui://notes/timeline.html', '--url', mock.url], ['task', 'get', taskId, '--url', mock.url], ['--help']]) {
      const r = await cliIntoClosedPipe(args);
      expect({ args, ...r }).toEqual({ args, code: 0, stderr: '' });
    }
  });

  it('keeps the exit code of a command whose error message finds stderr closed', async () => {
    // A usage mistake exits 2; the unhandled EPIPE on stderr made it 1.
    expect((await cliIntoClosedPipe(['task', 'get', '--url', mock.url], 'stderr')).code).toBe(2);
  });
});
