import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecording, serializeRecording } from '../../lib/recording/schema';
import { ROOT, runCli, startCliMock, type Started } from '../helpers/processes';

/**
 * A real 2025-11-25 server (SDK 1.32.2, stdio) recorded with `call --record` and
 * `get-prompt --record`, exported with `export --scenario`, validated and served by `mock`: our
 * CLI gets the same answers from the mock as from the server, the mock asks the same question
 * (elicitation/create, seen in a recording of the call against the mock), reports the same
 * progress and has the prompt that was got. What is valid MCP but not a valid scenario is fitted,
 * with a note on stderr.
 */

const SERVER = ['--', process.execPath, path.join(ROOT, 'tests/fixtures/servers/sdk1-recorded.mjs')];
const STUB = ['--elicit-stub', '{"name":"Zed"}'];
let dir: string;
let mock: Started | undefined;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-rec-scenario-'));
});
afterAll(async () => {
  await mock?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The elicitation requests a recording holds, in order. */
function askedIn(file: string): unknown[] {
  const opened = parseRecording(fs.readFileSync(file, 'utf8'));
  if (!opened.ok) throw new Error(opened.error);
  return opened.recording.frames.flatMap((f) => {
    const body = f.body as { method?: string; id?: unknown; params?: { message?: string } } | undefined;
    return f.direction === 'in' && body?.method === 'elicitation/create' && body.id !== undefined ? [body.params?.message] : [];
  });
}

describe('recording an SDK 1.32.2 server, then mocking it from the exported scenario', () => {
  it('keeps the elicitation, the progress and the prompt', async () => {
    const rec = path.join(dir, 'server.loupe.json');
    const yaml = path.join(dir, 'server.yaml');
    const fromServer = [
      await runCli(['call', 'ask', ...STUB, '--record', rec, ...SERVER]),
      await runCli(['call', 'slow', 'steps=2', '--record', rec, ...SERVER]),
      await runCli(['get-prompt', 'greet', 'name=Al', '--record', rec, ...SERVER]),
    ];
    for (const r of fromServer) expect(r.code, r.stderr).toBe(0);
    expect(fromServer[0].stdout).toContain('hello Zed');
    expect(fromServer[1].stderr).toContain('progress 2/2 — step 2');
    expect(fromServer[2].stdout).toContain('Greet Al warmly');
    expect(askedIn(rec)).toEqual(['What is your name?']);

    const exported = await runCli(['export', rec, '--out', yaml, '--scenario']);
    expect(exported.code, exported.stderr).toBe(0);
    const validated = await runCli(['validate', yaml]);
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);

    // A server may add a key of its own to a content block (valid MCP, not a valid scenario):
    // the export drops it, says so on stderr, and the file still validates.
    const opened = parseRecording(fs.readFileSync(rec, 'utf8'));
    if (!opened.ok) throw new Error(opened.error);
    for (const f of opened.recording.frames) {
      const content = (f.body as { result?: { content?: Record<string, unknown>[] } } | undefined)?.result?.content;
      if (content?.[0]?.text === 'hello Zed') content[0].vendorScore = 0.9;
    }
    const tagged = path.join(dir, 'tagged.loupe.json');
    fs.writeFileSync(tagged, serializeRecording(opened.recording));
    const fitted = await runCli(['export', tagged, '--out', path.join(dir, 'tagged.yaml'), '--scenario']);
    expect(fitted.code, fitted.stderr).toBe(0);
    expect(fitted.stderr).toContain('scenario: tool ask result content[0]: dropped key vendorScore of a text block');
    expect((await runCli(['validate', path.join(dir, 'tagged.yaml')])).code).toBe(0);

    mock = await startCliMock([yaml, '--data-dir', path.join(dir, 'mock')]);
    const url = ['--url', mock.url];
    const againRec = path.join(dir, 'mock.loupe.json');
    const fromMock = [
      await runCli(['call', 'ask', ...STUB, '--record', againRec, ...url]),
      await runCli(['call', 'slow', 'steps=2', ...url]),
      await runCli(['get-prompt', 'greet', 'name=Al', ...url]),
    ];
    for (const [i, r] of fromMock.entries()) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(fromServer[i].stdout);
    }
    // The mock asked the recorded question before answering, and reported the recorded progress.
    expect(askedIn(againRec)).toEqual(['What is your name?']);
    expect(fromMock[1].stderr).toContain('progress 1/2 — step 1');
    expect(fromMock[1].stderr).toContain('progress 2/2 — step 2');
  }, 90_000);
});
