import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCliMock } from '../helpers/processes';

/**
 * `mcp-loupe mock --report FILE` in a CI run: the report is written however the runner ends the
 * mock (SIGINT, SIGTERM, SIGHUP when it closes the terminal), and a path it could not write is
 * refused at the start, not found at the end of the run. Needs `npm run build:cli`.
 */

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-mock-report-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('mcp-loupe mock --report', () => {
  it.each(['SIGHUP', 'SIGINT', 'SIGTERM'] as const)('writes the report and exits 0 on %s', async (signal) => {
    const dir = tmp();
    const file = path.join(dir, 'report.json');
    const mock = await startCliMock(['demo', '--store', 'memory', '--report', file]);
    // The check at start made its probe file and removed it: nothing stray in the report's directory.
    expect(fs.readdirSync(dir)).toEqual([]);
    await mock.stop(signal);
    expect(mock.child.signalCode).toBeNull();
    expect(mock.child.exitCode).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toHaveProperty('grades');
  });

  it('refuses at start, exit 2, a path it could not write when it stops', async () => {
    const dir = tmp();
    const aFile = path.join(dir, 'a-file');
    fs.writeFileSync(aFile, '');
    const cases: [string, string][] = [
      ['/proc/nope.xml', '--report /proc/nope.xml: cannot create a file in /proc (no such file); give a path in a directory you can write'],
      [path.join(aFile, 'sub', 'r.xml'), `--report ${path.join(aFile, 'sub', 'r.xml')}: ${aFile} is a file, not a directory; give a path in a directory`],
      [dir, `--report ${dir} is a directory: give a file path like ${path.join(dir, 'report.xml')}`],
    ];
    for (const [report, message] of cases) {
      const run = await runCli(['mock', 'demo', '--port', '0', '--store', 'memory', '--report', report], { timeoutMs: 10_000 });
      expect(run.stdout).not.toContain('READY');
      expect(run.stderr).toBe(`mcp-loupe: ${message}\n`);
      expect(run.code).toBe(2);
    }
    expect(fs.readdirSync(dir)).toEqual(['a-file']);
  });
});
