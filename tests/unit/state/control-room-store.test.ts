import { describe, expect, it } from 'vitest';
import type { JournalEntry, TaskSnapshot } from '../../../lib/protocol/loupe-api';
import { createControlRoomStore, MAX_ROWS } from '../../../lib/state/control-room-store';

/** The control room store: journal rows by seq, tasks by id and revision, evidence highlight. */

const entry = (seq: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  seq,
  at: 1000 + seq,
  method: 'tools/call',
  requestHeaders: {},
  requestBody: {},
  streamed: false,
  frames: [],
  ...extra,
});
const task = (taskId: string, status: string, revision: number, createdAt = 1): TaskSnapshot => ({
  taskId,
  toolName: 'generate_report',
  status,
  createdAt,
  lastUpdatedAt: createdAt,
  revision,
});

describe('control room store', () => {
  it('replaces everything with a snapshot and goes live', () => {
    const store = createControlRoomStore('demo');
    store.getState().upsertEntry(entry(9));
    store.getState().applySnapshot([entry(1), entry(2)], [task('a', 'working', 0, 1), task('b', 'working', 0, 2)]);
    const s = store.getState();
    expect(s.feed).toBe('live');
    expect(s.journal.map((r) => r.seq)).toEqual([1, 2]);
    expect(s.tasks.map((t) => t.taskId)).toEqual(['b', 'a']);
  });

  it('opens an entry, adds its frames in either journal shape, and completes it in place', () => {
    const store = createControlRoomStore('demo');
    store.getState().upsertEntry(entry(1, { status: undefined, streamed: true }));
    store.getState().addFrame(1, { at: 5, order: 2, message: { method: 'notifications/progress' } });
    store.getState().addFrame(1, { method: 'notifications/message' });
    store.getState().upsertEntry(entry(1, { status: 200, streamed: true, frames: [{ at: 5, order: 2, message: { method: 'notifications/progress' } }] }));
    const rows = store.getState().journal;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ seq: 1, status: 200, frames: [{ method: 'notifications/progress' }] });
    expect(store.getState().journalVersion).toBe(4);
  });

  it('keeps at most MAX_ROWS entries, dropping the oldest', () => {
    const store = createControlRoomStore('demo');
    for (let i = 1; i <= MAX_ROWS + 5; i++) store.getState().upsertEntry(entry(i));
    const rows = store.getState().journal;
    expect(rows).toHaveLength(MAX_ROWS);
    expect(rows[0].seq).toBe(6);
  });

  it('ignores a task snapshot older than the one it holds', () => {
    const store = createControlRoomStore('demo');
    store.getState().upsertTask(task('a', 'input_required', 3));
    store.getState().upsertTask(task('a', 'working', 2));
    expect(store.getState().tasks[0].status).toBe('input_required');
    store.getState().upsertTask(task('a', 'completed', 4));
    expect(store.getState().tasks[0].status).toBe('completed');
    store.getState().expireTask(task('a', 'failed', 4));
    expect(store.getState().tasks[0]).toMatchObject({ expired: true });
  });

  it('highlights evidence and asks to scroll to the earliest entry, again on every request', () => {
    const store = createControlRoomStore('demo');
    store.getState().highlight([7, 3, 5]);
    const first = store.getState().focus!;
    expect(first.seq).toBe(3);
    store.getState().highlight([7, 3, 5]);
    expect(store.getState().focus!.nonce).toBe(first.nonce + 1);
    store.getState().highlight([]);
    expect(store.getState().focus).toBeUndefined();
  });

  it('a reset empties journal, tasks and highlight', () => {
    const store = createControlRoomStore('demo');
    store.getState().applySnapshot([entry(1)], [task('a', 'working', 0)]);
    store.getState().highlight([1]);
    store.getState().resetAll();
    expect(store.getState()).toMatchObject({ journal: [], tasks: [], highlighted: [] });
  });
});
