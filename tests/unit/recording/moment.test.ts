import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appAt, framesUntil, recordedAppCall, streamsAt, tasksAt, timeRange } from '../../../lib/recording/moment';
import { createInspectorStore } from '../../../lib/state/inspector-store';
import { seedRecordedTasks } from '../../../lib/state/recorded-tasks';
import { recordSession, type RecordedSession } from './session';

/** A recording at a moment: what the viewer shows when scrubbed, from the frames alone. */

let session: RecordedSession;
beforeAll(async () => {
  session = await recordSession();
});
afterAll(() => session?.engine.close());

const statusAt = (at: number) => tasksAt(session.recording, at).get(session.taskId)?.status;

describe('a recording at a moment', () => {
  it('knows each task’s state, the open streams and the app view at any time', () => {
    const r = session.recording;
    const { start, end } = timeRange(r);
    expect(framesUntil(r, end)).toHaveLength(r.frames.length);
    expect(framesUntil(r, start - 1)).toHaveLength(0);
    const asked = r.frames.find((f) => f.direction === 'in' && JSON.stringify(f.body ?? '').includes('"status":"input_required"'))!;
    expect(statusAt(asked.at - 1)).toBe('working');
    expect(statusAt(asked.at)).toBe('input_required');
    expect(statusAt(end)).toBe('completed');
    const listenOpen = r.streams.find((s) => s.method === 'subscriptions/listen')!;
    expect(streamsAt(r, listenOpen.openedAt).map((s) => s.method)).toContain('subscriptions/listen');
    expect(streamsAt(r, end + 1).map((s) => s.method)).not.toContain('subscriptions/listen');

    const read = r.frames.find((f) => f.method === 'resources/read' && f.direction === 'in' && f.kind === 'message')!;
    expect(appAt(r, read.at - 1)).toBeUndefined();
    const app = appAt(r, end)!;
    expect(app).toMatchObject({ uri: 'ui://test/view.html', html: '<!doctype html><p>recorded app</p>' });
  });

  it('finds the recorded call behind an app view (its tool, input and result)', () => {
    const r = session.recording;
    const withUi = structuredClone(r);
    // Give `echo` the view, as a server binding a tool to a ui:// resource would.
    for (const f of withUi.frames) {
      const tools = (f.body as { result?: { tools?: { name: string; _meta?: unknown }[] } } | undefined)?.result?.tools;
      for (const t of tools ?? []) if (t.name === 'echo') t._meta = { ui: { resourceUri: 'ui://test/view.html' } };
      // An app-only helper on the same view, called later (by the view): not the one that showed it.
      for (const t of tools ?? []) if (t.name === 'slowly') t._meta = { ui: { resourceUri: 'ui://test/view.html', visibility: ['app'] } };
    }
    const { end } = timeRange(withUi);
    const call = recordedAppCall(withUi, appAt(withUi, end)!, end)!;
    expect(call.tool.name).toBe('echo');
    expect(call.input).toEqual({ text: 'hello' });
    expect(call.result).toMatchObject({ content: [{ text: 'echo: hello' }] });
    expect(call.resource).toMatchObject({ contents: [{ uri: 'ui://test/view.html', text: '<!doctype html><p>recorded app</p>' }] });
    expect(recordedAppCall(r, appAt(r, end)!, end)).toBeUndefined();
  });

  it('feeds the tasks panel’s slice from the recorded lifecycle, cut at the moment', () => {
    const r = session.recording;
    const load = (at: number) => {
      const store = createInspectorStore({ lint: false });
      const frames = framesUntil(r, at);
      seedRecordedTasks(store, frames);
      store.getState().timeline.appendMany(frames);
      return store.getState();
    };
    const full = load(timeRange(r).end);
    const task = full.tasks.byId[session.taskId];
    expect(task).toMatchObject({ toolName: 'report', form: 'extension', snapshot: { status: 'completed' }, end: { kind: 'terminal' } });
    expect(task.history.map((h) => h.status)).toEqual(['working', 'input_required', 'working', 'completed']);
    expect(Object.keys(task.answered)).toEqual([]);
    expect(task.pollCount).toBeGreaterThan(0);
    expect(full.streams.order.length).toBe(r.streams.length);
    const asked = r.frames.find((f) => f.direction === 'in' && JSON.stringify(f.body ?? '').includes('"status":"input_required"'))!;
    const mid = load(asked.at).tasks.byId[session.taskId];
    expect(mid.snapshot.status).toBe('input_required');
    expect(mid.end).toBeUndefined();
  });
});
