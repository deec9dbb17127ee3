import { describe, expect, it } from 'vitest';
import { createAuthTracer, type AuthFrame } from '../../../lib/client/auth/trace';
import type { Frame } from '../../../lib/client/frames';
import { describeConnection } from '../../../lib/recording/connection';
import { toHar } from '../../../lib/recording/har-export';
import { createRecorder } from '../../../lib/recording/recorder';
import { redactAuthLane, redactRecording } from '../../../lib/recording/redact';
import { parseRecording, serializeRecording } from '../../../lib/recording/schema';

/**
 * An authorization flow's secrets travel where MCP traffic has none: form bodies, query
 * strings, Location headers and token responses. The auth-lane frames the tracer makes carry
 * them all; a default export, its HAR and a recording written during the session hold none.
 */

const SECRET = {
  code: 'Zq8-code-4f1e9c2b7a',
  verifier: 'verifier_0123456789abcdefghijklmnopqrstuvwxyz',
  state: 'st4te-9a8b7c6d5e',
  clientSecret: 'cl1ent/secret+with=chars',
  access: 'acc3ss-token-ffeeddccbbaa',
  refresh: 'refr3sh-token-001122334455',
};

async function flowFrames(): Promise<Frame[]> {
  const frames: Frame[] = [];
  const at = () => 1_000 + frames.length;
  const sink = (f: AuthFrame) => frames.push({ ...f, seq: frames.length, at: at(), connectionId: 'c1', bytes: 0 });
  const fetch = async (url: string): Promise<Response> => {
    if (url.endsWith('/authorize?x'))
      return new Response(null, { status: 302, headers: { Location: `http://127.0.0.1:5/callback?code=${SECRET.code}&state=${SECRET.state}` } });
    if (url.endsWith('/register')) return Response.json({ client_id: 'loupe-1', client_secret: SECRET.clientSecret });
    return Response.json({ access_token: SECRET.access, refresh_token: SECRET.refresh, token_type: 'Bearer' });
  };
  const t = createAuthTracer(fetch, sink);
  (await t.fetch('registration', 'rule', 'https://as.example/register', { method: 'POST', body: '{"client_name":"x"}' })).report();
  (await t.fetch('authorization', 'rule', 'https://as.example/authorize?x', { method: 'GET' })).report();
  t.note('callback', 'rule', [{ name: 'iss', ok: true }], { url: `http://127.0.0.1:5/callback?code=${SECRET.code}&state=${SECRET.state}` });
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: SECRET.code, code_verifier: SECRET.verifier, client_secret: SECRET.clientSecret });
  (await t.fetch('token', 'rule', 'https://as.example/token', { method: 'POST', body: form })).report();
  return frames;
}

describe('auth-lane redaction', () => {
  it('the frames really carry every secret (so the test would catch a leak)', async () => {
    const text = JSON.stringify(await flowFrames());
    for (const s of Object.values(SECRET)) expect(text).toContain(JSON.stringify(s).slice(1, -1));
  });

  it('a default export and its HAR hold no code, verifier, state, client secret or token, and list them for review', async () => {
    const recording = createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1:3/mcp' }), frames: await flowFrames() }).build();
    const { recording: out, items } = redactRecording(recording);
    const file = serializeRecording(out);
    const har = JSON.stringify(toHar(out));
    for (const s of Object.values(SECRET))
      for (const form of [s, encodeURIComponent(s)]) {
        expect(file, s).not.toContain(form);
        expect(har, s).not.toContain(form);
      }
    expect(items.map((i) => i.kind)).toEqual(expect.arrayContaining(['oauth', 'token']));
    // The HAR names each step's own URL and method, not the MCP server's.
    const entries = (toHar(out) as { log: { entries: { request: { url: string; method: string } }[] } }).log.entries;
    expect(entries.map((e) => `${e.request.method} ${e.request.url}`)).toContain('POST https://as.example/token');
    expect(parseRecording(file).ok).toBe(true);
  });

  it('a recording written during the session redacts the auth lane and leaves MCP frames as they are', async () => {
    const mcp: Frame = {
      seq: 99,
      at: 2_000,
      connectionId: 'c1',
      direction: 'out',
      kind: 'http-request',
      exchangeId: 'c1:1',
      bytes: 0,
      body: { taskId: 'task-raw-id' },
    };
    const frames = redactAuthLane([...(await flowFrames()), mcp]);
    const text = JSON.stringify(frames);
    for (const s of Object.values(SECRET)) expect(text).not.toContain(s);
    expect(frames.at(-1)).toEqual(mcp);
  });
});
