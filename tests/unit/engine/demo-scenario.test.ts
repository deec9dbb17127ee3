import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { HANDLERS } from '../../../lib/engine/handlers';
import { builtinScenarioInput, getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createMemoryStores } from '../../../lib/store/memory';
import { CAPS, TASKS_EXTENSION, callTool, rpc } from '../../helpers/rpc';

/** The built-in demo scenario: identity, seed 000 settings, catalog and the small tools. */

let engine: MockEngine;
afterEach(() => engine?.close());

function setup() {
  engine = createMockEngine({ scenario: getBuiltinScenario('demo')!, stores: createMemoryStores() });
  return engine;
}

describe('demo scenario', () => {
  it("carries seed 000's settings and both protocol versions", () => {
    const s = getBuiltinScenario('demo')!;
    expect(s.id).toBe('demo');
    expect(s.server.name).toBe('loupe-demo');
    expect(s.supportedVersions).toEqual(['2026-07-28', '2025-11-25']);
    expect(s.settings).toMatchObject({
      discoverTtlMs: 300_000,
      discoverCacheScope: 'public',
      listTtlMs: 60_000,
      toolOrder: 'name',
      taskTtlMs: 900_000,
      pollIntervalMs: 1_000,
      requestStateTtlSeconds: 300,
      replayStoreMaxEntries: 1_000,
    });
    expect(builtinScenarioInput('demo')?.id).toBe('demo');
  });

  it('names only registered handlers', () => {
    for (const tool of getBuiltinScenario('demo')!.tools) if (tool.handler) expect(HANDLERS[tool.handler], tool.name).toBeTypeOf('function');
  });

  it('server/discover: public for 300 s, every capability, the tasks extension and instructions', async () => {
    setup();
    const r = await rpc(engine, 'server/discover');
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25'],
      ttlMs: 300_000,
      cacheScope: 'public',
      capabilities: { tools: {}, resources: {}, prompts: {}, extensions: { [TASKS_EXTENSION]: {} } },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'loupe-demo' } },
    });
    for (const name of ['generate_report', 'delete_note', 'charge', 'workspace_read', 'search_notes']) expect(r.body.result.instructions).toContain(name);
  });

  it('tools/list: sorted by name, cached 60 s, every tool fully described', async () => {
    setup();
    const r = await rpc(engine, 'tools/list');
    expect(r.body.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    const tools = r.body.result.tools as Record<string, unknown>[];
    const names = tools.map((t) => t.name);
    expect(names).toEqual(['charge', 'delete_note', 'echo', 'generate_report', 'notes_timeline', 'search_notes', 'workspace_read']);
    for (const t of tools) {
      expect(t.title, String(t.name)).toEqual(expect.any(String));
      expect(t.description, String(t.name)).toEqual(expect.any(String));
      expect((t.inputSchema as { required?: unknown }).required, String(t.name)).toEqual(expect.any(Array));
      expect(t.annotations, String(t.name)).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
      });
      // Behaviour stays server-side.
      for (const key of ['handler', 'task', 'result', 'options']) expect(t, `${String(t.name)}.${key}`).not.toHaveProperty(key);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.delete_note.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.search_notes.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.workspace_read.annotations).toMatchObject({ readOnlyHint: true });
    expect((byName.generate_report.inputSchema as { properties: { size: { enum: string[] } } }).properties.size.enum).toEqual(['small', 'medium', 'large']);
  });

  it('echo returns its text', async () => {
    setup();
    const r = await callTool(engine, 'echo', { text: 'hello, loupe' });
    expect(r.body.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'hello, loupe' }] });
  });

  it('search_notes lists the notes and filters by query', async () => {
    setup();
    const all = await callTool(engine, 'search_notes', {});
    expect(all.body.result.structuredContent.count).toBe(5);
    expect(all.body.result.structuredContent.notes.map((n: { id: string }) => n.id)).toEqual(['note-1', 'note-2', 'note-3', 'note-4', 'note-5']);
    const some = await callTool(engine, 'search_notes', { query: 'RELEASE' });
    expect(some.body.result.structuredContent.notes).toEqual([expect.objectContaining({ id: 'note-2', title: 'Release checklist' })]);
    expect(some.body.result.content[0].text).toContain('note-2: Release checklist');
    const none = await callTool(engine, 'search_notes', { query: 'zebra' });
    expect(none.body.result.content[0].text).toBe('No notes match "zebra".');
  });

  it('a deleted note disappears from search_notes until reset', async () => {
    setup();
    const first = await callTool(engine, 'delete_note', { noteId: 'note-3' }, { caps: CAPS.form });
    await callTool(
      engine,
      'delete_note',
      { noteId: 'note-3' },
      {
        caps: CAPS.form,
        extra: { requestState: first.body.result.requestState, inputResponses: { confirm_delete: { action: 'accept', content: { confirm: true } } } },
      },
    );
    expect((await callTool(engine, 'search_notes', {})).body.result.structuredContent.count).toBe(4);
    await engine.reset();
    expect((await callTool(engine, 'search_notes', {})).body.result.structuredContent.count).toBe(5);
  });

  it('serves the notes resources and the summarize_notes prompt', async () => {
    setup();
    const list = await rpc(engine, 'resources/list');
    expect(list.body.result.resources.map((r: { uri: string }) => r.uri)).toEqual(['notes://index', 'notes://about', 'ui://notes/timeline.html']);
    const index = await rpc(engine, 'resources/read', { uri: 'notes://index' });
    expect(index.body.result.contents[0]).toMatchObject({
      uri: 'notes://index',
      mimeType: 'text/markdown',
      text: expect.stringContaining('**note-1** Quarterly planning'),
    });

    const prompts = await rpc(engine, 'prompts/list');
    expect(prompts.body.result.prompts).toEqual([
      expect.objectContaining({ name: 'summarize_notes', arguments: [expect.objectContaining({ name: 'style', required: false })] }),
    ]);
    const styled = await rpc(engine, 'prompts/get', { name: 'summarize_notes', arguments: { style: 'one paragraph' } });
    expect(styled.body.result.messages[1].content.text).toContain('in this style: one paragraph');
    const plain = await rpc(engine, 'prompts/get', { name: 'summarize_notes' });
    expect(plain.body.result.messages).toHaveLength(2);

    const completion = await rpc(engine, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'summarize_notes' },
      argument: { name: 'style', value: 'bu' },
    });
    expect(completion.body.result.completion.values).toEqual(['bullet points']);
  });

  it('parses SSE answers in the rpc helper (a request with a progress token on a streaming tool)', async () => {
    // The demo tools answer with JSON; the helper's SSE branch is exercised against a tool that streams.
    const { ScenarioSchema } = await import('../../../lib/scenario/schema');
    engine = createMockEngine({
      scenario: ScenarioSchema.parse({
        id: 'sse',
        server: { name: 'sse', version: '1' },
        tools: [
          {
            name: 'slow',
            inputSchema: { type: 'object' },
            progress: {
              intervalMs: 0,
              steps: [
                { progress: 1, total: 2 },
                { progress: 2, total: 2 },
              ],
            },
            result: { content: [{ type: 'text', text: 'done' }] },
          },
        ],
      }),
    });
    const r = await callTool(engine, 'slow', {}, { meta: { progressToken: 'p1' }, id: 'sse-1' });
    expect(r.streamed).toBe(true);
    expect(r.body).toMatchObject({ id: 'sse-1', result: { content: [{ text: 'done' }] } });
    expect(r.frames).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 2, total: 2 } },
    ]);
  });
});
