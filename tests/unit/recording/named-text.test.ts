import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { createRecorder } from '../../../lib/recording/recorder';
import { redactRecording } from '../../../lib/recording/redact';
import { serializeRecording } from '../../../lib/recording/schema';

/**
 * Secrets a server's result, a user's form answer or a stdio command line carries under a name
 * the older rules missed: structured fields (`private_key_id`, `sessionId`, `cookieJar`, a
 * generated `key` or `signature`, a PIN), credentials written as `name: value` in text, an
 * elicitation answer's second factor, and `--token VALUE` arguments. Common names keep ordinary
 * values: a map key, a function signature, a map pin, "token: expired".
 */

let seq = 0;
const frame = (direction: Frame['direction'], body: unknown): Frame => ({
  seq: seq++,
  connectionId: 'c1',
  at: 1_000 + seq,
  direction,
  kind: direction === 'out' ? 'http-request' : 'http-response',
  exchangeId: 'c1:1',
  rpcId: 1,
  method: 'tools/call',
  bytes: 10,
  body,
});

function recordingOf(structured: Record<string, unknown>, text = '', target = 'http://127.0.0.1:3/mcp', answer?: Record<string, unknown>) {
  const params = { name: 'leak', arguments: {}, ...(answer ? { inputResponses: { second: { action: 'accept', content: answer } } } : {}) };
  const frames = [
    frame('out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
    frame('in', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }], structuredContent: structured } }),
  ];
  return createRecorder({ connection: describeConnection({ target }), frames }).build();
}

// A `key` or `signature` counts when it looks random: 20 or more varied characters.
const STRUCTURED = {
  key: 'LEAKKEYVALUE01abcdX7q9',
  private_key_id: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  signature: 'LEAKSIG0000001xyzwQ4r8',
  otp: '493817',
  pin: '8264',
  cookieJar: 'sid=LEAKCOOKIEJAR1',
  sessionId: 'LEAKSESSIONID1',
  Mcp_Session_Id: 'LEAKMCPSESS001',
};
const PROSE = {
  'api_key=': 'LEAKAPIKEY123456',
  'token: ': 'LEAKTOKEN7890ab',
  'Authorization: Token ': 'LEAKAUTHTOKEN999',
  'X-Api-Key: ': 'LEAKXAPIKEY0001',
  'aws_secret_access_key=': 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'X-Custom-Auth: ': 's3cr3t-custom-42',
};

describe('secrets by name in fields, text, answers and command lines', () => {
  it('replaces secret-named structured fields, session ids and PINs', () => {
    const { recording: out } = redactRecording(recordingOf(STRUCTURED));
    const file = serializeRecording(out);
    for (const [name, v] of Object.entries(STRUCTURED)) expect(file, name).not.toContain(v);
    const result = (out.frames[1]!.body as { result: { structuredContent: Record<string, string> } }).result.structuredContent;
    expect(result.sessionId).toBe('session0001-redacted');
    expect(result.pin).toMatch(/^redacted-password-\d$/);
  });

  it('replaces credentials written as name: value in text', () => {
    const text = Object.entries(PROSE)
      .map(([name, v]) => `${name}${v}`)
      .join('\n');
    const { recording: out } = redactRecording(recordingOf({}, text));
    const file = serializeRecording(out);
    for (const [name, v] of Object.entries(PROSE)) expect(file, name).not.toContain(v);
    const redacted = (out.frames[1]!.body as { result: { content: { text: string }[] } }).result.content[0]!.text;
    expect(redacted).toContain('Authorization: Token redacted-credential-1');
    expect(redacted).toContain('api_key=redacted-api-key-');
  });

  it("replaces an elicitation answer's PIN, one-time code and recovery codes, not its other fields", () => {
    const answer = {
      pin: '8264',
      otp: '987654',
      recovery: 'RECOV-CODE-1',
      recoveryCodes: ['aaaa-bbbb', 'cccc-dddd'],
      name: 'Alice Example',
      code_of_conduct: 'agreed',
    };
    const { recording: out } = redactRecording(recordingOf({}, '', undefined, answer));
    const content = (out.frames[0]!.body as { params: { inputResponses: { second: { content: Record<string, unknown> } } } }).params.inputResponses.second
      .content;
    for (const name of ['pin', 'otp', 'recovery']) expect(content[name], name).toMatch(/^redacted-password-\d$/);
    expect(content.recoveryCodes).toEqual([expect.stringMatching(/^redacted-password-\d$/), expect.stringMatching(/^redacted-password-\d$/)]);
    expect(content.name).toBe('Alice Example');
    expect(content.code_of_conduct).toBe('agreed');
  });

  it('replaces a stdio command line\'s "--token VALUE" like "--password=VALUE", short values too', () => {
    const target = 'node server.mjs --token QQQCLITOKEN --password=QQQCLIPW --api-key abc1 --token-file /etc/tok --port 3000';
    const { recording: out } = redactRecording(recordingOf({}, '', target));
    expect(out.connection.target).toMatch(
      /^node server\.mjs --token redacted-token-\d --password=redacted-password-\d --api-key redacted-api-key-\d --token-file \/etc\/tok --port 3000$/,
    );
  });

  it("replaces the lists named in the plural, a set_cookie field and a connection string's keys and password", () => {
    const structured = {
      tokens: ['QQQI6tok1x', 'QQQI7tok2x'],
      apiKeys: ['QQQI8key1x'],
      secrets: ['QQQsecret01'],
      passwords: ['QQQpass01x'],
      access_keys: ['QQQaccess1x'],
      set_cookie: 'sid=QQQJ3cookie; HttpOnly',
      setCookie: 'sid=QQQJ4cookie; Path=/',
    };
    const text = [
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=QQQAazurekey0123456789abcdefABCDEF==;EndpointSuffix=core.windows.net',
      'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=QQQsaskey0123456789abcdefXYZ=',
      'Server=db.example.com;Database=app;User Id=sa;Password=QQQdbpass9;',
    ].join('\n');
    const { recording: out, items } = redactRecording(recordingOf(structured, text));
    expect(serializeRecording(out).match(/QQQ\w*/g)).toBeNull();
    const redacted = (out.frames[1]!.body as { result: { content: { text: string }[] } }).result.content[0]!.text;
    expect(redacted).toMatch(/;AccountKey=redacted-api-key-\d;EndpointSuffix=/);
    expect(redacted).toMatch(/;SharedAccessKey=redacted-api-key-\d$/m);
    expect(redacted).toMatch(/;Password=redacted-password-\d;/);
    // The review names them, so a person sees that the export found the connection string's key.
    expect(items.find((i) => i.kind === 'api-key')?.distinct).toBeGreaterThanOrEqual(4);
    expect(items.find((i) => i.kind === 'cookie')?.distinct).toBe(2);
  });

  it('keeps postal PIN codes, paging cursors, counts of tokens and ids people write under key and sig', () => {
    const plain = {
      pinCode: '560001',
      pin_code: '10115',
      pincode: '110001',
      nextToken: 'eyJvZmZzZXQiOjIwfQ',
      next_token: 'b2Zmc2V0PTQw',
      continuationToken: 'c29tZS1jdXJzb3ItMjAyNA',
      syncToken: 'sync-2024-06-01-0001',
      NextPageToken: 'CAoQAA',
      usage: { total_tokens: '123456789', maxTokens: '40960000' },
      storage: { key: 'invoices2024Q1final', bucket: 'acme' },
      object: { key: 'invoices_2024_Q1_final_v2.pdf', path: 'user-avatars/2024/01/profile.png' },
      sig: 'abc123def456ghi',
      signature: 'user2024_profile_v12',
    };
    const prose = 'total_tokens=123456789 and next_token=b2Zmc2V0PTQw';
    const recording = recordingOf(plain, prose);
    const { recording: out, items } = redactRecording(recording);
    expect(items).toEqual([]);
    expect(out.frames.map((f) => f.body)).toEqual(recording.frames.map((f) => f.body));
  });

  it('still replaces a random key or signature: hex, base64, long mixed', () => {
    const structured = {
      key: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4',
      signature: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      sig: 'q8Zr2mX7vB4nK1pL9sT3wY6e',
    };
    const { recording: out } = redactRecording(recordingOf(structured));
    const file = serializeRecording(out);
    for (const [name, v] of Object.entries(structured)) expect(file, name).not.toContain(v);
  });

  it("gives a stdio command line's TOKEN=VALUE a pseudonym, a short value too", () => {
    const target = 'env TOKEN=QQQCLIENV6 API_KEY=abc1 LOG_LEVEL=debug node server.mjs';
    const { recording: out } = redactRecording(recordingOf({}, '', target));
    expect(out.connection.target).toMatch(/^env TOKEN=redacted-token-\d API_KEY=redacted-api-key-\d LOG_LEVEL=debug node server\.mjs$/);
  });

  it('keeps ordinary values under common names: map keys, function signatures, map pins, prose', () => {
    const plain = {
      key: 'user.profile.name',
      signature: 'function add(a: number, b: number): number',
      pin: 'San Francisco office',
      otp: 'enabled',
      sessionTimeout: '3600',
      monkey: 'LEAKLIKEVALUE123abc',
    };
    const prose = 'token: expired. The auth: disabled. key=sortOrder and signature: (a, b) => c. Use --token-file /etc/tok.';
    const recording = recordingOf(plain, prose);
    const { recording: out, items } = redactRecording(recording);
    expect(items).toEqual([]);
    expect(out.frames.map((f) => f.body)).toEqual(recording.frames.map((f) => f.body));
  });
});
