import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { toHar } from '../../../lib/recording/har-export';
import { createRecorder } from '../../../lib/recording/recorder';
import { redactRecording } from '../../../lib/recording/redact';
import { serializeRecording } from '../../../lib/recording/schema';
import { recordingToScenarioYaml } from '../../../lib/recording/to-scenario';

/**
 * Secrets found by the name they travel under, whatever its spelling (snake, kebab, camel,
 * upper case), and two text shapes with no name: `Basic <base64 of user:password>` and a URL's
 * `user:password@`. Ids, settings, prose and base64 that only look alike stay as they are.
 */

let seq = 0;
const frame = (direction: Frame['direction'], body: unknown, raw?: string): Frame => ({
  seq: seq++,
  connectionId: 'c1',
  at: 1_000 + seq,
  direction,
  kind: direction === 'out' ? 'http-request' : 'sse-frame',
  exchangeId: 'c1:1',
  rpcId: 1,
  method: 'tools/call',
  bytes: 10,
  body,
  ...(raw !== undefined ? { raw } : {}),
});

/** A call with these arguments, and a result that echoes them as text and as structured content. */
function recordingOf(args: Record<string, unknown>) {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'kv', arguments: args } };
  const result = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args } };
  const frames = [frame('out', call), frame('in', result, `event: message\ndata: ${JSON.stringify(result)}\n\n`)];
  return createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1:3/mcp' }), frames }).build();
}

/** Field name → its value, every spelling of the names the review promises to catch. */
const NAMED: Record<string, string> = {
  session_token: 'SessTok_dddd4444',
  'x-api-key': 'XApiKey_iiii9999',
  private_key: 'PrivKey_jjjj0000',
  access_key: 'AccessKey_kkkk1234',
  secret_access_key: 'SecretAccess_llll5678',
  auth: 'AuthField_mmmm9012',
  bearer: 'BearerField_rrrr9753',
  cookie: 'sid=CookieVal_nnnn3456',
  credentials: 'CredVal_oooo7890',
  passphrase: 'PassPhrase_pppp1357',
  pwd: 'Pwd_qqqq2468',
  aws_secret: 'AwsSecret_vvvv8080',
  sessionToken: 'SessTokCamel_1234abcd',
  'Session-Token': 'SessTokKebab_5678efgh',
  XApiKey: 'XApiKeyCamel_9012ijkl',
  PRIVATE_KEY: 'PrivKeyUpper_3456mnop',
  secretAccessKey: 'SecretAccessCamel_7890qrst',
  AWS_SECRET: 'AwsSecretUpper_2468uvwx',
  dbPassword: 'DbPassword_1357yzab',
};

describe('secrets found by their name', () => {
  it('replaces every value of a secret-named field, in any spelling, in the export, its raw SSE text, the HAR and the scenario', () => {
    const recording = recordingOf(NAMED);
    const source = JSON.stringify(recording);
    for (const v of Object.values(NAMED)) expect(source).toContain(v);
    const { recording: out, items } = redactRecording(recording);
    const outputs = { file: serializeRecording(out), har: JSON.stringify(toHar(out)), scenario: recordingToScenarioYaml(out) };
    for (const [where, text] of Object.entries(outputs)) for (const [name, v] of Object.entries(NAMED)) expect(text, `${name} in ${where}`).not.toContain(v);
    const args = (out.frames[0]!.body as { params: { arguments: Record<string, string> } }).params.arguments;
    expect(args.session_token).toBe('redacted-token-1');
    expect(args['x-api-key']).toBe('redacted-api-key-1');
    expect(args.private_key).toBe('redacted-private-key-1');
    expect(args.cookie).toBe('redacted-cookie-1');
    expect(args.pwd).toMatch(/^redacted-password-\d$/);
    // The review lists each kind with its count (distinct values; each is in the call, the text, the structured content and the raw SSE).
    const byKind = Object.fromEntries(items.map((i) => [i.kind, i]));
    expect(byKind.token).toMatchObject({ distinct: 8, redacted: true });
    expect(byKind['api-key']).toMatchObject({ distinct: 5, redacted: true });
    expect(byKind['private-key']).toMatchObject({ distinct: 2, redacted: true });
    expect(byKind.cookie).toMatchObject({ distinct: 1, redacted: true });
    expect(byKind.password).toMatchObject({ distinct: 3, redacted: true });
    for (const kind of ['token', 'api-key', 'private-key', 'cookie', 'password'])
      expect(byKind[kind]!.occurrences, kind).toBeGreaterThanOrEqual(4 * byKind[kind]!.distinct);
    expect(byKind.password!.label).toMatch(/passphrase and pwd fields/);
    expect(byKind['private-key']!.label).toMatch(/private_key fields/);
  });

  it('replaces a Basic credential and a URL password written into text', () => {
    const basic = 'YWRtaW46UzNjcjN0UGFzcw=='; // admin:S3cr3tPass
    const recording = recordingOf({
      note: `curl -H "Authorization: Basic ${basic}" https://api.example.test`,
      dsn: 'postgres://admin:DsnPass_uuuu2222@db:5432/x',
      short: 'connect to mysql://root:pw9@localhost/app',
    });
    const { recording: out, items } = redactRecording(recording);
    const file = serializeRecording(out);
    for (const v of [basic, 'DsnPass_uuuu2222', 'root:pw9@']) expect(file, v).not.toContain(v);
    const args = (out.frames[0]!.body as { params: { arguments: Record<string, string> } }).params.arguments;
    expect(args.note).toBe('curl -H "Authorization: Basic redacted-credential-1" https://api.example.test');
    expect(args.dsn).toBe('postgres://admin:redacted-password-1@db:5432/x');
    expect(args.short).toBe('connect to mysql://root:redacted-password-2@localhost/app');
    const byKind = Object.fromEntries(items.map((i) => [i.kind, i]));
    expect(byKind.authorization).toMatchObject({ distinct: 1, redacted: true });
    expect(byKind.authorization!.label).toMatch(/Basic credentials/);
    expect(byKind.password).toMatchObject({ distinct: 2, redacted: true });
    expect(byKind.password!.label).toMatch(/URL user info/);
  });

  it('leaves ids, settings, prose, URLs without a password and base64 that is no credential as they are', () => {
    const recording = recordingOf({
      progressToken: 'progress-1234-abcd',
      pageToken: 'page-0002-cursor',
      auth: 'none',
      credentials: 'include',
      tokenizer: 'cl100k_base',
      keyboard: 'dvorak-layout-2',
      note: 'Basic usage: see basic authentication in RFC 7617; Basic SGVsbG8gd29ybGQ= is not a credential.',
      links: 'https://user@example.test/a and https://example.test:8443/path?q=1 and mailto:someone@example.test',
      image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkAAAAABJRU5ErkJggg==',
      id: '9f2c1e7a-4b3d-4e8f-a1b2-c3d4e5f6a7b8',
    });
    const { recording: out, items } = redactRecording(recording);
    expect(items).toEqual([]);
    expect(out.frames.map((f) => f.body)).toEqual(recording.frames.map((f) => f.body));
    expect(out.frames[1]!.raw).toBe(recording.frames[1]!.raw);
  });
});
