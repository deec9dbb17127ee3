import { describe, expect, it } from 'vitest';
import { createLintSession, type Exchange } from '../../../lib/protocol/lints';

/**
 * A task snapshot pushed on a listen stream counts from when it arrived, although the listen's own
 * exchange is linted only when its stream ends: a tasks/update answering a key only the push
 * showed is fine, and a poll after a pushed terminal status is one too many (a poll racing the
 * push by less than 100 ms excepted).
 */

const task = (status: string, extra: Record<string, unknown> = {}) => ({
  taskId: 'task-1',
  status,
  createdAt: '2026-12-01T10:00:00Z',
  lastUpdatedAt: '2026-12-01T10:00:00Z',
  ttlMs: 600_000,
  pollIntervalMs: 1_000,
  ...extra,
});
const ask = { approve: { method: 'elicitation/create', params: { mode: 'form', message: 'OK?', requestedSchema: { type: 'object', properties: {} } } } };

let nextId = 1;
function exchange(method: string, params: Record<string, unknown>, result: Record<string, unknown>, at: number): Exchange {
  const id = nextId++;
  return {
    method,
    era: 'modern',
    transport: 'http',
    at,
    request: { body: { jsonrpc: '2.0', id, method, params } },
    response: { status: 200, body: { jsonrpc: '2.0', id, result } },
  };
}

/** The sequence findings this file is about (the bare exchanges lack _meta, which other rules flag). */
const SEQUENCE = new Set(['task-update-unknown-key', 'task-poll-after-terminal', 'task-poll-too-fast']);
const ids = (lints: { id: string }[]) => lints.map((l) => l.id).filter((id) => SEQUENCE.has(id));

/** A task created at 0 and polled (working) at 1000; `push` runs between that and what follows. */
function session(push: (s: ReturnType<typeof createLintSession>) => void) {
  const s = createLintSession();
  s.lint(exchange('tools/call', { name: 'report' }, { resultType: 'task', ...task('working') }, 0));
  s.lint(exchange('tasks/get', { taskId: 'task-1' }, { resultType: 'complete', ...task('working') }, 1_000));
  push(s);
  return s;
}

const notification = (snap: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'notifications/tasks', params: snap });

describe('lints and pushed task snapshots', () => {
  it('a tasks/update answering the keys a notification showed is not an unknown key', () => {
    const update = () =>
      exchange('tasks/update', { taskId: 'task-1', inputResponses: { approve: { action: 'accept', content: {} } } }, { resultType: 'complete' }, 1_300);
    const pushed = session((s) => s.notice(notification(task('input_required', { inputRequests: ask })), 1_200));
    expect(ids(pushed.lint(update()))).toEqual([]);
    // Without the push the client answered a key it was never shown.
    expect(ids(session(() => {}).lint(update()))).toEqual(['task-update-unknown-key']);
  });

  it('a poll after a pushed terminal status is reported, unless it raced the push', () => {
    const poll = (at: number) => exchange('tasks/get', { taskId: 'task-1' }, { resultType: 'complete', ...task('completed', { result: { content: [] } }) }, at);
    const pushDone = (s: ReturnType<typeof createLintSession>) => s.notice(notification(task('completed', { result: { content: [] } })), 1_500);
    expect(ids(session(pushDone).lint(poll(2_100)))).toEqual(['task-poll-after-terminal']);
    expect(ids(session(pushDone).lint(poll(1_550)))).toEqual(['task-poll-too-fast']);
    expect(ids(session(() => {}).lint(poll(2_100)))).toEqual([]);
  });

  it('one prompt poll after a re-listen is acknowledged (pushed snapshots were lost) is not too fast', () => {
    const ack = (s: ReturnType<typeof createLintSession>, at: number) =>
      s.notice({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: ['task-1'] } } }, at);
    const poll = (at: number) => exchange('tasks/get', { taskId: 'task-1' }, { resultType: 'complete', ...task('working') }, at);
    const relistened = session((s) => {
      ack(s, 500);
      ack(s, 1_200);
    });
    expect(ids(relistened.lint(poll(1_300)))).toEqual([]);
    // The exemption is spent on that poll.
    expect(ids(relistened.lint(poll(1_400)))).toEqual(['task-poll-too-fast']);
    // A first listen is no reason to poll early.
    expect(ids(session((s) => ack(s, 1_200)).lint(poll(1_300)))).toEqual(['task-poll-too-fast']);
  });
});
