import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/processes';
import { toHar } from '../../../lib/recording/har-export';
import { importHar } from '../../../lib/recording/har-import';
import { redactRecording } from '../../../lib/recording/redact';
import { groupExchanges } from '../../../lib/recording/exchanges';
import type { Recording } from '../../../lib/recording/schema';
import { recordSession, SECRETS, type RecordedSession } from './session';

/** HAR 1.2 out and in: Loupe's export opens again frame for frame; a browser's HAR opens as a session. */

let session: RecordedSession;
beforeAll(async () => {
  session = await recordSession();
});
afterAll(() => session?.engine.close());

/** The parts of a HAR entry these tests read. */
type HarEntry = {
  startedDateTime: string;
  request: { method: string; url: string; httpVersion: string; headers: { name: string; value: string }[]; postData: { text: string } };
  response: { status: number; content: { mimeType: string; text: string } };
  timings: { wait: number };
  _resourceType?: string;
  _loupe?: unknown;
};
type HarDoc = { log: { version: string; creator: { name: string }; entries: HarEntry[]; _loupe?: unknown } };

const CHROME_HAR = path.join(ROOT, 'tests/fixtures/har/chrome-devtools-mcp.har');

describe('HAR export', () => {
  it('writes one HAR 1.2 entry per HTTP exchange with headers, postData and the body (SSE as text)', () => {
    const rec = session.recording;
    const har = toHar(rec) as HarDoc;
    expect(har.log.version).toBe('1.2');
    const exchanges = groupExchanges(rec.frames);
    expect(har.log.entries).toHaveLength(exchanges.length);
    const first = har.log.entries[0];
    expect(first.request).toMatchObject({ method: 'POST', url: rec.connection.target, httpVersion: 'HTTP/1.1' });
    expect(first.request.postData.text).toBe(exchanges[0].request.raw);
    expect(first.request.headers).toContainEqual({ name: 'mcp-method', value: 'server/discover' });
    expect(first.response.status).toBe(200);
    expect(JSON.parse(first.response.content.text)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    const progress = har.log.entries.find((e) => e.response.content.mimeType.startsWith('text/event-stream') && e.request.postData.text.includes('slowly'))!;
    expect(progress.response.content.text).toMatch(/^data: \{"jsonrpc":"2.0","method":"notifications\/progress"/);
    expect(progress.response.content.text.split('\n\n').filter(Boolean)).toHaveLength(3);
    expect(first.timings.wait).toBeGreaterThanOrEqual(0);
    expect(first._resourceType).toBe('fetch');
  });

  it('round-trips: exporting to HAR and importing again yields the same frames, ids, bodies and headers', () => {
    const rec = session.recording;
    const json = JSON.parse(JSON.stringify(toHar(rec)));
    const back = importHar(json);
    if (!back.ok) throw new Error(back.error);
    expect(back.recording.frames).toHaveLength(rec.frames.length);
    expect(back.recording.frames).toEqual(rec.frames);
    expect(back.recording.frames.map((f) => [f.kind, f.method, f.rpcId, f.taskId])).toEqual(rec.frames.map((f) => [f.kind, f.method, f.rpcId, f.taskId]));
    expect(back.recording.connection).toEqual(rec.connection);
    expect(back.recording.apps).toEqual(rec.apps);
    expect(back.recording.lints).toEqual(rec.lints);
    expect(back.recording.streams).toEqual(rec.streams);
  });

  it('a redacted HAR carries no secret and still round-trips', () => {
    const redacted = redactRecording(session.recording).recording;
    const text = JSON.stringify(toHar(redacted));
    for (const secret of [...Object.values(SECRETS), session.taskId]) expect(text).not.toContain(secret);
    const back = importHar(JSON.parse(text));
    if (!back.ok) throw new Error(back.error);
    expect(back.recording.frames).toEqual(redacted.frames);
    expect(back.recording.redaction).toEqual(redacted.redaction);
  });

  it('a Loupe HAR re-saved by another tool (no _loupe extras) still opens with the same exchanges', () => {
    const har = JSON.parse(JSON.stringify(toHar(session.recording))) as HarDoc;
    delete har.log._loupe;
    for (const e of har.log.entries) delete e._loupe;
    const back = importHar(har);
    if (!back.ok) throw new Error(back.error);
    const strip = (r: Recording) =>
      groupExchanges(r.frames).map((x) => ({
        method: x.method,
        id: x.rpcId,
        params: x.params,
        response: x.response,
        messages: x.messages,
        headers: x.request.headers,
      }));
    expect(strip(back.recording)).toEqual(strip(session.recording));
  });
});

describe('HAR import from a browser', () => {
  const har = JSON.parse(fs.readFileSync(CHROME_HAR, 'utf8')) as HarDoc;

  it('the fixture looks like a Chrome DevTools export', () => {
    expect(har.log.creator).toMatchObject({ name: 'WebInspector', version: '537.36' });
    expect(har.log.entries.every((e) => typeof e._resourceType === 'string' && e.timings && e.startedDateTime)).toBe(true);
    expect(har.log.entries.some((e) => e.response.content.mimeType === 'text/event-stream')).toBe(true);
  });

  it('opens as a session: JSON-RPC decoded, other entries skipped, SSE split into frames and comments', () => {
    const opened = importHar(har);
    if (!opened.ok) throw new Error(opened.error);
    const r = opened.recording;
    expect(opened.stats).toEqual({ entries: 13, imported: 10, skipped: 3 });
    const xs = groupExchanges(r.frames);
    expect(xs.map((x) => x.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
      'tools/call',
      'subscriptions/listen',
      'tasks/get',
      'tasks/get',
      'tasks/update',
      'tasks/get',
      'tasks/get',
    ]);
    expect(xs.map((x) => x.rpcId)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(xs[2].params).toMatchObject({ name: 'echo', arguments: { text: 'hello from the browser' } });
    expect(xs[2].response).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'hello from the browser' }] } });
    const listen = xs[4];
    expect(listen.streamed).toBe(true);
    const sse = listen.incoming.filter((f) => f.kind === 'sse-frame');
    expect(sse.map((f) => (f.body as { method: string }).method)).toEqual([
      'notifications/subscriptions/acknowledged',
      ...Array(sse.length - 1).fill('notifications/tasks'),
    ]);
    expect(sse.length).toBeGreaterThanOrEqual(5);
    expect(listen.incoming.filter((f) => f.kind === 'sse-comment').map((f) => f.raw)).toEqual(['keep-alive']);
    const taskId = (xs[3].response as { result: { taskId: string } }).result.taskId;
    expect(sse.slice(1).every((f) => f.taskId === taskId && f.streamId === listen.exchangeId)).toBe(true);
    // Frames inside the stream are ordered in time between the response head and the close.
    const ats = listen.incoming.map((f) => f.at);
    expect([...ats].sort((a, b) => a - b)).toEqual(ats);
    expect(r.streams).toHaveLength(1);
    expect(r.connection).toMatchObject({
      target: 'http://localhost:3001/mcp',
      era: 'modern',
      protocolVersion: '2026-07-28',
      clientInfo: { name: 'web-mcp-client', version: '0.9.4' },
    });
    expect(Object.keys(r.lints)).toHaveLength(10);
    // Header names are lower-cased like the tracked frames.
    expect(xs[0].request.headers?.['mcp-method']).toBe('server/discover');
  });

  it('an imported HAR exports redacted: the bearer token and the task id are gone', () => {
    const opened = importHar(har);
    if (!opened.ok) throw new Error(opened.error);
    const token = har.log.entries[3].request.headers.find((h) => h.name === 'Authorization')!.value.slice('Bearer '.length);
    const taskId = opened.recording.frames.find((f) => f.taskId)!.taskId!;
    const out = JSON.stringify(redactRecording(opened.recording).recording);
    expect(out).not.toContain(token);
    expect(out).not.toContain(taskId);
  });

  it('refuses what is not a HAR or has no MCP exchange', () => {
    expect(importHar({ log: {} })).toMatchObject({ ok: false, error: expect.stringContaining('Not a HAR') });
    const pageOnly = { log: { entries: har.log.entries.slice(0, 2) } };
    expect(importHar(pageOnly)).toMatchObject({ ok: false, error: expect.stringContaining('none is an MCP exchange') });
  });
});
