import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizedFetch } from '../../lib/client/auth/authorized-fetch';
import type { AuthStepPreview } from '../../lib/client/auth/trace';
import type { Frame } from '../../lib/client/frames';
import { startCliMock, type Started } from '../helpers/processes';

/**
 * The guided mode's gate (lib/client/auth/trace.ts) against `mcp-loupe mock oauth` over real
 * HTTP: the flow stops before each HTTP step and shows it (step, rule, URL, what it will send);
 * refusing a step stops the flow there, before anything of that step goes out, and the failure
 * names that step.
 */

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
});

describe('the auth gate', () => {
  let mock: Started;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-oauth-gate-'));
    mock = await startCliMock(['oauth', '--data-dir', dataDir, '--store', 'memory']);
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function flow(gate: (p: AuthStepPreview) => Promise<void>) {
    const frames: Frame[] = [];
    const auth = createAuthorizedFetch({ redirectUri: 'http://127.0.0.1:7777/callback', gate });
    auth.setSink((f) => frames.push(f as Frame));
    const send = () =>
      auth.fetch(mock.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: initialize,
      });
    return { auth, frames, send };
  }

  it('shows every HTTP step before it goes, in the order of the flow', async () => {
    const seen: AuthStepPreview[] = [];
    const { send, auth } = flow(async (p) => {
      seen.push(p);
    });
    const res = await send();
    // Authorized: whatever the server makes of the message, it is no longer 401/403.
    expect([401, 403]).not.toContain(res.status);
    expect(auth.lastError).toBeUndefined();
    expect(seen.map((p) => p.step)).toEqual(['resource-metadata', 'authorization-server-metadata', 'registration', 'authorization', 'token']);
    const token = seen.at(-1)!;
    expect(token.method).toBe('POST');
    expect(token.rule).toMatch(/code_verifier/);
    expect(token.body).toMatchObject({ grant_type: 'authorization_code', resource: expect.any(String) });
    expect(seen[0]?.url).toContain('/.well-known/oauth-protected-resource');
  });

  it('stops at a refused step: nothing of it is sent, and the failure names it', async () => {
    const { send, auth, frames } = flow(async (p) => {
      if (p.step === 'token') throw new Error('cancelled before the token step');
    });
    const res = await send();
    expect(res.status).toBe(401);
    expect(auth.lastError?.step).toBe('token');
    expect(auth.lastError?.message).toContain('cancelled');
    expect(frames.filter((f) => f.kind === 'http-request').map((f) => f.auth?.step)).not.toContain('token');
    expect(frames.some((f) => f.auth?.step === 'authorization')).toBe(true);
    expect(auth.tokens).toBeUndefined();
  });
});
