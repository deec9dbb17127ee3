import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { toHar } from '../../../lib/recording/har-export';
import { createRecorder } from '../../../lib/recording/recorder';
import { redactRecording } from '../../../lib/recording/redact';
import { serializeRecording } from '../../../lib/recording/schema';

/**
 * Secrets pasted into message bodies (a tool's argument, its echoed result, raw SSE text) are
 * found by shape or by the name before them, replaced by one pseudonym each in the export and
 * its HAR, and listed per kind for the review; ordinary text, ids and images are left alone.
 */

// Built from pieces so no scanner flags this file as holding real keys.
const KEYS = {
  openai: `sk-${'proj'}-Xy12AbCdEfGhIjKlMnOpQr`,
  stripe: `sk_${'live'}_51HqAbCdEfGhIjKlMn0p`,
  publishable: `pk_${'live'}_51HqZyXwVuTsRqPoNm9l`,
  github: `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`,
  githubPat: `github_pat_${'11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789'}`,
  slack: `xoxb-${'123456789012-1234567890123-AbCdEfGhIjKl'}`,
  aws: `AKIA${'IOSFODNN7EXAMPLE'}`,
  google: `AIza${'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'}`,
};
const JWT = `eyJhbGciOiJIUzI1NiJ9.${'eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjE5OTl9'}.c2lnbmF0dXJlLWJ5dGVz`;
const PEM = `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7v1xq2\nZk9f3ReallySecretBody==\n-----END RSA PRIVATE KEY-----`;
const PNG = `iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk${'sk-'}AAAAABJRU5ErkJggg==`;
const ORDINARY = [
  'Use a strong password and keep it safe; the password field is required.',
  'Reset your password to continue. Password manager support is on the roadmap.',
  'task id 9f2c1e7a-4b3d-4e8f-a1b2-c3d4e5f6a7b8, request req_01HZX3K9Q2, note-3',
  'sk-learn-compatible-estimators and risk-based-authentication are fine words',
  'The AKIA prefix marks an AWS key; eyJ starts base64 JSON.',
  'Bearer tokens travel in the Authorization header; bearer authentication is RFC 6750.',
  'WWW-Authenticate: Bearer resource_metadata="https://example.test/.well-known/oauth-protected-resource"',
];

let seq = 0;
const frame = (kind: Frame['kind'], direction: Frame['direction'], body: unknown, raw?: string): Frame => ({
  seq: seq++,
  connectionId: 'c1',
  at: 1_000 + seq,
  direction,
  kind,
  exchangeId: 'c1:1',
  rpcId: 1,
  method: 'tools/call',
  bytes: 10,
  body,
  ...(raw !== undefined ? { raw } : {}),
});

function recordingOf(text: string, extra: Record<string, unknown> = {}) {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text, ...extra } } };
  const result = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      content: [
        { type: 'text', text },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    },
  };
  const frames = [frame('http-request', 'out', call), frame('sse-frame', 'in', result, `event: message\ndata: ${JSON.stringify(result)}\n\n`)];
  return createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1:3/mcp' }), frames }).build();
}

describe('secrets pasted into message bodies', () => {
  it('replaces provider keys, JWTs, PEM private keys and passwords in bodies, raw SSE text and the HAR', () => {
    const text = `keys: ${Object.values(KEYS).join(' , ')}; jwt ${JWT}; and password hunter2 then passwd=s3cr3t!`;
    const recording = recordingOf(`${text}\n${PEM}`, { password: 'pw-in-a-field', api_key: 'k-12345', token: 'abc' });
    const source = JSON.stringify(recording);
    const leaks = [...Object.values(KEYS), JWT, 'ReallySecretBody', 'hunter2', 's3cr3t!', 'pw-in-a-field', 'k-12345'];
    for (const l of leaks) expect(source).toContain(l);
    const { recording: out, items } = redactRecording(recording);
    const file = serializeRecording(out);
    const har = JSON.stringify(toHar(out));
    for (const l of leaks) {
      expect(file, l).not.toContain(l);
      expect(har, l).not.toContain(l);
    }
    // One pseudonym per value, the same in the request and the echoed result.
    const args = (out.frames[0]!.body as { params: { arguments: Record<string, string> } }).params.arguments;
    expect(args.text).toContain('and password redacted-password-1 then passwd=redacted-password-2');
    expect(args.password).toBe('redacted-password-3');
    expect(out.frames[1]!.raw).toContain('and password redacted-password-1');
    const byKind = Object.fromEntries(items.map((i) => [i.kind, i]));
    expect(byKind['provider-key']).toMatchObject({ distinct: 8, redacted: true });
    expect(byKind['provider-key']!.occurrences).toBeGreaterThanOrEqual(16);
    expect(byKind.jwt).toMatchObject({ distinct: 1, redacted: true });
    expect(byKind['private-key']).toMatchObject({ distinct: 1, redacted: true });
    expect(byKind.password).toMatchObject({ distinct: 3, redacted: true });
    expect(byKind.password!.label).toMatch(/Passwords/);
    // The image survives byte for byte.
    expect(file).toContain(PNG);
    expect(out.redaction?.counts).toMatchObject({ 'provider-key': 8, jwt: 1, 'private-key': 1, password: 3 });
  });

  it('leaves ordinary prose, ids and base64 images untouched', () => {
    const recording = recordingOf(ORDINARY.join('\n'));
    const { recording: out, items } = redactRecording(recording);
    expect(items).toEqual([]);
    expect(out.frames.map((f) => f.body)).toEqual(recording.frames.map((f) => f.body));
    expect(out.frames[1]!.raw).toBe(recording.frames[1]!.raw);
  });

  it('replaces a bearer token written into text, and only the token', () => {
    const token = 'mF_9.B5f-4.1JqM';
    const recording = recordingOf(`curl -H "Authorization: Bearer ${token}" https://api.example.test; Bearer tokens expire`);
    const { recording: out } = redactRecording(recording);
    const file = serializeRecording(out);
    expect(file).not.toContain(token);
    expect(file).toContain('Bearer tokens expire');
  });

  it('keeps a kind when the user chooses to, and says so in the review', () => {
    const recording = recordingOf(`my key is ${KEYS.openai} and password hunter2`);
    const { recording: out, items } = redactRecording(recording, { keep: ['password'] });
    const file = serializeRecording(out);
    expect(file).toContain('hunter2');
    expect(file).not.toContain(KEYS.openai);
    expect(items.find((i) => i.kind === 'password')).toMatchObject({ redacted: false, distinct: 1 });
  });
});
