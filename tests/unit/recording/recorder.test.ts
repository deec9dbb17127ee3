import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../lib/shared/fingerprint';
import type { Frame } from '../../../lib/client/frames';
import { createMockHost, type MockHost } from '../../../lib/server/mock-host';
import { createMockRouter, type MockRouter } from '../../../lib/server/mock-router';
import { autosaveName, recordingsApiWriter, startAutosave } from '../../../lib/recording/autosave';
import { describeConnection } from '../../../lib/recording/connection';
import { appendRecording, createRecorder } from '../../../lib/recording/recorder';
import { parseRecording } from '../../../lib/recording/schema';
import { recordSession, type RecordedSession } from './session';

/** The recorder fed by the tracking decorator, autosave through the control API, and appending sessions. */

let session: RecordedSession;
beforeAll(async () => {
  session = await recordSession();
});
afterAll(() => session?.engine.close());

describe('recorder', () => {
  it('builds a valid recording: frames in order, streams, lints per exchange, app HTML by digest', () => {
    const r = session.recording;
    expect(parseRecording(JSON.stringify(r)).ok).toBe(true);
    expect(r.frames.map((f) => f.seq)).toEqual(r.frames.map((_, i) => i));
    expect(r.streams.map((s) => [s.method, s.closeReason])).toEqual([
      ['tools/call', 'complete'],
      ['subscriptions/listen', 'client-closed'],
    ]);
    const exchanges = new Set(r.frames.filter((f) => f.kind === 'http-request').map((f) => f.exchangeId));
    expect(new Set(Object.keys(r.lints))).toEqual(exchanges);
    const html = '<!doctype html><p>recorded app</p>';
    expect(r.apps).toEqual({ [sha256Hex(html)]: html });
    expect(r.connection).toMatchObject({ target: 'http://127.0.0.1/mcp', transport: 'memory', era: 'modern', serverInfo: { name: 'rec-test' } });
  });

  it('notes app views by digest, once per showing', () => {
    const rec = createRecorder({ connection: describeConnection({ target: 'http://x/mcp' }), now: () => 1000 });
    const d1 = rec.addApp('<p>a</p>', { uri: 'ui://a', exchangeId: 'c1:4' });
    rec.addApp('<p>a</p>', { uri: 'ui://a', exchangeId: 'c1:4' });
    const d2 = rec.addApp('<p>b</p>', { uri: 'ui://a', at: 2000 });
    const built = rec.build();
    expect(built.views).toEqual([
      { uri: 'ui://a', digest: d1, at: 1000, exchangeId: 'c1:4' },
      { uri: 'ui://a', digest: d2, at: 2000 },
    ]);
    expect(Object.keys(built.apps).sort()).toEqual([d1, d2].sort());
    expect(parseRecording(JSON.stringify(built)).ok).toBe(true);
  });

  it('keeps its memory within a budget by dropping the oldest frames', () => {
    const rec = createRecorder({ connection: describeConnection({ target: 'http://x/mcp' }), maxBytes: 200_000 });
    const big = session.recording.frames.find((f) => f.bytes > 200)!;
    for (let i = 0; i < 2_000; i++) rec.sink({ ...big, seq: i });
    expect(rec.dropped).toBeGreaterThan(0);
    expect(rec.size + rec.dropped).toBe(2_000);
    expect(rec.frames()[rec.size - 1].seq).toBe(1_999);
    expect(rec.size * (big.bytes * 2 + 256)).toBeLessThanOrEqual(200_000);
  });

  it('appends a later session after an earlier one', () => {
    const a = session.recording;
    const shifted = (f: Frame): Frame => ({
      ...f,
      connectionId: 'c2',
      exchangeId: f.exchangeId.replace(/^c1/, 'c2'),
      ...(f.streamId ? { streamId: f.streamId.replace(/^c1/, 'c2') } : {}),
      at: f.at + 60_000,
    });
    const b = { ...a, frames: a.frames.map(shifted) };
    const joined = appendRecording(a, b);
    expect(joined.frames).toHaveLength(a.frames.length * 2);
    expect(joined.streams).toHaveLength(4);
    expect(parseRecording(JSON.stringify(joined)).ok).toBe(true);
  });
});

describe('autosave through the control API', () => {
  let dataDir: string;
  let host: MockHost;
  let router: MockRouter;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'loupe-rec-'));
    host = createMockHost({ dataDir });
    router = createMockRouter(host, 'demo', { token: 'test-token' });
  });
  afterAll(() => {
    host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const viaRouter = (token?: string) =>
    recordingsApiWriter({ base: 'http://127.0.0.1:3000', token, fetch: (input, init) => router.fetch(withHost(new Request(input as string, init))) });
  /** In-process requests carry no Host header; a browser's would. */
  const withHost = (req: Request) => {
    const headers = new Headers(req.headers);
    headers.set('Host', '127.0.0.1:3000');
    return new Request(req, { headers });
  };

  it('names files by start time', () => {
    expect(autosaveName(new Date('2026-07-28T10:15:30.123Z'))).toBe('2026-07-28T10-15-30-123Z.loupe.json');
  });

  it('saves the session under .loupe/recordings after changes settle, and lists it', async () => {
    const recorder = createRecorder({ connection: describeConnection({ target: 'http://127.0.0.1/mcp' }) });
    const saved: string[] = [];
    const write = viaRouter('test-token');
    const autosave = startAutosave(recorder, {
      write: async (n, t) => {
        saved.push(n);
        return write(n, t);
      },
      delayMs: 20,
      name: 'session-1.loupe.json',
    });
    for (const f of session.recording.frames.slice(0, 12)) recorder.sink(f);
    await new Promise((r) => setTimeout(r, 80));
    expect(saved).toEqual(['session-1.loupe.json']);
    for (const f of session.recording.frames.slice(12)) recorder.sink(f);
    await autosave.flush();
    autosave.stop();
    const file = join(dataDir, 'recordings', 'session-1.loupe.json');
    const opened = parseRecording(readFileSync(file, 'utf8'));
    expect(opened.ok && opened.recording.frames.length).toBe(session.recording.frames.length);
    const list = await router.fetch(withHost(new Request('http://127.0.0.1:3000/api/recordings', { headers: { Authorization: 'Bearer test-token' } })));
    expect(await list.json()).toMatchObject({ recordings: [{ name: 'session-1.loupe.json' }] });
    const one = await router.fetch(
      withHost(new Request('http://127.0.0.1:3000/api/recordings/session-1.loupe.json', { headers: { Authorization: 'Bearer test-token' } })),
    );
    expect(parseRecording(await one.text()).ok).toBe(true);
  });

  it('is token-gated, validates what it stores and refuses names that leave the directory', async () => {
    const body = JSON.stringify(session.recording);
    await expect(viaRouter()('x.loupe.json', body)).rejects.toThrow(/HTTP 401/);
    await expect(viaRouter('wrong')('x.loupe.json', body)).rejects.toThrow(/HTTP 401/);
    await expect(viaRouter('test-token')('x.loupe.json', '{"version":2}')).rejects.toThrow(/HTTP 422/);
    await expect(viaRouter('test-token')('..%2Fescape.loupe.json', body)).rejects.toThrow(/HTTP 400/);
    await expect(viaRouter('test-token')('notes.txt', body)).rejects.toThrow(/HTTP 400/);
    const forged = await router.fetch(
      withHost(
        new Request('http://127.0.0.1:3000/api/recordings/y.loupe.json', {
          method: 'PUT',
          headers: { Cookie: 'loupe_token=test-token', 'Content-Type': 'application/json' },
          body,
        }),
      ),
    );
    // The token in a cookie is no credential (only a session from the page gate is).
    expect(forged.status).toBe(401);
    expect(readdirSync(join(dataDir, 'recordings'))).toEqual(['session-1.loupe.json']);
  });

  it('serves a posted recording as a mock at /mcp/replay/<id> (the replay button)', async () => {
    const body = JSON.stringify(session.recording);
    const post = (headers: Record<string, string>, query = '') =>
      router.fetch(
        withHost(
          new Request(`http://127.0.0.1:3000/api/recordings/replay${query}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...headers },
            body,
          }),
        ),
      );
    expect((await post({})).status).toBe(401);
    const created = await post({ Authorization: 'Bearer test-token' });
    expect(created.status).toBe(201);
    const { path, exchanges } = (await created.json()) as { path: string; exchanges: number };
    expect(path).toMatch(/^\/mcp\/replay\/[a-z0-9x_-]+$/);
    expect(exchanges).toBeGreaterThan(10);
    const call = (url: string, text = 'hello') =>
      router.fetch(
        withHost(
          new Request(`http://127.0.0.1:3000${url}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 'echo', arguments: { text } } }),
          }),
        ),
      );
    expect(await (await call(path)).json()).toMatchObject({ id: 'x', result: { content: [{ text: 'echo: hello' }] } });
    // An unrecorded call is an error naming it, unless the replay was started loose (?loose=1).
    expect(await (await call(path, 'other')).json()).toMatchObject({ id: 'x', error: { code: -32602, data: { closest: { method: 'tools/call' } } } });
    const loose = (await (await post({ Authorization: 'Bearer test-token' }, '?loose=1')).json()) as { path: string };
    expect(await (await call(loose.path, 'other')).json()).toMatchObject({ id: 'x', result: { content: [{ text: 'echo: hello' }] } });
    expect((await call('/mcp/replay/nope')).status).toBe(404);
    const bad = await router.fetch(
      withHost(
        new Request('http://127.0.0.1:3000/api/recordings/replay', { method: 'POST', headers: { Authorization: 'Bearer test-token' }, body: '{"version":7}' }),
      ),
    );
    expect(bad.status).toBe(422);
  });
});
