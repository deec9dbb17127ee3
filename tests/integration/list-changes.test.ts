import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../lib/adapters/node-http';
import { createMockEngine, type MockEngine } from '../../lib/engine';
import { ScenarioSchema } from '../../lib/scenario/schema';
import { createInspectorStore, type InspectorStore } from '../../lib/state/inspector-store';
import { listChangeFilter } from '../../lib/state/list-changes';
import CHANGING_LISTS from '../fixtures/scenarios/changing-lists.json';
import { startSdk1Server } from '../helpers/sdk1-server';

/**
 * A server's lists change while the inspector is connected. A 2026-07-28 server says so only on a
 * subscriptions/listen that asked for it, so the inspector opens one for the lists the server
 * says change, and lists the tools again (the prompts and resources panels list again when
 * their count moves). A 2025-11-25 server says so on the session's GET stream.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function inspector(): InspectorStore {
  const store = createInspectorStore({ scheduleLint: () => {} });
  cleanups.push(() => store.getState().connection.disconnect());
  return store;
}

/** The mock with one tool that announces every list changed, a prompt and a resource. */
async function serveChangingLists(): Promise<{ engine: MockEngine; url: string }> {
  const scenario = ScenarioSchema.parse(CHANGING_LISTS);
  const engine = createMockEngine({ scenario });
  const server = await listen((req) => engine.fetch(req), '127.0.0.1', 0);
  cleanups.push(
    () => engine.close(),
    () => server.close(),
  );
  return { engine, url: `http://127.0.0.1:${server.port}/mcp` };
}

const count = (engine: MockEngine, method: string) => engine.journal.entries().filter((e) => e.method === method).length;

describe('list changes in the inspector', () => {
  it('on a 2026-07-28 server, opens a listen for the lists it says change and acts on each notice', async () => {
    const { engine, url } = await serveChangingLists();
    const store = inspector();
    await store.getState().connection.connect({ url, era: 'modern' });
    expect(store.getState().connection.status).toBe('connected');
    // One listen, asking for exactly the lists the server advertises as changing.
    await until(() => count(engine, 'subscriptions/listen') === 1, 'the listen');
    const asked = engine.journal.entries().find((e) => e.method === 'subscriptions/listen')?.requestBody as { params: { notifications: unknown } };
    expect(asked.params.notifications).toEqual({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    expect(count(engine, 'tools/list')).toBe(1);
    expect(store.getState().connection.listChanges).toEqual({ prompts: 0, resources: 0 });

    // The listen is acknowledged before the call (notices sent earlier would be lost).
    await until(() => engine.journal.entries().some((e) => e.method === 'subscriptions/listen' && e.frames.length > 0), 'the acknowledgement');
    const called = await store.getState().connection.session!.callTool('rebuild', {});
    expect(called.type).toBe('complete');
    await until(() => count(engine, 'tools/list') === 2, 'the tools listed again');
    await until(
      () => store.getState().connection.listChanges.prompts === 1 && store.getState().connection.listChanges.resources === 1,
      'prompts and resources marked changed',
    );

    // Disconnect closes the listen: the mock sees it end.
    store.getState().connection.disconnect();
    await until(() => engine.journal.entries().find((e) => e.method === 'subscriptions/listen')?.end !== undefined, 'the listen closed');
  });

  it('on a 2025-11-25 server (SDK 1.32.2), takes the notices from the GET stream and opens no listen', async () => {
    const sdk = await startSdk1Server();
    cleanups.push(() => sdk.stop());
    const store = inspector();
    const methods: (string | undefined)[] = [];
    cleanups.push(store.getState().timeline.subscribeFrames((frames) => methods.push(...frames.map((f) => f.method))));
    await store.getState().connection.connect({ url: sdk.url, mode: 'direct', era: 'legacy' });
    expect(store.getState().connection.status).toBe('connected');
    const called = await store.getState().connection.session!.callTool('grow_lists', {});
    expect(called.type).toBe('complete');
    await until(
      () => store.getState().connection.listChanges.prompts >= 1 && store.getState().connection.listChanges.resources >= 1,
      'prompts and resources marked changed',
    );
    expect(methods).toContain('notifications/prompts/list_changed');
    expect(methods).not.toContain('subscriptions/listen');
  });

  it('asks only for the lists whose capability says listChanged: true', () => {
    expect(listChangeFilter({ tools: { listChanged: true }, prompts: {}, resources: { listChanged: false, subscribe: true } })).toEqual({
      toolsListChanged: true,
    });
    expect(listChangeFilter({ prompts: { listChanged: true }, resources: { listChanged: true } })).toEqual({
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    for (const none of [undefined, {}, { tools: true }, { tools: { listChanged: 'yes' } }, { logging: {} }])
      expect(listChangeFilter(none as Record<string, unknown> | undefined)).toBeUndefined();
  });
});
