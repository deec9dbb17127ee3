// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createInspectorStore, type InspectorStore } from '../../../lib/state/inspector-store';
import { fingerprint } from '../../../lib/shared/fingerprint';
import { reconnectPlan } from '../../../lib/client/reconnect';
import type { Frame } from '../../../lib/client/frames';
import { InspectorProvider } from '../../../components/inspector/InspectorProvider';
import { ToolsPanel } from '../../../components/tools/ToolsPanel';
import { TasksPanel } from '../../../components/tasks/TasksPanel';
import { StreamsPanel } from '../../../components/streams/StreamsPanel';
import { choose, cleanup, click, render, type } from '../../helpers/render';

/**
 * The tools, tasks and streams panels against a real engine in memory: list and call tools
 * with a generated form, an MRTR round answered in place with its counter, an isError result
 * shown as a result, a task card with its diagram and the cancel that is not final, and a
 * dropped listen with its reconnect plan. No raw task id ever reaches the DOM.
 */

const engines: MockEngine[] = [];
afterEach(() => {
  cleanup();
  for (const e of engines.splice(0)) e.close();
});

async function connected(): Promise<InspectorStore> {
  const engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
  engines.push(engine);
  const store = createInspectorStore({ fetch: (input, init) => engine.fetch(new Request(input, init)), scheduleLint: () => {} });
  await store.getState().connection.connect({ url: 'http://127.0.0.1/mcp' });
  return store;
}

async function until(check: () => boolean, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
}

describe('ToolsPanel', () => {
  it('lists the tools, calls delete_note through an MRTR round answered in place, and shows the result', async () => {
    const store = await connected();
    const view = render(
      <InspectorProvider store={store}>
        <ToolsPanel />
      </InspectorProvider>,
    );
    expect(view.text('[data-testid="tools-table"]')).toContain('generate_report');
    await click(view.get('[data-tool="delete_note"] [data-testid="select-tool"]'));
    await type(view.get('[data-testid="tool-call-form"] input[name="noteId"]'), 'note-2');
    await click(view.get('[data-testid="call-tool"]'));
    await until(() => !!view.query('[data-testid="input-requests"]'));
    expect(view.get('[data-testid="mrtr-round"]').textContent).toContain('Round 1 of at most 8');
    await click(view.get('[data-testid="input-requests"] input[type="checkbox"]'));
    await click(view.get('[data-testid="input-requests"] button[data-action="accept"]'));
    await until(() => !!view.query('[data-testid="tool-result"]'));
    const result = view.get('[data-testid="tool-result"]');
    expect(result.dataset.outcome).toBe('complete');
    expect(view.text('[data-testid="mrtr-rounds"]')).toContain('after 2 rounds');
  });

  it('shows an isError result as a result, and refuses bad raw JSON before sending', async () => {
    const store = await connected();
    const view = render(
      <InspectorProvider store={store}>
        <ToolsPanel />
      </InspectorProvider>,
    );
    await click(view.get('[data-tool="workspace_read"] [data-testid="select-tool"]'));
    await click(view.get('[data-testid="raw-json-toggle"]'));
    await type(view.get('[data-testid="raw-arguments"]'), '{"workspaceUri": ');
    await click(view.get('[data-testid="call-tool"]'));
    expect(view.text()).toContain('Not JSON');
    await type(view.get('[data-testid="raw-arguments"]'), '{"workspaceUri": "file:///workspace/demo", "path": "../etc/passwd"}');
    await click(view.get('[data-testid="call-tool"]'));
    await until(() => !!view.query('[data-testid="tool-result"]'));
    const result = view.get('[data-testid="tool-result"]');
    expect(result.dataset).toMatchObject({ outcome: 'complete', isError: 'true' });
    expect(view.text('[data-testid="is-error"]')).toContain('not a protocol failure');
  });
});

describe('TasksPanel', () => {
  it('runs generate_report as a task: fingerprint, live diagram, input answered with tasks/update, cancel not final', async () => {
    const store = await connected();
    const view = render(
      <InspectorProvider store={store}>
        <ToolsPanel />
        <TasksPanel />
      </InspectorProvider>,
    );
    await click(view.get('[data-tool="generate_report"] [data-testid="select-tool"]'));
    await choose(view.get('[data-testid="tool-call-form"] select[name="size"]'), 'small');
    await click(view.get('[data-testid="run-as-task"]'));
    expect(view.text('[data-testid="call-tool"]')).toBe('Call as task');
    await click(view.get('[data-testid="call-tool"]'));
    await until(() => !!view.query('[data-testid="task-card"]'));
    const id = store.getState().tasks.order[0];
    const card = () => view.get('[data-testid="task-card"]');
    expect(card().dataset.fp).toBe(fingerprint(id));
    expect(view.text('[data-testid="created-task-fp"]')).toBe(fingerprint(id));
    expect(view.container.innerHTML).not.toContain(id);
    expect(view.get('[data-node="working"]').getAttribute('data-current')).toBe('true');
    await until(() => card().dataset.status === 'input_required', 10_000);
    expect(view.get('[data-node="input_required"]').getAttribute('data-current')).toBe('true');
    expect(view.get('[data-node="working"]').getAttribute('data-visited')).toBe('true');
    expect(view.get('[data-testid="ttl-countdown"]').dataset.state).toBe('ok');
    await click(view.get('[data-testid="task-card"] [data-testid="input-requests"] button[data-action="accept"]'));
    await until(() => card().dataset.status !== 'input_required', 10_000);
    // Cancel while writing: the ack is not final, so the panel says so until a terminal status.
    expect(card().dataset.status).toBe('working');
    await click(view.get('[data-testid="cancel-task"]'));
    await until(() => !!view.query('[data-testid="cancel-pending"]'));
    expect(view.text('[data-testid="cancel-pending"]')).toContain('cancel requested — the ack is not final');
    await until(() => card().dataset.status === 'cancelled', 10_000);
    expect(view.text('[data-testid="cancel-outcome"]')).toContain('ended cancelled');
    expect(view.get('[data-node="cancelled"]').getAttribute('data-current')).toBe('true');
    expect(view.query('[data-testid="cancel-pending"]')).toBeNull();
    expect(Number(view.get('[data-testid="poll-cadence"]').dataset.polls)).toBeGreaterThan(0);
    expect(view.get('[data-testid="poll-cadence"]').dataset.tooFast).toBe('false');
    expect(view.container.innerHTML).not.toContain(id);
    store.taskRunner().dispose();
  });
});

describe('TasksPanel under 2025-11-25', () => {
  it('runs a legacy task (params.task), lists tasks with tasks/list and shows both in one shape', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('legacy-server')! });
    engines.push(engine);
    const store = createInspectorStore({ fetch: (input, init) => engine.fetch(new Request(input, init)), scheduleLint: () => {} });
    await store.getState().connection.connect({ url: 'http://127.0.0.1/mcp', era: 'legacy' });
    expect(store.getState().connection.server?.era).toBe('legacy');
    const view = render(
      <InspectorProvider store={store}>
        <ToolsPanel />
        <TasksPanel />
      </InspectorProvider>,
    );
    await click(view.get('[data-tool="summarize_document"] [data-testid="select-tool"]'));
    await type(view.get('[data-testid="tool-call-form"] input[name="documentId"]'), 'doc-1');
    await click(view.get('[data-testid="run-as-task"]'));
    await click(view.get('[data-testid="call-tool"]'));
    await until(() => !!view.query('[data-testid="task-card"]'));
    const card = () => view.get('[data-testid="task-card"]');
    expect(view.text('[data-testid="task-card"]')).toContain('2025-11-25 tasks');
    // No listen in 2025-11-25; tasks/result is there instead.
    expect(view.get<HTMLInputElement>('[data-testid="listen-toggle"]').disabled).toBe(true);
    expect(view.query('[data-testid="legacy-task-result"]')).not.toBeNull();
    await until(() => card().dataset.status === 'completed', 10_000);
    await until(() => view.text('[data-testid="task-card"]').includes('Summary of doc-1'));
    // A task this panel did not create appears once tasks/list lists it.
    const other = await store.getState().connection.session!.callTool('summarize_document', { documentId: 'doc-2' }, { task: true });
    expect(other.type).toBe('task');
    await click(view.get('[data-testid="legacy-tasks-list"]'));
    await until(() => view.all('[data-testid="task-card"]').length === 2);
    expect(view.text()).toContain('(from tasks/list)');
    const ids = store.getState().tasks.order;
    for (const id of ids) expect(store.getState().tasks.byId[id].snapshot).toHaveProperty('ttlMs', 600_000);
    expect(store.getState().tasks.byId[ids[0]].origin).toBe('listed');
    for (const id of ids) expect(view.container.innerHTML).not.toContain(id);
    store.taskRunner().dispose();
  });
});

describe('StreamsPanel', () => {
  it('shows each stream with its ack, frames, keep-alives and close, and a dropped listen’s reconnect plan', async () => {
    const store = createInspectorStore({ scheduleLint: () => {} });
    const taskId = 'task-0123456789abcdef0123456789abcdef';
    const base = { connectionId: 'c', direction: 'in' as const, bytes: 12 };
    const frames: Frame[] = [
      {
        ...base,
        seq: 0,
        at: 1000,
        direction: 'out',
        kind: 'http-request',
        exchangeId: 'c:1',
        conversationId: 'listen-1',
        rpcId: 7,
        method: 'subscriptions/listen',
        body: { jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId] } } },
      },
      { ...base, seq: 1, at: 1010, kind: 'http-response', exchangeId: 'c:1', rpcId: 7, httpStatus: 200, method: 'subscriptions/listen' },
      { ...base, seq: 2, at: 1010, kind: 'sse-open', exchangeId: 'c:1', streamId: 'c:1', rpcId: 7, conversationId: 'listen-1', method: 'subscriptions/listen' },
      {
        ...base,
        seq: 3,
        at: 1020,
        kind: 'sse-frame',
        exchangeId: 'c:1',
        streamId: 'c:1',
        rpcId: 7,
        method: 'notifications/subscriptions/acknowledged',
        body: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] } } },
      },
      {
        ...base,
        seq: 4,
        at: 1030,
        kind: 'sse-frame',
        exchangeId: 'c:1',
        streamId: 'c:1',
        rpcId: 7,
        taskId,
        method: 'notifications/tasks',
        body: { jsonrpc: '2.0', method: 'notifications/tasks', params: { taskId, status: 'working' } },
      },
      { ...base, seq: 5, at: 1040, kind: 'sse-comment', exchangeId: 'c:1', streamId: 'c:1', raw: 'keep-alive' },
      {
        ...base,
        seq: 6,
        at: 1050,
        kind: 'sse-close',
        exchangeId: 'c:1',
        streamId: 'c:1',
        rpcId: 7,
        method: 'subscriptions/listen',
        closeReason: 'network-error',
        errorText: 'socket hang up',
        durationMs: 40,
      },
    ];
    store.getState().streams.ingestMany(frames);
    store
      .getState()
      .streams.noteListenDrop(7, { at: 1050, reason: 'socket hang up', attempt: 0, plan: reconnectPlan({ filter: { taskIds: [taskId] }, attempt: 0 }) });
    const view = render(
      <InspectorProvider store={store}>
        <StreamsPanel />
      </InspectorProvider>,
    );
    const row = view.get('[data-testid="stream-row"]');
    expect(row.dataset.close).toBe('network-error');
    expect(view.text('[data-testid="stream-ack"]')).toBe('acknowledged');
    expect(view.text('[data-testid="stream-frames"]')).toBe('2');
    expect(view.text('[data-testid="stream-keepalives"]')).toBe('1');
    expect(view.get('[data-testid="listen-card"]').dataset.state).toBe('reconnecting');
    const plan = view.text('[data-testid="reconnect-plan"]');
    expect(plan).toContain('wait 250 ms');
    expect(plan).toContain('same filters');
    expect(plan).toContain(`refetch ${fingerprint(taskId)}`);
    expect(plan).toContain('no Last-Event-ID');
    await click(view.get('[data-testid="stream-row"] button'));
    expect(view.text()).toContain(`notifications/tasks ${fingerprint(taskId)}`);
    expect(view.container.innerHTML).not.toContain(taskId);
  });
});
