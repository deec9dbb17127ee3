import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type Started } from '../helpers/processes';
import { type ScenarioFileMock, startScenarioFileMock } from '../helpers/scenario-file-mock';

/**
 * Outsider C's scenario, through the real CLI: a result that carries an Azure Storage
 * connection string, lists named in the plural (`tokens`, `apiKeys`) and a `set_cookie` field
 * must leave `call --record`, `export` and `export --har` without those values; a result of
 * ordinary data (postal PIN codes, an AWS paging cursor, a storage object's key, a short `sig`)
 * must leave them as it was. A stdio command's `TOKEN=…` gets a pseudonym, and the review
 * printed by `export` shows at most 2 characters of any secret.
 */

const SCENARIO = `id: leak
server: { name: leak, version: 1.0.0 }
tools:
  - name: leak
    result:
      content: [{ type: text, text: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=QQQAazurekey0123456789abcdefABCDEF==;EndpointSuffix=core.windows.net" }]
      structuredContent: { tokens: [QQQI6tok1x, QQQI7tok2x], apiKeys: [QQQI8key1x], set_cookie: "sid=QQQJ3cookie; HttpOnly" }
  - name: benign
    result:
      content: [{ type: text, text: ok }]
      structuredContent: { pinCode: "560001", pin_code: "10115", nextToken: "eyJvZmZzZXQiOjIwfQ", storage: { key: "invoices2024Q1final", bucket: acme }, sig: "abc123def456ghi" }
`;
const BENIGN = ['560001', '10115', 'eyJvZmZzZXQiOjIwfQ', 'invoices2024Q1final', 'abc123def456ghi'];
const leaked = (file: string) => [...new Set(fs.readFileSync(file, 'utf8').match(/QQQ[0-9A-Za-z]*/g) ?? [])];

describe('redaction by name from the command line', () => {
  let served: ScenarioFileMock | undefined;
  let mock: Started | undefined;
  let scenario: string;
  const file = (name: string) => served!.file(name);

  beforeAll(async () => {
    served = await startScenarioFileMock(SCENARIO, 'loupe-redaction-names-');
    ({ mock, scenario } = served);
  });
  afterAll(async () => {
    await served?.stop();
  });

  it("replaces a connection string's AccountKey, plural lists and a set_cookie field in call --record, export and --har", async () => {
    expect((await runCli(['call', 'leak', '--url', mock!.url, '--record', file('lk.json')])).code).toBe(0);
    expect(leaked(file('lk.json'))).toEqual([]);
    expect(fs.readFileSync(file('lk.json'), 'utf8')).toMatch(/AccountKey=redacted-api-key-\d+;/);

    expect((await runCli(['call', 'leak', '--url', mock!.url, '--record', file('raw.json'), '--no-redact'])).code).toBe(0);
    expect(leaked(file('raw.json')).length).toBeGreaterThan(0);
    const exported = await runCli(['export', file('raw.json'), '--out', file('out.json')]);
    expect(exported.code).toBe(0);
    expect(leaked(file('out.json'))).toEqual([]);
    // The review names the key, and its examples show no more than 2 characters of a secret.
    expect(exported.stderr).toMatch(/API keys[^\n]*e\.g\./);
    expect(exported.stderr).not.toMatch(/QQQ|QQ[^…]/);
    expect((await runCli(['export', file('raw.json'), '--har', '--out', file('out.har')])).code).toBe(0);
    expect(leaked(file('out.har'))).toEqual([]);
  });

  it('keeps postal PIN codes, a paging cursor, a storage key and a short sig as they are', async () => {
    expect((await runCli(['call', 'benign', '--url', mock!.url, '--record', file('bn.json')])).code).toBe(0);
    const text = fs.readFileSync(file('bn.json'), 'utf8');
    for (const value of BENIGN) expect(text, value).toContain(`"${value}"`);
    expect(text).not.toMatch(/redacted-/);
  });

  it("gives a stdio command line's TOKEN=VALUE a pseudonym", async () => {
    const stdio = await runCli([
      'call',
      'benign',
      '--record',
      file('stdio.json'),
      '--',
      'env',
      'TOKEN=QQQCLIENV6',
      process.execPath,
      path.resolve('bin/mcp-loupe.mjs'),
      'mock',
      scenario,
      '--stdio',
    ]);
    expect(stdio.code).toBe(0);
    const target = JSON.parse(fs.readFileSync(file('stdio.json'), 'utf8')).connection.target as string;
    expect(target).toMatch(/^env TOKEN=redacted-token-\d+ /);
    expect(leaked(file('stdio.json'))).toEqual([]);
  });
});
