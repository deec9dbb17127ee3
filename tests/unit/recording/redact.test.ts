import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../../lib/shared/fingerprint';
import { redactRecording, reviewItems, maskSecret } from '../../../lib/recording/redact';
import { collectSecrets } from '../../../lib/recording/secrets';
import { parseRecording, type Recording } from '../../../lib/recording/schema';
import { recordSession, SECRETS, type RecordedSession } from './session';

/**
 * Redaction by default: the export holds no Authorization value, cookie, token, API key or raw
 * task id anywhere (checked by scanning the serialized file for every secret of the source),
 * and each secret has one pseudonym everywhere it appears.
 */

let session: RecordedSession;
let redacted: Recording;
beforeAll(async () => {
  session = await recordSession();
  redacted = redactRecording(session.recording).recording;
});
afterAll(() => session?.engine.close());

describe('redaction', () => {
  it('the source recording really holds the secrets (the test would catch a leak)', () => {
    const text = JSON.stringify(session.recording.frames);
    for (const s of [SECRETS.bearer, SECRETS.cookie, SECRETS.urlToken, SECRETS.apiKey, session.taskId]) expect(text).toContain(s);
    // Connection metadata never keeps secret values, even unredacted.
    expect(JSON.stringify(session.recording.connection)).not.toMatch(new RegExp(`${SECRETS.bearer}|${SECRETS.cookie}|${SECRETS.urlToken}|${SECRETS.apiKey}`));
    expect(session.recording.connection.headerNames).toEqual(['Authorization', 'Cookie', 'X-Api-Key']);
  });

  it('the exported file contains no token, Authorization value, cookie, API key or raw task id', () => {
    const file = JSON.stringify(redacted);
    const secrets = collectSecrets(session.recording);
    expect(secrets.map((s) => s.kind).sort()).toEqual(['api-key', 'authorization', 'cookie', 'cookie', 'task-id', 'token']);
    for (const s of secrets) expect(file, `${s.kind} leaked`).not.toContain(s.value);
    for (const s of Object.values(SECRETS)) expect(file).not.toContain(s);
    expect(file).not.toContain(session.taskId);
    // Nor the 8-character prefix lint messages use, nor its fingerprint.
    expect(file).not.toContain(`${session.taskId.slice(0, 8)}…`);
    expect(file).not.toContain(fingerprint(session.taskId));
    // The redacted file is still a valid recording, and every raw body still parses.
    expect(parseRecording(file).ok).toBe(true);
    for (const f of redacted.frames) if (f.body !== undefined && f.raw !== undefined) expect(JSON.parse(f.raw)).toEqual(f.body);
  });

  it('replaces a task id by one pseudonym everywhere: Mcp-Name, params, results, notifications and raw SSE text', () => {
    const pseudo = 'task0001-redacted';
    const frames = redacted.frames;
    const withTask = frames.filter((f) => f.taskId !== undefined);
    expect(withTask.length).toBeGreaterThan(5);
    expect(new Set(withTask.map((f) => f.taskId))).toEqual(new Set([pseudo]));
    const gets = frames.filter((f) => f.kind === 'http-request' && f.method === 'tasks/get');
    expect(gets.length).toBeGreaterThan(0);
    for (const g of gets) {
      expect(g.headers?.['mcp-name']).toBe(pseudo);
      expect((g.body as { params: { taskId: string } }).params.taskId).toBe(pseudo);
      expect(g.raw).toContain(`"taskId":"${pseudo}"`);
    }
    const created = frames.find((f) => f.kind === 'message' && (f.body as { result?: { resultType?: string } }).result?.resultType === 'task')!;
    expect((created.body as { result: { taskId: string } }).result.taskId).toBe(pseudo);
    const notes = frames.filter((f) => f.kind === 'sse-frame' && f.method === 'notifications/tasks');
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes) {
      expect((n.body as { params: { taskId: string } }).params.taskId).toBe(pseudo);
      expect(n.raw).toContain(pseudo);
    }
    const listen = frames.find((f) => f.kind === 'http-request' && f.method === 'subscriptions/listen')!;
    expect(listen.raw).toContain(`"taskIds":["${pseudo}"]`);
    // The same credential keeps one pseudonym on every request.
    const auth = new Set(frames.filter((f) => f.kind === 'http-request').map((f) => f.headers?.authorization));
    expect(auth).toEqual(new Set(['Bearer redacted-credential-1']));
    const cookies = new Set(frames.filter((f) => f.kind === 'http-request').map((f) => f.headers?.cookie));
    expect(cookies).toEqual(new Set(['theme=redacted-cookie-1; sid=redacted-cookie-2']));
  });

  it('pseudonyms are consistent across two tasks and stable under a second redaction', () => {
    const rec = session.recording;
    const otherId = 'Zk3mQ8vN2pL5xR7tY1wB4cD6fG9hJ0sA';
    const copy = structuredClone(rec);
    const extra = copy.frames
      .filter((f) => f.taskId === session.taskId)
      .slice(0, 3)
      .map((f, i) => ({
        ...structuredClone(f),
        seq: 10_000 + i,
        taskId: otherId,
        raw: f.raw?.split(session.taskId).join(otherId),
        body:
          JSON.parse(
            JSON.stringify(f.body ?? null)
              .split(session.taskId)
              .join(otherId),
          ) ?? undefined,
      }));
    copy.frames.push(...extra);
    const out = redactRecording(copy).recording;
    const ids = new Set(out.frames.map((f) => f.taskId).filter(Boolean));
    expect(ids).toEqual(new Set(['task0001-redacted', 'task0002-redacted']));
    const again = redactRecording(out).recording;
    expect(again.frames).toEqual(out.frames);
  });

  it('lists what will be published before anything is, with masked examples', () => {
    const items = reviewItems(session.recording);
    const byKind = Object.fromEntries(items.map((i) => [i.kind, i]));
    expect(Object.keys(byKind).sort()).toEqual(['api-key', 'authorization', 'cookie', 'task-id', 'token']);
    expect(byKind['task-id']).toMatchObject({ distinct: 1, redacted: true, examples: [{ pseudonym: 'task0001-redacted' }] });
    expect(byKind['task-id'].occurrences).toBeGreaterThan(10);
    expect(byKind.cookie.distinct).toBe(2);
    const shown = JSON.stringify(items);
    for (const s of [...Object.values(SECRETS), session.taskId]) expect(shown).not.toContain(s);
    expect(maskSecret('short')).toBe('••• (5 chars)');
  });

  it('shows so little of a secret that a log of the review gives nothing away', () => {
    // Its length only, up to 23 characters: a 12-character secret showed 5 of them as "QQQ…h1".
    expect(maskSecret('QQQtoken01h1')).toBe('••• (12 chars)');
    expect(maskSecret('LEAKKEYVALUE01abcdX7q9ab')).toBe('LE… (24 chars)');
    expect(maskSecret(SECRETS.bearer)).toBe(`sk… (${SECRETS.bearer.length} chars)`);
    for (const item of reviewItems(session.recording)) for (const e of item.examples) expect(e.masked, item.kind).toMatch(/^(•••|[^…]{2}…) \(\d+ chars\)$/);
  });

  it('keeps a kind only when the user asks for it', () => {
    const { recording, items } = redactRecording(session.recording, { keep: ['task-id'] });
    const file = JSON.stringify(recording);
    expect(file).toContain(session.taskId);
    expect(file).not.toContain(SECRETS.bearer);
    expect(items.find((i) => i.kind === 'task-id')?.redacted).toBe(false);
    expect(recording.redaction?.counts).not.toHaveProperty('task-id');
  });
});
