// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { InspectorProvider } from '../../../components/inspector/InspectorProvider';
import { Timeline } from '../../../components/timeline/Timeline';
import { DetailPane } from '../../../components/detail/DetailPane';
import type { Frame } from '../../../lib/client/frames';
import { fingerprint } from '../../../lib/shared/fingerprint';
import { createInspectorStore } from '../../../lib/state/inspector-store';
import { choose, cleanup, click, render } from '../../helpers/render';
import { act } from 'react';

/**
 * The timeline and detail pane over a store holding 100,000 entries: only the rows in view
 * are in the DOM, selecting one shows its JSON and masked headers, filters narrow the list,
 * and no raw task id is ever rendered in the list.
 */

afterEach(cleanup);

// happy-dom has no layout: give the list's scroll box a viewport so the virtualizer has rows to show.
for (const [prop, size] of [
  ['clientHeight', 560],
  ['clientWidth', 1000],
] as const) {
  const base = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop) ?? Object.getOwnPropertyDescriptor(Element.prototype, prop);
  Object.defineProperty(HTMLElement.prototype, prop, {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.testid === 'timeline-list' ? size : (base?.get?.call(this) ?? 0);
    },
  });
}

const TASK = 'tsk_0123456789abcdef0123456789abcdef';

function frames(total: number): Frame[] {
  const out: Frame[] = [];
  for (let ex = 0; out.length < total; ex++) {
    const exchangeId = `c1:${ex}`;
    const method = ex % 2 ? 'tasks/get' : 'tools/list';
    const req = { jsonrpc: '2.0', id: ex, method, params: method === 'tasks/get' ? { taskId: TASK } : {} };
    const raw = JSON.stringify(req);
    const headers = { 'mcp-method': method, ...(method === 'tasks/get' ? { 'mcp-name': TASK } : {}), authorization: 'Bearer top-secret' };
    out.push({
      seq: out.length,
      at: 1e12 + out.length,
      connectionId: 'c1',
      direction: 'out',
      kind: 'http-request',
      exchangeId,
      rpcId: ex,
      method,
      headers,
      body: req,
      raw,
      bytes: raw.length,
      ...(method === 'tasks/get' ? { taskId: TASK } : {}),
    });
    const result =
      method === 'tasks/get'
        ? { resultType: 'complete', taskId: TASK, status: ex % 4 === 1 ? 'working' : 'input_required', pollIntervalMs: 1000 }
        : { resultType: 'complete', tools: [] };
    const res = JSON.stringify({ jsonrpc: '2.0', id: ex, result });
    out.push({
      seq: out.length,
      at: 1e12 + out.length,
      connectionId: 'c1',
      direction: 'in',
      kind: 'message',
      exchangeId,
      rpcId: ex,
      method,
      body: JSON.parse(res),
      raw: res,
      bytes: res.length,
      ...(method === 'tasks/get' ? { taskId: TASK } : {}),
    });
  }
  return out;
}

describe('Timeline with 100,000 entries', () => {
  it('renders only the rows in view, selects an entry into the detail pane, and filters', async () => {
    const store = createInspectorStore({ lint: false, limits: { maxBytes: 256 * 1024 * 1024 } });
    store.getState().timeline.appendMany(frames(100_000));
    expect(store.getState().timeline.stats.count).toBe(100_000);
    const view = render(
      <InspectorProvider store={store}>
        <Timeline />
        <DetailPane />
      </InspectorProvider>,
    );
    const rows = view.all('[data-testid="timeline-row"]');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(100);
    expect(view.get('[data-testid="timeline-count"]').getAttribute('data-shown')).toBe('100000');
    // One row per exchange: a request and its answer are one row.
    expect(view.get('[data-testid="timeline-list"]').getAttribute('aria-rowcount')).toBe('50000');
    expect(rows.every((r) => r.getAttribute('data-kind') === 'exchange')).toBe(true);
    await choose(view.get('[data-testid="timeline-view"]'), 'frames');
    expect(view.get('[data-testid="timeline-list"]').getAttribute('aria-rowcount')).toBe('100000');
    // Task ids are shown as fingerprints only.
    expect(view.container.textContent).not.toContain(TASK);

    const poll = view.get('[data-testid="timeline-row"][data-method="tasks/get"][data-direction="out"]');
    expect(poll.textContent).toContain(fingerprint(TASK));
    await click(poll);
    expect(view.get('[data-testid="detail-json-tree"]').textContent).toContain('"method": "tasks/get"');
    const name = view.get('[data-testid="detail-headers"] tr[data-header="mcp-name"]');
    expect(name.getAttribute('data-masked')).toBe('true');
    expect(view.get('[data-testid="detail-headers"]').textContent).not.toContain(TASK);
    expect(view.get('[data-testid="detail-headers"]').textContent).not.toContain('top-secret');
    await click(view.get('[data-testid="reveal-toggle"]'));
    expect(view.get('[data-testid="detail-headers"]').textContent).toContain(TASK);
    expect(view.get('[data-testid="detail-headers"]').textContent).toContain('Bearer top-secret');

    // A snapshot shows what changed since the task's previous one.
    const snap = view.all('[data-testid="timeline-row"][data-method="tasks/get"][data-direction="in"]')[1];
    await click(snap);
    const diff = view.get('[data-testid="detail-diff"]').textContent ?? '';
    expect(diff).toMatch(/[-+].*"status": "(working|input_required)"/);

    await choose(view.get('[data-testid="filter-direction"]'), 'in');
    expect(view.get('[data-testid="timeline-count"]').getAttribute('data-shown')).toBe('50000');
    expect(view.all('[data-testid="timeline-row"]').every((r) => r.getAttribute('data-direction') === 'in')).toBe(true);
    await choose(view.get('[data-testid="filter-method"]'), 'tools/list');
    expect(view.get('[data-testid="timeline-count"]').getAttribute('data-shown')).toBe('25000');
  });

  it('takes live frames in one store update per tick and shows them', async () => {
    const store = createInspectorStore({ lint: false });
    store.getState().timeline.appendMany(frames(200));
    const view = render(
      <InspectorProvider store={store}>
        <Timeline />
      </InspectorProvider>,
    );
    const before = view.all('[data-testid="timeline-row"]').length;
    const version = store.getState().timeline.version;
    await act(async () => {
      for (const f of frames(210).slice(200)) store.getState().timeline.enqueue(f);
      await Promise.resolve();
    });
    expect(view.get('[data-testid="timeline-count"]').getAttribute('data-total')).toBe('210');
    expect(store.getState().timeline.version).toBe(version + 1);
    expect(view.all('[data-testid="timeline-row"]').length).toBeGreaterThanOrEqual(before);
  });
});
