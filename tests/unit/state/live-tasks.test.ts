import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { createInspectorStore } from '../../../lib/state/inspector-store';
import { createLiveTaskFeed } from '../../../lib/state/live-tasks';
import { seedRecordedTasks } from '../../../lib/state/recorded-tasks';
import { recordSession, type RecordedSession } from '../recording/session';

/**
 * The live tap's tasks panel is fed batch by batch, never replayed from the start: after every
 * batch it must show what a replay of the whole session so far shows.
 */

let session: RecordedSession;
beforeAll(async () => {
  session = await recordSession();
});
afterAll(() => session?.engine.close());

/** The tasks slice as the panel reads it (ids, status history, end, cancel, answered keys, tool). */
const view = (store: ReturnType<typeof createInspectorStore>) =>
  Object.values(store.getState().tasks.byId).map((t) => ({
    id: t.taskId,
    tool: t.toolName,
    form: t.form,
    history: t.history.map((h) => h.status),
    end: t.end?.kind,
    cancel: t.cancel ? { ack: t.cancel.ack } : undefined,
    answered: Object.keys(t.answered),
  }));

function replayed(frames: readonly Frame[]) {
  const store = createInspectorStore({ lint: false });
  seedRecordedTasks(store, frames);
  return view(store);
}

describe('live task feed', () => {
  it('shows after each batch what a replay of the session so far shows', () => {
    const frames = session.recording.frames;
    for (const size of [1, 7]) {
      const store = createInspectorStore({ lint: false });
      const feed = createLiveTaskFeed(store);
      for (let i = 0; i < frames.length; i += size) {
        feed.push(frames.slice(i, i + size));
        expect(view(store)).toEqual(replayed(frames.slice(0, i + size)));
      }
      const task = store.getState().tasks.byId[session.taskId];
      expect(task?.history.map((h) => h.status)).toEqual(['working', 'input_required', 'working', 'completed']);
      expect(task?.end?.kind).toBe('terminal');
      // Every task exchange got its answer: nothing is held for later batches.
      expect(feed.open).toBe(0);
    }
  });

  it('pairs an answer with a request from an earlier batch, holding only the unanswered', () => {
    const frames = session.recording.frames;
    const created = frames.findIndex((f) => f.direction === 'in' && JSON.stringify(f.body ?? '').includes('"resultType":"task"'));
    const request = frames.findIndex((f) => f.exchangeId === frames[created]!.exchangeId);
    const store = createInspectorStore({ lint: false });
    const feed = createLiveTaskFeed(store);
    feed.push(frames.slice(0, request + 1));
    expect(store.getState().tasks.byId[session.taskId]).toBeUndefined();
    expect(feed.open).toBeGreaterThan(0);
    feed.push(frames.slice(request + 1, created + 1));
    expect(store.getState().tasks.byId[session.taskId]).toMatchObject({ toolName: 'report', snapshot: { status: 'working' } });
  });
});
