import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../lib/client/http-transport';
import { createClientSession } from '../../lib/client/session';
import { createTrackingTransport } from '../../lib/client/tracking';
import { recordingsApiWriter, startAutosave } from '../../lib/recording/autosave';
import { describeConnection } from '../../lib/recording/connection';
import { createRecorder } from '../../lib/recording/recorder';
import { parseRecording } from '../../lib/recording/schema';
import { startCliMock, type Started } from '../helpers/processes';

/**
 * The inspector's autosave, as the page runs it (a tracked HTTP session with the user's
 * Authorization and X-Api-Key headers, an OAuth token response on the auth lane, the recorder,
 * startAutosave and the control API's PUT /api/recordings/<name>) against a real `mcp-loupe
 * mock`: the file in the data directory holds none of the secrets and is readable by its owner only.
 */

const SECRETS = {
  bearer: 'MySuperSecretBearer123',
  apiKey: 'xk_9876543210abcdef',
  argument: 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e',
  accessToken: 'at_0123456789abcdefOAuthAccess',
  refreshToken: 'rt_fedcba9876543210OAuthRefresh',
};

let dataDir: string;
let mock: Started;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-autosave-'));
  mock = await startCliMock(['demo', '--data-dir', dataDir]);
});
afterAll(async () => {
  await mock?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the inspector's autosave", () => {
  it('writes no header credential, token response or key argument to the data directory, and writes it 0600', async () => {
    const url = `${mock.url}/demo`;
    const headers = { Authorization: `Bearer ${SECRETS.bearer}`, 'X-Api-Key': SECRETS.apiKey };
    const recorder = createRecorder({ connection: describeConnection({ target: url, transport: 'http', headers }) });
    // Started with the page, before the first frame.
    const errors: Error[] = [];
    const write = recordingsApiWriter({ base: new URL(mock.url).origin, token: mock.token! });
    const autosave = startAutosave(recorder, { write, name: 'session.loupe.json', onError: (e) => errors.push(e) });
    const tracked = createTrackingTransport(createHttpTransport({ url, headers }), { sink: recorder.sink, connectionId: 'c1' });
    const session = createClientSession({ transport: tracked, era: 'auto' });
    await session.discover();
    await session.callTool('search_notes', { query: SECRETS.argument });
    // The token response of the inspector's OAuth flow, as its tracer reports it (lib/client/auth/trace.ts).
    const tokenResponse = { access_token: SECRETS.accessToken, refresh_token: SECRETS.refreshToken, token_type: 'Bearer', expires_in: 3600 };
    recorder.sink({
      seq: 1_000,
      connectionId: 'c1',
      at: Date.now(),
      direction: 'in',
      kind: 'http-response',
      exchangeId: 'auth:1',
      lane: 'auth',
      auth: { step: 'token', rule: 'token-request', url: 'http://127.0.0.1:1/token', method: 'POST', checks: [] },
      httpStatus: 200,
      headers: { 'content-type': 'application/json' },
      body: tokenResponse,
      raw: JSON.stringify(tokenResponse),
      bytes: JSON.stringify(tokenResponse).length,
    });
    const source = JSON.stringify(recorder.build());
    // The session really carried them (else the test would prove nothing).
    for (const v of Object.values(SECRETS)) expect(source, v).toContain(v);

    await autosave.flush();
    autosave.stop();
    expect(errors).toEqual([]);
    const file = path.join(dataDir, 'recordings', 'session.loupe.json');
    const text = fs.readFileSync(file, 'utf8');
    for (const [name, v] of Object.entries(SECRETS)) expect(text, name).not.toContain(v);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Still the session, with pseudonyms in place of the values.
    const opened = parseRecording(text);
    expect(opened.ok && opened.recording.frames.length).toBe(recorder.build().frames.length);
    expect(text).toContain('redacted-credential-1');
    expect(text).toContain('redacted-api-key-1');
  });
});
