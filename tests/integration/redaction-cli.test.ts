import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli, startTapProcess, type Started } from '../helpers/processes';
import { type ScenarioFileMock, startScenarioFileMock } from '../helpers/scenario-file-mock';

/**
 * What a shared recording must not carry, from the command line over real HTTP and stdio: the
 * credential headers a user passes with --header (any auth, key, signature, client certificate
 * name) through `call --record`, `tap --record` and HAR in and out; secrets a server's result
 * carries by name or as `name: value` text; an elicitation answer's PIN and one-time codes; a
 * stdio server's `--token VALUE`. And `export` never calls a file it found nothing in "clean".
 */

const HEADERS: Record<string, string> = {
  'X-Auth': 's3cr3t-xauth-value',
  'Ocp-Apim-Subscription-Key': '0123456789abcdef0123456789abcdef',
  'X-Custom-Auth': 's3cr3t-custom',
  'X-Hub-Signature': 'sha256=abcdef0123456789',
  'X-Client-Cert': 'CLIENTCERTVALUE01',
  Authorization: 'Bearer s3cr3t-bearer',
};
const headerArgs = Object.entries(HEADERS).flatMap(([k, v]) => ['--header', `${k}: ${v}`]);
const headerValues = Object.values(HEADERS).map((v) => v.replace(/^Bearer /, ''));

const RESULT_SECRETS = {
  key: 'LEAKKEYVALUE01abcdX7q9',
  private_key_id: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  signature: 'LEAKSIG0000001xyzwQ4r8',
  otp: '493817',
  pin: '8264',
  cookieJar: 'sid=LEAKCOOKIEJAR1',
  sessionId: 'LEAKSESSIONID1',
  Mcp_Session_Id: 'LEAKMCPSESS001',
};
const PROSE = 'api_key=LEAKAPIKEY123456 token: LEAKTOKEN7890ab Authorization: Token LEAKAUTHTOKEN999 X-Api-Key: LEAKXAPIKEY0001';
const PROSE_SECRETS = ['LEAKAPIKEY123456', 'LEAKTOKEN7890ab', 'LEAKAUTHTOKEN999', 'LEAKXAPIKEY0001'];
const ANSWER = { pin: '8264', otp: '987654', recovery: 'RECOV-CODE-1' };

const SCENARIO = `id: leak
server: { name: leak, version: 1.0.0 }
tools:
  - name: leak
    inputSchema: { type: object }
    result:
      content: [{ type: text, text: ${JSON.stringify(PROSE)} }]
      structuredContent: ${JSON.stringify(RESULT_SECRETS)}
  - name: verify
    inputSchema: { type: object }
    mrtr:
      rounds:
        - inputRequests:
            second:
              method: elicitation/create
              params:
                mode: form
                message: Second factor
                requestedSchema:
                  type: object
                  properties: { pin: { type: string }, otp: { type: string }, recovery: { type: string } }
    result:
      content: [{ type: text, text: verified }]
`;

const leaks = (file: string, values: readonly string[]) => {
  const text = fs.readFileSync(file, 'utf8');
  return values.filter((v) => text.includes(v));
};

describe('redaction from the command line', () => {
  let served: ScenarioFileMock | undefined;
  let mock: Started | undefined;
  let scenario: string;
  const file = (name: string) => served!.file(name);

  beforeAll(async () => {
    served = await startScenarioFileMock(SCENARIO, 'loupe-redaction-');
    ({ mock, scenario } = served);
  });
  afterAll(async () => {
    await served?.stop();
  });

  it('replaces every credential header passed with --header in call --record, tap --record and HAR exports', async () => {
    const call = await runCli(['call', 'leak', '--url', mock!.url, ...headerArgs, '--record', file('call.loupe.json')]);
    expect(call.code).toBe(0);
    const recorded = JSON.parse(fs.readFileSync(file('call.loupe.json'), 'utf8'));
    expect(recorded.connection.headerNames).toEqual(Object.keys(HEADERS));
    expect(leaks(file('call.loupe.json'), headerValues)).toEqual([]);

    const tap = await startTapProcess(['--upstream', mock!.url, '--record', file('tap.loupe.json')]);
    let tapped: CliRun;
    try {
      tapped = await runCli(['call', 'leak', '--url', tap.url, ...headerArgs]);
    } finally {
      await tap.stop();
    }
    expect(tapped.code).toBe(0);
    expect(fs.readFileSync(file('tap.loupe.json'), 'utf8')).toContain('x-custom-auth');
    expect(leaks(file('tap.loupe.json'), headerValues)).toEqual([]);

    // Kept as sent, then exported as HAR; and a browser's HAR exported as a recording.
    expect((await runCli(['call', 'leak', '--url', mock!.url, ...headerArgs, '--record', file('raw.loupe.json'), '--no-redact'])).code).toBe(0);
    expect(leaks(file('raw.loupe.json'), headerValues).length).toBeGreaterThan(0);
    expect((await runCli(['export', file('raw.loupe.json'), '--har', '--out', file('out.har')])).code).toBe(0);
    expect(leaks(file('out.har'), headerValues)).toEqual([]);
    fs.writeFileSync(file('in.har'), JSON.stringify(browserHar()));
    const imported = await runCli(['export', file('in.har'), '--out', file('from-har.loupe.json')]);
    expect(imported.stderr).toContain('Imported 1 MCP exchanges');
    expect(leaks(file('from-har.loupe.json'), headerValues)).toEqual([]);
  });

  it("replaces a result's secret-named fields and name: value credentials, an answer's PIN and codes, and a stdio server's --token", async () => {
    expect((await runCli(['call', 'leak', '--url', mock!.url, '--record', file('result.loupe.json')])).code).toBe(0);
    expect(leaks(file('result.loupe.json'), [...Object.values(RESULT_SECRETS), ...PROSE_SECRETS])).toEqual([]);

    const answered = await runCli(['call', 'verify', '--url', mock!.url, '--elicit-stub', JSON.stringify(ANSWER), '--record', file('answer.loupe.json')]);
    expect(answered.stdout).toContain('verified');
    expect(leaks(file('answer.loupe.json'), Object.values(ANSWER))).toEqual([]);

    // The server's own arguments (ignored by the shell script that runs the mock) name a token and a password.
    const stdio = await runCli([
      'call',
      'leak',
      '--record',
      file('stdio.loupe.json'),
      '--',
      'sh',
      '-c',
      'exec "$0" "$1" mock "$2" --stdio',
      process.execPath,
      path.resolve('bin/mcp-loupe.mjs'),
      scenario,
      '--token',
      'QQQCLITOKEN',
      '--password=QQQCLIPW',
    ]);
    expect(stdio.code).toBe(0);
    const target = JSON.parse(fs.readFileSync(file('stdio.loupe.json'), 'utf8')).connection.target as string;
    expect(target).toMatch(/--token redacted-token-\d+ --password=redacted-password-\d+$/);
    expect(leaks(file('stdio.loupe.json'), ['QQQCLITOKEN', 'QQQCLIPW'])).toEqual([]);
  });

  it('says an export it found nothing in is not thereby clean, and that a redacted recording was redacted before', async () => {
    const again = await runCli(['export', file('result.loupe.json'), '--out', file('again.loupe.json')]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('No secrets found');
    expect(again.stderr).toMatch(
      /Nothing to replace: this recording was redacted before \([^)]+\), so nothing it recognises is left\. That does not make it clean/,
    );
  });
});

/** A browser's HAR (Chrome's shape) of one MCP call sent with the credential headers. */
function browserHar() {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } };
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [],
      entries: [
        {
          startedDateTime: '2026-12-02T21:00:00.000Z',
          time: 10,
          request: {
            method: 'POST',
            url: 'https://mcp.example.com/mcp',
            httpVersion: 'HTTP/1.1',
            headers: [{ name: 'Content-Type', value: 'application/json' }, ...Object.entries(HEADERS).map(([name, value]) => ({ name, value }))],
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: 100,
            postData: { mimeType: 'application/json', text: JSON.stringify(body) },
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            headers: [{ name: 'Content-Type', value: 'application/json' }],
            cookies: [],
            content: {
              size: 80,
              mimeType: 'application/json',
              text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }),
            },
            redirectURL: '',
            headersSize: -1,
            bodySize: 80,
          },
          cache: {},
          timings: { send: 0, wait: 10, receive: 0 },
        },
      ],
    },
  };
}
