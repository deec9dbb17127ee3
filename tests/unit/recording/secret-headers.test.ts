import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { toHar } from '../../../lib/recording/har-export';
import { createRecorder } from '../../../lib/recording/recorder';
import { redactRecording } from '../../../lib/recording/redact';
import { serializeRecording } from '../../../lib/recording/schema';
import { headerRows } from '../../../lib/state/header-mask';

/**
 * Credential headers by name beyond Authorization and `…token`: whatever a user passes with
 * `--header` under an auth, key, signature, client certificate or session name is replaced in
 * the recording and its HAR, and masked in the inspector; headers that only describe
 * credentials (challenges, CORS, scopes) keep their values.
 */

const SECRET_HEADERS: Record<string, string> = {
  'x-auth': 's3cr3t-xauth-value',
  'x-custom-auth': 's3cr3t-custom',
  'ocp-apim-subscription-key': '0123456789abcdef0123456789abcdef',
  'x-functions-key': 'FnKey_abcd1234efgh',
  'x-hub-signature-256': 'sha256=9f86d081884c7d659a2feaa0c55ad015',
  'x-client-cert': 'MIIBszCCAVmgAwIBAgIUclientcert',
  'x-session': 'sess-77aa99bb11cc',
};
const PLAIN_HEADERS: Record<string, string> = {
  'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1:3/.well-known/oauth-protected-resource"',
  'access-control-allow-credentials': 'true',
  'x-oauth-scopes': 'repo, read:org',
  'x-request-id': 'req-0001',
  'idempotency-key': 'charge-2026-0001',
  'x-session-expires': '3600',
};

function recordingWithHeaders() {
  const frame = (direction: Frame['direction'], headers: Record<string, string>): Frame => ({
    seq: direction === 'out' ? 0 : 1,
    connectionId: 'c1',
    at: 1_000,
    direction,
    kind: direction === 'out' ? 'http-request' : 'http-response',
    exchangeId: 'c1:1',
    rpcId: 1,
    method: 'tools/list',
    bytes: 10,
    headers,
    body: direction === 'out' ? { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } : { jsonrpc: '2.0', id: 1, result: { tools: [] } },
  });
  const { 'x-session': session, 'www-authenticate': challenge, ...request } = { ...SECRET_HEADERS, ...PLAIN_HEADERS };
  const frames = [frame('out', request), frame('in', { 'x-session': session!, 'www-authenticate': challenge! })];
  return createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1:3/mcp', headers: SECRET_HEADERS }), frames }).build();
}

describe('credential headers by name', () => {
  it('replaces every auth, key, signature, client certificate and session header in the recording and its HAR', () => {
    const recording = recordingWithHeaders();
    expect(recording.connection.headerNames).toEqual(Object.keys(SECRET_HEADERS));
    const { recording: out, items } = redactRecording(recording);
    const file = serializeRecording(out);
    const har = JSON.stringify(toHar(out));
    for (const [name, value] of Object.entries(SECRET_HEADERS)) {
      expect(file, name).not.toContain(value);
      expect(har, name).not.toContain(value);
    }
    expect(out.frames[0]!.headers).toMatchObject({ 'x-auth': 'redacted-token-1', 'ocp-apim-subscription-key': 'redacted-api-key-1' });
    expect(out.frames[1]!.headers!['x-session']).toBe('session0001-redacted');
    expect(items.map((i) => i.kind).sort()).toEqual(['api-key', 'session-id', 'token']);
  });

  it('keeps the values of headers that describe credentials or name no secret', () => {
    const { recording: out } = redactRecording(recordingWithHeaders());
    const all = { ...out.frames[0]!.headers, ...out.frames[1]!.headers };
    for (const [name, value] of Object.entries(PLAIN_HEADERS)) expect(all[name], name).toBe(value);
  });

  it('masks the same headers in the inspector until revealed', () => {
    const rows = headerRows({ ...SECRET_HEADERS, ...PLAIN_HEADERS }, 'tools/list', false);
    for (const r of rows) expect(r.masked, r.name).toBe(r.name in SECRET_HEADERS);
  });
});
