import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactFrame } from '../../lib/client/frames';
import { importHar } from '../../lib/recording/har-import';
import { collectSecrets } from '../../lib/recording/secrets';
import { parseRecording, type Recording } from '../../lib/recording/schema';
import { parseScenario } from '../../lib/scenario/loader';
import { startCliMock, type Started, runCli, type CliRun, startReplayProcess } from '../helpers/processes';

/**
 * Recordings from the command line, over real HTTP: a scripted client session against the
 * demo mock is recorded with `--record`, the mock is stopped, `mcp-loupe replay` serves the
 * recording, and the same commands succeed again with the same output. `mcp-loupe export`
 * writes it redacted (no token, Authorization value or raw task id in the file), as HAR and
 * as a scenario.
 */

const BEARER = 'cli-secret-bearer-5c1f0e9d8a7b6c5d4e3f2a1b';
const BEARER_2 = 'cli-second-bearer-0a9b8c7d6e5f4a3b2c1d0e9f';
// What a user pastes into a tool argument: a provider key and a short password in prose.
const PASTED_KEY = 'sk-live-ABCDEF1234567890abcdef';
const PASTED = `text=my key is ${PASTED_KEY} and password hunter2`;

const cli = (args: string[], env: Record<string, string> = {}, timeoutMs?: number) => runCli(args, { env, timeoutMs });

/** The scripted client session: discovery, a plain call with a bearer token, a task with input, MRTR, an idempotent charge. */
const session = (url: string): string[][] => [
  ['discover', '--url', url],
  ['call', 'echo', PASTED, '--url', url, '--header', `Authorization: Bearer ${BEARER}`],
  ['call', 'generate_report', 'size=small', '--task', '--wait', '--elicit-stub', '{"approved":true}', '--url', url],
  ['call', 'delete_note', 'noteId=note-3', '--elicit-stub', '{"confirm":true}', '--url', url],
  ['call', 'charge', 'account=acct-9', 'amountCents=250', 'idempotencyKey=rec-key-1', '--json', '--url', url],
];

describe('mcp-loupe call --record, replay and export', () => {
  let dir: string;
  let mock: Started | undefined;
  let file: string;
  const recorded: CliRun[] = [];
  const redactedRuns: CliRun[] = [];
  let redactedFile: string;
  let recording: Recording;
  let autosaved: CliRun;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-rec-cli-'));
    file = path.join(dir, 'session.loupe.json');
    redactedFile = path.join(dir, 'redacted.loupe.json');
    mock = await startCliMock(['demo', '--data-dir', path.join(dir, 'data')]);
    // Kept as sent (--no-redact), so the export tests below have secrets to find.
    for (const args of session(mock.url)) recorded.push(await cli([...args, '--record', file, '--no-redact']));
    // Two sessions appended to one file, recorded as by default: redacted on the way to the disk.
    for (const bearer of [BEARER, BEARER_2])
      redactedRuns.push(await cli(['call', 'echo', PASTED, '--url', mock.url, '--header', `Authorization: Bearer ${bearer}`, '--record', redactedFile]));
    redactedRuns.push(
      await cli([
        'call',
        'generate_report',
        'size=small',
        '--task',
        '--wait',
        '--elicit-stub',
        '{"approved":true}',
        '--url',
        mock.url,
        '--record',
        redactedFile,
      ]),
    );
    autosaved = await cli(['tools', '--url', mock.url, '--record'], { LOUPE_DATA_DIR: path.join(dir, 'autosave') });
    await mock.stop();
    mock = undefined;
    const opened = parseRecording(fs.readFileSync(file, 'utf8'));
    if (!opened.ok) throw new Error(opened.error);
    recording = opened.recording;
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes --record redacted by default, appended sessions keeping their own pseudonyms', () => {
    expect(redactedRuns.map((r) => r.code)).toEqual([0, 0, 0]);
    const text = fs.readFileSync(redactedFile, 'utf8');
    for (const leak of [BEARER, BEARER_2, PASTED_KEY, 'hunter2']) expect(text, leak).not.toContain(leak);
    const opened = parseRecording(text);
    if (!opened.ok) throw new Error(opened.error);
    const calls = opened.recording.frames.filter((f) => f.kind === 'http-request' && f.method === 'tools/call');
    // Each session's bearer has its own pseudonym: the second was not given the first one's number again.
    expect(calls.map((f) => f.headers?.authorization).filter(Boolean)).toEqual(['Bearer redacted-credential-1', 'Bearer redacted-credential-2']);
    // Task ids too: what the server handed out is never on disk.
    const taskIds = opened.recording.frames.map((f) => f.taskId).filter((t): t is string => !!t);
    expect(taskIds.length).toBeGreaterThan(0);
    for (const id of taskIds) expect(id).toMatch(/^task\d{4}-redacted$/);
    expect(collectSecrets(opened.recording)).toEqual([]);
  });

  it('records every command of the session into one file', () => {
    expect(recorded.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
    expect(recorded[0].stderr).toContain(`recorded 3 frames to ${file}`);
    expect(recorded[4].stderr).toMatch(/appended to .*session\.loupe\.json \(\d+ frames in all\)/);
    const methods = recording.frames.filter((f) => f.kind === 'http-request').map((f) => f.method);
    expect(methods).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call', 'tasks/get', 'tasks/update']));
    expect(new Set(recording.frames.map((f) => f.connectionId)).size).toBe(5);
    expect(recording.connection.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(JSON.stringify(recording.connection)).not.toContain(BEARER);
  });

  it('answers a call the recording does not hold with an error naming it (the closest recorded call in data); --loose falls back to method order', async () => {
    const replay = await startReplayProcess(file);
    try {
      const strict = await cli(['call', 'echo', 'text=hi', '--json', '--url', replay.url]);
      expect(strict.code).toBe(1);
      const doc = JSON.parse(strict.stdout);
      expect(doc.error.message).toContain('tools/call {"arguments":{"text":"hi"},"name":"echo"} was never recorded');
      expect(doc.error.rpc).toMatchObject({
        code: -32602,
        data: { closest: { method: 'tools/call', params: { name: 'echo', arguments: { text: PASTED.slice('text='.length) } } } },
      });
      expect(doc.result).toBeUndefined();
      expect(replay.output()).toContain('replay: tools/call is not in the recording');
    } finally {
      await replay.stop();
    }
    const loose = await startReplayProcess(file, ['--loose']);
    try {
      const run = await cli(['call', 'echo', 'text=hi', '--url', loose.url]);
      expect(run.code).toBe(0);
      expect(loose.output()).toContain('params differ from every recording');
    } finally {
      await loose.stop();
    }
  });

  it('autosaves under <data dir>/recordings/ when --record names no file', () => {
    expect(autosaved.code).toBe(0);
    const saved = fs.readdirSync(path.join(dir, 'autosave', 'recordings'));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.loupe\.json$/);
    expect(autosaved.stderr).toContain(saved[0]);
    const opened = parseRecording(fs.readFileSync(path.join(dir, 'autosave', 'recordings', saved[0]), 'utf8'));
    expect(opened.ok && opened.recording.frames.filter((f) => f.kind === 'http-request').map((f) => f.method)).toEqual(['server/discover', 'tools/list']);
  });

  it('replays the recording as a mock that satisfies the same client run, with the same output', async () => {
    // The mock is gone: nothing answers at its address any more.
    const gone = await fetch(recording.connection.target, { method: 'POST' }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(gone).toBe('refused');
    const replay = await startReplayProcess(file);
    try {
      expect(replay.output()).toMatch(/mcp-loupe replay: \d+ recorded exchanges from /);
      const again: CliRun[] = [];
      for (const args of session(replay.url)) again.push(await cli(args));
      expect(again.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
      again.forEach((run, i) => {
        expect(run.stdout).toBe(recorded[i].stdout);
        expect(run.stderr).toBe(recorded[i].stderr.replace(/^recorded .*\n/m, ''));
      });
      expect(again[2].stdout).toContain('Report ready: "Notes report (small)"');
      expect(replay.output()).not.toContain('no recorded answer');
    } finally {
      await replay.stop();
    }
  });

  it('refuses a forged Host and binding every interface without --allow-remote', async () => {
    const replay = await startReplayProcess(file);
    try {
      const port = Number(new URL(replay.url).port);
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { Host: 'attacker.example', 'Content-Type': 'application/json' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end('{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}');
      });
      expect(status).toBe(403);
    } finally {
      await replay.stop();
    }
    const open = await cli(['replay', file, '--host', '0.0.0.0', '--port', '0']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('Refusing to bind 0.0.0.0');
  });

  it('exports redacted by default: the file holds no token, Authorization value or raw task id', async () => {
    const out = path.join(dir, 'shared.loupe.json');
    const run = await cli(['export', file, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/replaced +1 × Authorization credentials/);
    expect(run.stderr).toMatch(/replaced +1 × Task ids/);
    // Secrets pasted into message text (the echo's argument and its result) are found, listed and replaced.
    expect(run.stderr).toMatch(/replaced +1 × Provider keys[^\n]*: 2 place\(s\)/);
    expect(run.stderr).toMatch(/replaced +1 × Passwords[^\n]*: 2 place\(s\)/);
    const text = fs.readFileSync(out, 'utf8');
    expect(JSON.stringify(recording.frames)).toContain(PASTED_KEY);
    expect(text).not.toContain(PASTED_KEY);
    expect(text).not.toContain('hunter2');
    expect(text).toContain('my key is redacted-provider-key-1 and password redacted-password-1');
    const secrets = collectSecrets(recording);
    const taskIds = [...new Set(recording.frames.map((f) => f.taskId).filter((t): t is string => !!t))];
    expect(taskIds).toHaveLength(1);
    expect(secrets.map((s) => s.value)).toEqual(expect.arrayContaining([BEARER, ...taskIds]));
    for (const s of secrets) expect(text, `${s.kind} leaked`).not.toContain(s.value);
    expect(text).toContain('task0001-redacted');
    expect(parseRecording(text)).toMatchObject({
      ok: true,
      recording: { redaction: { counts: { authorization: 1, 'task-id': 1, 'provider-key': 1, password: 1 } } },
    });
    const raw = await cli(['export', file, '--out', path.join(dir, 'raw.json'), '--no-redact']);
    expect(raw.stderr).toContain('warning: --no-redact');
    expect(fs.readFileSync(path.join(dir, 'raw.json'), 'utf8')).toContain(BEARER);
  });

  it('exports HAR 1.2 that opens again as the same frames, and a scenario that validates', async () => {
    const harFile = path.join(dir, 'session.har');
    expect((await cli(['export', file, '--out', harFile, '--har'])).code).toBe(0);
    const harText = fs.readFileSync(harFile, 'utf8');
    for (const leak of [BEARER, PASTED_KEY, 'hunter2']) expect(harText).not.toContain(leak);
    const har = importHar(JSON.parse(harText));
    if (!har.ok) throw new Error(har.error);
    const redacted = parseRecording(fs.readFileSync(path.join(dir, 'shared.loupe.json'), 'utf8'));
    if (!redacted.ok) throw new Error(redacted.error);
    // The file stores each message once (raw only where it differs from the body's JSON).
    expect(har.recording.frames.map(compactFrame)).toEqual(redacted.recording.frames);
    const yamlFile = path.join(dir, 'scenario.yaml');
    expect((await cli(['export', harFile, '--out', yamlFile, '--scenario', '--id', 'replayed-demo'])).code).toBe(0);
    const parsed = parseScenario(fs.readFileSync(yamlFile, 'utf8'), 'scenario.yaml');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.scenario.tools.find((t) => t.name === 'generate_report')?.task?.steps.length).toBeGreaterThanOrEqual(3);
    const validate = await cli(['validate', yamlFile]);
    expect(validate.stdout + validate.stderr).toContain('valid scenario "replayed-demo"');
  });
});
