import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecording } from '../../lib/recording/schema';
import { type CliRun, ROOT, runCli } from '../helpers/processes';

/**
 * A stdio server's line that answers nothing (not JSON, or a response under an id no request
 * has) is shown at once: a warning line from the CLI while the request still waits (stdio gives
 * no way to know the line was meant as its answer), and a frame flagged invalid in the recording.
 */

describe('stdio lines that answer no request', () => {
  let dir: string;
  let file: string;
  let run: CliRun;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-stray-'));
    file = path.join(dir, 'stray.loupe.json');
    const server = ['--', process.execPath, path.join(ROOT, 'tests/fixtures/servers/stray-lines.mjs')];
    run = await runCli(['tools', '--era', 'legacy', '--timeout', '2000', '--record', file, ...server], { timeoutMs: 30_000 });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('warns of each one before the request that waits in vain times out', () => {
    const lines = run.stderr.split('\n');
    const banner = lines.findIndex((l) => l.startsWith('warning: the server wrote a line that answers no request (not JSON'));
    const stray = lines.findIndex((l) => l.includes('a response with id "not-') && l.includes('matches no request in flight'));
    const timeout = lines.findIndex((l) => l.startsWith('mcp-loupe:') && l.includes('timeout'));
    expect(banner).toBeGreaterThanOrEqual(0);
    expect(lines[banner]).toContain('stray-lines server starting (not JSON)');
    expect(stray).toBeGreaterThan(banner);
    expect(timeout).toBeGreaterThan(stray);
    expect(run.code).not.toBe(0);
  });

  it('records each one as a frame flagged invalid', () => {
    const opened = parseRecording(fs.readFileSync(file, 'utf8'));
    if (!opened.ok) throw new Error(opened.error);
    const flagged = opened.recording.frames.filter((f) => f.kind === 'message' && f.direction === 'in' && f.errorText);
    expect(flagged).toHaveLength(2);
    expect(flagged[0]?.raw).toBe('stray-lines server starting (not JSON)');
    expect(flagged[0]?.errorText).toContain('not JSON');
    expect(JSON.stringify(flagged[1]?.body)).toContain('"id":"not-');
    expect(flagged[1]?.errorText).toContain('matches no request in flight');
  });
});
